"""Two server processes sharing one PostgreSQL database serve one table together.

Real ``voice-spades serve`` processes on 127.0.0.1, a real private PostgreSQL, and the
bench's simulated clients speaking the wire protocol: the table is created on one
process and its seats are split between both, so every action crosses from one
process to the other through the database (the log, then LISTEN/NOTIFY).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("psycopg")

from voice_spades.bench.server import servers
from voice_spades.bench.server_clients import TableRun, play_table
from voice_spades.engine import profile
from voice_spades.engine.saved_rules import options_to_dict
from voice_spades.server.store_postgres import PostgresStore


async def _play(tables: list[TableRun]) -> None:
    await asyncio.wait_for(asyncio.gather(*(play_table(t, 7 + t.number) for t in tables)),
                           60)


def test_one_table_played_from_two_processes(pg_dsn: str, tmp_path: Path) -> None:
    rules = options_to_dict(profile("pagat"))
    with servers(2, pg_dsn, tmp_path) as running:
        addresses = [f"ws://127.0.0.1:{port}/ws" for _, port in running]
        # Seats 0 and 2 on the first process, 1 and 3 on the second.
        tables = [TableRun(n, 4, 1, 0.0, rules, addresses) for n in range(2)]
        asyncio.run(_play(tables))
    for table in tables:
        assert table.errors == []
        assert len(table.sent) >= 4 + 52  # four bids and thirteen tricks at least
        for viewer in table.viewers:
            assert viewer.gaps == 0 and viewer.duplicates == 0
            assert len(viewer.states) == len(table.sent) + 1  # each action once, + opening
            # Every viewer heard the same public events in the same order.
            assert viewer.public == table.viewers[0].public
        played = [json.loads(e) for e in table.viewers[0].public]
        assert sum(1 for e in played if e["type"] == "CardPlayed") == 52
        assert sum(1 for e in played if e["type"] == "HandScored") == 1
    # The database holds each table's log whole: one act entry per action sent.
    store = PostgresStore(pg_dsn)
    try:
        for table in tables:
            log = store.entries(table.code)
            acts = [e for e in log if e["k"] == "act"]
            assert len(acts) == len(table.sent)
    finally:
        store.close()


def test_a_friend_waiting_on_one_process_takes_the_seat_when_the_other_ends_the_hand(
        pg_dsn: str) -> None:
    """The wait for a bot's seat is in the log: the process leading the bots ends the
    hand, and the friend's own process seats the friend (the other never marks the
    friend dropped for having no line there)."""
    from tests.server.wire_client import WireClient, play
    from voice_spades.protocol.wire import Create, Join, SeatSpec, Start
    from voice_spades.server.app import ServerThread
    from voice_spades.server.hub import Hub
    from voice_spades.server.store_postgres import open_postgres

    opened = [open_postgres(pg_dsn) for _ in range(2)]
    threads = [ServerThread(lambda s=store, f=feed: Hub(s, feed=f, bot_delay=0.0,
                                                        mark_dropped_at_start=False)).start()
               for store, feed in opened]
    try:
        host = WireClient(threads[0].address, "Ada").connect()
        host.send(Create(options_to_dict(profile("pagat", hand_limit=2, target=2000)),
                         (SeatSpec("human"), *[SeatSpec("bot", "easy")] * 3)))
        host.until(lambda m: m["t"] == "welcome")
        host.send(Start())
        play([host], lambda: any(m["t"] == "state" and any(e["type"] == "BidMade"
                                                           for e in m["events"])
                                 for m in host.stream))
        friend = WireClient(threads[1].address, "Bea").connect()
        friend.send(Join(host.code or "", seat=2))
        assert friend.until(lambda m: m["t"] == "welcome")["seat"] == 2

        def seated() -> bool:
            return any(m["t"] == "presence" and m["seat"] == 2 and
                       m["state"] in ("took_seat", "dropped") for m in host.stream)

        play([host, friend], seated, timeout=30)
        news = [m["state"] for m in host.stream if m["t"] == "presence" and m["seat"] == 2]
        assert news == ["waiting", "took_seat"], news
        host.close()
        friend.close()
    finally:
        for thread in threads:
            thread.stop()
        for store, _ in opened:
            store.close()
