"""Exactly one server process drives a table's bots, and another takes over when it dies.

Two real ``voice-spades serve`` processes share a private PostgreSQL database; a table
made on the first has its host there and a friend on the second, and two bots. While
the table plays, the lead (an advisory lock, seen in ``pg_locks``) is held by one
process only; then that process is killed with SIGKILL mid-hand. The other process
takes the lead and plays the bots on; it marks the dead process's player (and watcher)
dropped, and after the grace period a bot plays that seat too, until the player comes
back through the other process and the match ends. The stored log, replayed, gives each player
exactly the stream it received: no action lost, none doubled.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("psycopg")

import psycopg
from websockets.exceptions import WebSocketException

from tests.server.wire_client import WireClient, finished
from voice_spades.bench.server import free_port
from voice_spades.engine import options_to_dict, profile
from voice_spades.protocol.wire import Create, Join, SeatSpec, Start
from voice_spades.server.store_postgres import LEAD_KEY, PostgresStore
from voice_spades.server.table_core import TableCore


class Serving:
    """``python -m voice_spades serve`` on the shared database, its output in a file."""

    def __init__(self, dsn: str, folder: Path, number: int) -> None:
        self.port = free_port()
        self.address = f"ws://127.0.0.1:{self.port}/ws"
        self.output = folder / f"serve{number}.log"
        with self.output.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "voice_spades", "serve", "--port", str(self.port),
                 "--database", dsn, "--bot-delay", "0.02"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env={**os.environ, "VOICE_SPADES_HOME": str(folder), "LANGUAGE": "en"})
        end = time.monotonic() + 20
        while "ws://" not in self.output.read_text():
            assert self.process.poll() is None and time.monotonic() < end, self.said()
            time.sleep(0.05)

    def said(self) -> str:
        return self.output.read_text()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def lead_holders(dsn: str, code: str) -> list[int]:
    """The server processes (by pid) holding table ``code``'s lead."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
            "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.classid = %s AND l.objid = %s AND l.objsubid = 2",
            (LEAD_KEY, int(code))).fetchall()
    return [int(name.split("-")[2]) for (name,) in rows]  # voice-spades-PID-RANDOM


def play_on(clients: list[WireClient], done: object, timeout: float) -> None:
    """Act on each client's turn until ``done()``; a client whose line dropped comes
    back (at the address it now has) by its token."""
    end = time.monotonic() + timeout
    while not done():  # type: ignore[operator]
        assert time.monotonic() < end, "the table stopped"
        for client in clients:
            try:
                if client.ws is None:
                    client.reconnect(within=5.0)
                client.drain(0.005)
                if client.my_turn:
                    client.act()
                    assert client.view is not None
                    client.view = {**client.view, "legal": []}
            except (WebSocketException, OSError):
                client.close_quietly()


def test_one_process_drives_the_bots_and_the_other_takes_over_when_it_dies(
        pg_dsn: str, tmp_path: Path) -> None:
    PostgresStore(pg_dsn).close()  # the schema, made once before both start
    servers = [Serving(pg_dsn, tmp_path, n) for n in range(2)]
    try:
        host = WireClient(servers[0].address, "Ada").connect()
        host.send(Create(options_to_dict(profile("pagat", hand_limit=1, target=2000)),
                         (SeatSpec("human"), SeatSpec("bot", "easy"), SeatSpec("open"),
                          SeatSpec("bot", "easy")), grace=1))
        host.until(lambda m: m["t"] == "welcome")
        code = host.code or ""
        friend = WireClient(servers[1].address, "Bea").connect()
        friend.send(Join(code, seat=2))
        friend.until(lambda m: m["t"] == "welcome")
        host.until(lambda m: m["t"] == "presence" and m["seat"] == 2)
        watchers = [WireClient(server.address, f"Watcher{n}").connect()
                    for n, server in enumerate(servers)]  # one through each process
        for watcher in watchers:
            watcher.send(Join(code, watch=True))
            watcher.until(lambda m: m["t"] == "welcome")
        host.send(Start())
        clients = [host, friend]
        holders: set[tuple[int, ...]] = set()

        def some_tricks() -> bool:
            holders.add(tuple(lead_holders(pg_dsn, code)))
            return len([m for m in friend.stream if m["t"] == "state"]) > 30

        play_on(clients, some_tricks, timeout=30)
        pids = [s.process.pid for s in servers]
        holders.discard(())  # before the first bot's turn, no one needs the lead
        assert len(holders) == 1 and len(next(iter(holders))) == 1, holders
        (leader,) = next(iter(holders))
        dead = pids.index(leader)
        servers[dead].kill()
        killed = time.monotonic()
        before = len([m for m in host.stream if m["t"] == "state"])
        away, staying = clients[dead], clients[1 - dead]  # staying: its line never dropped
        away.close_quietly()  # its player stays away a while
        seen = len(staying.stream)

        def moved(seats: tuple[int, ...]) -> bool:
            return any(m["t"] == "state" and any(e.get("seat") in seats and e["type"] in
                                                 ("BidMade", "CardPlayed") for e in m["events"])
                       for m in staying.stream[seen:])

        def told(state: str) -> bool:
            return any(m["t"] == "presence" and m["seat"] == away.seat and m["state"] == state
                       for m in staying.stream[seen:])

        def watcher_dropped(name: str) -> bool:
            return any(m["t"] == "presence" and m["seat"] is None and m["name"] == name
                       and m["state"] == "dropped" for m in staying.stream[seen:])

        play_on([staying], lambda: moved((1, 3)), timeout=20)
        took_over = time.monotonic() - killed
        # The other process marks the dead process's player dropped; after the table's
        # grace period (1 s) a bot plays the seat, until the player is back.
        play_on([staying], lambda: told("dropped"), timeout=20)
        dropped = time.monotonic() - killed
        # So is the watcher who came through it; the other watcher still watches.
        play_on([staying], lambda: watcher_dropped(f"Watcher{dead}"), timeout=10)
        assert not watcher_dropped(f"Watcher{1 - dead}")
        play_on([staying], lambda: told("bot_standing_in") and moved((away.seat or 0,)),
                timeout=20)
        print(f"\nthe lead holder killed: a bot moved again {took_over:.2f} s later from the "
              f"other process; its player was marked dropped after {dropped:.2f} s")
        away.address = staying.address  # the player comes back, through the other process
        play_on(clients, lambda: finished(host) and finished(friend), timeout=40)
        assert told("back")
        assert lead_holders(pg_dsn, code) == [pids[1 - dead]]
        host.drain(0.2)
        friend.drain(0.2)
        for watcher in watchers:
            watcher.close_quietly()
    finally:
        for server in servers:
            server.stop()
    store = PostgresStore(pg_dsn)
    try:
        record = store.table(code)
        assert record is not None
        log = store.entries(code)
    finally:
        store.close()
    bot_moves = [i for i, e in enumerate(log) if e["k"] == "act" and e["seat"] in (1, 3)]
    assert len([m for m in host.stream if m["t"] == "state"]) > before
    core = TableCore.rebuild(code, record.rules, record.seed, record.grace, log, keep=None)
    assert core.over and core.match.hands_played == 1
    assert len(bot_moves) == 2 + 26  # two bids and 26 cards, each once
    for client, viewer in ((host, "seat:0"), (friend, "seat:2")):
        stored = [json.loads(f) for f in core.streams[viewer].since(client.first_seq) or []]
        # No gap, no duplicate, nothing the log lacks; after it only the players'
        # lines closing as the servers stopped.
        assert client.stream == stored[:len(client.stream)]
        assert {m["t"] for m in stored[len(client.stream):]} <= {"presence", "table"}
    survivor = servers[1 - dead].said()
    assert "refused" not in survivor and "Traceback" not in survivor, survivor
