"""Issue 46, point 7: a crashed server loses nothing.

``voice-spades serve`` runs as a process of its own on a SQLite file; two players each
play their table against bots while another thread kills the server with SIGKILL 20
times, at random moments, and starts it again on the same port and file. Each time the
players come back by themselves (token and last seq); the server's welcome holds at
least every stream message they had (an action is stored before it is acknowledged),
and at the end what each player received is, message for message, the stream rebuilt
from the stored log.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from websockets.exceptions import ConnectionClosed, WebSocketException

from tests.server.wire_client import WireClient
from voice_spades.engine import options_to_dict, profile
from voice_spades.protocol.wire import Create, SeatSpec, Start
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.server.table_core import TableCore

KILLS = 20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """``python -m voice_spades serve`` on one port and one database, restartable."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.database = folder / "tables.sqlite3"
        self.env = {**os.environ, "VOICE_SPADES_HOME": str(folder), "LANGUAGE": "en"}
        self.process: subprocess.Popen[str] | None = None
        self.ready = threading.Event()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voice_spades", "serve", "--port", str(self.port),
             "--database", str(self.database), "--bot-delay", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=self.env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # said once it listens
        assert "ws://127.0.0.1" in line, line
        self.ready.set()

    def kill(self) -> None:
        self.ready.clear()
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def killer(server: ServerProcess, done: threading.Event, all_back: threading.Event,
           rng: random.Random, kills: list[float]) -> None:
    """Once every player is back and playing, kill the server at a random moment, and
    start it again."""
    while len(kills) < KILLS and not done.is_set():
        if not all_back.wait(30):
            return
        time.sleep(rng.uniform(0.1, 0.5))
        all_back.clear()
        server.kill()
        kills.append(time.monotonic())
        server.start()


def come_back(client: WireClient, back: list[float]) -> None:
    had = client.last_seq
    back.append(client.reconnect(within=20.0))
    welcome = next(m for m in reversed(client.others) if m["t"] == "welcome")
    assert welcome["seq"] >= had, f"the server lost acknowledged messages: {welcome} < {had}"


def test_twenty_kills_lose_no_acknowledged_action(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    address = f"ws://127.0.0.1:{server.port}/ws"
    players = [WireClient(address, name).connect() for name in ("Ada", "Bea")]
    for player, rules in zip(players, ("pagat", "playroom"), strict=True):
        player.send(Create(options_to_dict(profile(rules, hand_limit=30, target=2000)),
                           (SeatSpec("human"), *[SeatSpec("bot", "easy")] * 3)))
        player.until(lambda m: m["t"] == "welcome")
        player.send(Start())
    done, all_back = threading.Event(), threading.Event()
    all_back.set()
    kills: list[float] = []
    back: list[float] = []
    murderer = threading.Thread(target=killer, args=(server, done, all_back,
                                                     random.Random(46), kills))
    murderer.start()
    actions = 0
    try:
        end = time.monotonic() + 150
        while len(kills) < KILLS or not all_back.is_set():
            assert time.monotonic() < end, f"{len(kills)} kills only"
            if all(p.ws is not None for p in players) and server.ready.is_set():
                all_back.set()
            for player in players:
                try:
                    if player.ws is None:
                        raise ConnectionClosed(None, None)
                    player.drain(0.002)
                    if player.my_turn:
                        player.act()
                        assert player.view is not None
                        player.view = {**player.view, "legal": []}
                        actions += 1
                except (WebSocketException, OSError, TimeoutError):
                    player.close_quietly()
                    server.ready.wait(20)
                    come_back(player, back)
        for player in players:
            player.drain(0.3)
    finally:
        done.set()
        murderer.join(30)
        server.stop()
    store = SQLiteStore(server.database)
    for player in players:
        record = store.table(player.code or "")
        assert record is not None
        core = TableCore.rebuild(record.code, record.rules, record.seed, record.grace,
                                 store.entries(record.code), keep=None)
        frames = core.streams["seat:0"].since(0) or []
        assert player.stream == [json.loads(f) for f in frames][:len(player.stream)]
        assert len(player.stream) == player.last_seq
    store.close()
    print(f"\n{len(kills)} kills, {actions} actions by the players, {len(back)} returns: "
          f"median {sorted(back)[len(back) // 2]:.2f} s, max {max(back):.2f} s (server "
          "start included)")
    assert len(kills) == KILLS and len(back) >= KILLS * len(players)
