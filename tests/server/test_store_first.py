"""An arrival is stored before it is welcomed: the welcome acknowledges a seat, so a
server that dies right after sending it must still have the seat in its log.

The hub is driven directly, on the real SQLite store, by clients that look at the
store at the moment each frame is handed to them (the hub's ``Client`` port: the
frame goes out on the wire from there)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from voice_spades.engine import action_to_text, options_to_dict, profile
from voice_spades.protocol.codec import ProtocolError
from voice_spades.server.hub import Hub
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.server.table_core import TableCore


class Watching:
    """A client that notes, for each welcome it is sent, the arrivals stored by then."""

    def __init__(self, store: SQLiteStore, name: str) -> None:
        self.store, self.name, self.address = store, name, "127.0.0.1"
        self.code: str | None = None
        self.viewer: str | None = None
        self.token_hash = ""
        self.frames: list[dict[str, Any]] = []
        self.stored_at_welcome: list[list[str]] = []
        self.stored_waiting_at_welcome: list[bool] = []

    def send(self, frame: str) -> None:
        message = json.loads(frame)
        self.frames.append(message)
        if message["t"] == "welcome":
            stored = self.store.entries(message["code"])
            self.stored_at_welcome.append(
                [e["name"] for e in stored
                 if e["k"] == "presence" and e["state"] in ("joined", "watching")])
            self.stored_waiting_at_welcome.append(any(
                e["k"] == "presence" and e["state"] == "waiting" and e["name"] == self.name
                for e in stored))

    def close(self, code: int) -> None:
        pass


def test_the_host_and_a_friend_are_welcomed_only_once_stored(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "tables.sqlite3")

    async def run() -> tuple[Watching, Watching, Watching, Watching]:
        hub = Hub(store, bot_delay=0.0)
        await hub.load()
        host, friend, late, watcher = (Watching(store, n) for n in ("Ada", "Bea", "Cy", "Di"))
        await hub.create(host, options_to_dict(profile("pagat")),
                         [("human", None), ("open", None), ("bot", "easy"), ("bot", "easy")],
                         30)
        assert host.code is not None
        await hub.join(friend, host.code, 1, watch=False)
        with pytest.raises(ProtocolError, match="seat_taken"):
            await hub.join(late, host.code, 1, watch=False)
        await hub.join(watcher, host.code, None, watch=True)
        await hub.close()
        return host, friend, late, watcher

    host, friend, late, watcher = asyncio.run(run())
    assert host.stored_at_welcome == [["Ada"]]
    assert friend.stored_at_welcome == [["Ada", "Bea"]]
    assert late.stored_at_welcome == [] and late.frames == []  # refused: never welcomed
    assert watcher.stored_at_welcome == [["Ada", "Bea", "Di"]]
    # Each newcomer's stream still holds its own arrival, right after the welcome.
    for client, seat in ((host, 0), (friend, 1)):
        welcome = next(i for i, m in enumerate(client.frames) if m["t"] == "welcome")
        arrival = [m for m in client.frames[welcome:] if m["t"] == "presence"]
        assert arrival[0]["seat"] == seat and arrival[0]["state"] == "joined"
        seqs = [m["seq"] for m in client.frames[welcome + 1:] if "seq" in m]
        assert seqs == list(range(client.frames[welcome]["seq"] + 1,
                                  client.frames[welcome]["seq"] + 1 + len(seqs)))
    store.close()


def test_a_friend_waiting_for_a_bots_seat_is_stored_before_welcomed(tmp_path: Path) -> None:
    """Mid-hand, a bot's seat is the friend's from the next hand: that wait is in the
    log before the welcome, so a restarted server still knows it."""
    store = SQLiteStore(tmp_path / "tables.sqlite3")

    async def run() -> tuple[Watching, str]:
        hub = Hub(store, bot_delay=0.0)
        await hub.load()
        host, friend = Watching(store, "Ada"), Watching(store, "Bea")
        await hub.create(host, options_to_dict(profile("pagat")),
                         [("human", None)] + [("bot", "easy")] * 3, 30)
        assert host.code is not None
        await hub.start(host)
        core = hub.tables[host.code].core
        for _ in range(1000):  # the hand's first action: a bot's, or the host's
            if not core.between_hands:
                break
            if core.match.to_act == 0:
                await hub.act(host, action_to_text(core.match.view(0).legal[0]),
                              core.streams["seat:0"].seq)
            await asyncio.sleep(0.01)
        assert not core.between_hands
        await hub.join(friend, host.code, 2, watch=False)
        await hub.close()
        return friend, host.code

    friend, code = asyncio.run(run())
    waiting = [e for e in store.entries(code) if e["k"] == "presence" and e["state"] == "waiting"]
    assert [(e["seat"], e["name"]) for e in waiting] == [(2, "Bea")]
    welcome = next(m for m in friend.frames if m["t"] == "welcome")
    assert welcome["seat"] == 2
    assert friend.stored_waiting_at_welcome == [True]
    again = SQLiteStore(tmp_path / "tables.sqlite3")  # as a restarted server reads it
    record = again.table(code)
    assert record is not None
    core = TableCore.rebuild(code, record.rules, record.seed, record.grace, again.entries(code))
    assert core.waiting == {2: ("Bea", waiting[0]["tok"], "")}
    assert core.seats[2].kind == "bot"
    again.close()
    store.close()
