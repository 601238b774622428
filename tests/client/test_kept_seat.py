"""A game that stops without leaving its table takes the seat back when it is started
again with the same ``join CODE``: the seat's token is kept in the data folder (the
owner's only); a token the server no longer knows is forgotten, and the join goes as a
newcomer's, with one sentence saying so."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import pytest

from tests.server.served import Served
from tests.server.wire_client import WireClient
from voice_spades.client.kept_seats import KeptSeat, KeptSeats
from voice_spades.client.line import Line
from voice_spades.client.remote_table import RemoteTable
from voice_spades.messages import Message
from voice_spades.online.command import reach_table
from voice_spades.protocol.wire import Join, Leave, Start


def seat_news(host: WireClient, seat: int) -> list[str]:
    host.drain(0.3)
    return [m["state"] for m in host.stream if m["t"] == "presence" and m["seat"] == seat]


def game(served: Served, kept: KeptSeats, code: str, seat: int | None = None
         ) -> tuple[Line, RemoteTable, list[Message]]:
    """One run of `join CODE [--seat]` as far as the table (a fresh game each time)."""
    return reach_table(served.address, "Bea", Join(code, seat=seat), kept)


def test_a_restarted_game_takes_its_seat_back_and_a_stale_token_joins_anew(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    served = Served(tmp_path / "server")
    try:
        played(served, tmp_path, caplog)
    finally:
        served.stop()


def played(served: Served, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    host = served.host(seats=("open", "bot", "bot"))
    code = host.code or ""
    kept = KeptSeats(tmp_path / "data")
    line, table, notes = game(served, kept, code)
    assert (table.my_seat, notes) == (1, [])
    token = table.token
    assert token is not None
    assert stat.S_IMODE(kept.path.stat().st_mode) == 0o600
    assert json.loads(kept.path.read_text())[f"{served.address} {code}"]["seat"] == 1
    line.close()  # the game stops without leaving: the seat is the player's still
    assert seat_news(host, 1) == ["joined", "dropped"]

    host.send(Start())  # the match goes on meanwhile
    host.until(lambda m: m["t"] == "state")
    line, table, notes = game(served, kept, code)  # the game started again
    assert (table.my_seat, table.token, notes) == (1, token, [])
    assert table.ready.wait(5) and table.started and table.seats[1].name == "Bea"
    assert seat_news(host, 1) == ["joined", "dropped", "back"]  # not a second "joined"
    # It got the table as it stands (not the whole stream), with nothing missing since.
    stream = served.thread.call(lambda hub: hub.tables[code].core.streams["seat:1"].seq)
    assert table.last_seq == stream and table.gaps == 0

    line.send(Leave())  # this seat is given up, yet the file still has its token
    assert seat_news(host, 1)[-1] == "left"
    line.close()
    line, table, notes = game(served, kept, code, seat=1)  # the same seat, now a bot's
    line.close()
    assert notes == [Message("table.kept_seat_gone", code=code)]
    assert table.my_seat == 1 and table.token not in (None, token)
    found = kept.find(served.address, code)
    assert found is not None and found.token == table.token
    assert token not in caplog.text and (table.token or "") not in caplog.text


def test_a_damaged_kept_seats_file_is_no_seat_and_is_written_afresh(tmp_path: Path) -> None:
    kept = KeptSeats(tmp_path)
    kept.path.write_text("{not json")
    assert kept.find("ws://a/ws", "123456") is None
    assert kept.keep("ws://a/ws", "123456", KeptSeat("t", 2))
    assert kept.find("ws://a/ws", "123456") == KeptSeat("t", 2)
    assert kept.forget("ws://a/ws", "123456") and kept.find("ws://a/ws", "123456") is None
