"""A real server for the tests: uvicorn on 127.0.0.1 (a free port) in a thread, with the
SQLite store in the test's temporary folder and bots that act at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.wire_client import WireClient
from voice_spades.engine import options_to_dict, profile
from voice_spades.protocol.wire import Create, SeatSpec
from voice_spades.server.app import ServerThread
from voice_spades.server.hub import Hub
from voice_spades.server.store_sqlite import SQLiteStore


class Served:
    """A running server and what the tests reach through it."""

    def __init__(self, folder: Path, **hub_options: Any) -> None:
        self.store = SQLiteStore(folder / "tables.sqlite3")
        options = {"bot_delay": 0.0, **hub_options}
        self.thread = ServerThread(lambda: Hub(self.store, **options)).start()
        self.address = self.thread.address

    def client(self, name: str = "Ada", lang: str = "en") -> WireClient:
        """A connected client that said hello."""
        return WireClient(self.address, name, lang).connect()

    def host(self, rules: str = "pagat", players: int = 4, seats: tuple[str, ...] = (),
             hands: int = 1, grace: int = 30, name: str = "Ada",
             target: int | None = None) -> WireClient:
        """A client that created a table (seat 0): ``seats`` are the other seats' kinds
        ("bot" is an easy bot), default all bots; the match is not started."""
        kinds = seats or ("bot",) * (players - 1)
        client = self.client(name)
        rules_json = options_to_dict(profile(rules, players=players, hand_limit=hands,
                                             target=target))
        client.send(Create(rules_json,
                           (SeatSpec("human"), *(SeatSpec(k, "easy" if k == "bot" else None)
                                                 for k in kinds)), grace))
        client.until(lambda m: m["t"] == "welcome")
        client.until(lambda m: m["t"] == "table" and m["seats"][0]["kind"] == "human")
        return client

    def log(self, code: str) -> list[dict[str, Any]]:
        """The table's stored log."""
        return self.store.entries(code)

    def stop(self) -> None:
        self.thread.stop()
        self.store.close()


@pytest.fixture(name="served")
def served_fixture(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path)
    yield server
    server.stop()
