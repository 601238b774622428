"""What a server keeps: at most so many connections from one address, no table that
was opened and left before it started, and no finished table at its next start."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.served import Served
from tests.server.wire_client import WireClient, finished, play
from voice_spades.client.line import server_url
from voice_spades.narration.catalog import Catalog
from voice_spades.online.command import open_line
from voice_spades.protocol.wire import Join, Start
from voice_spades.server.store_sqlite import SQLiteStore


def test_one_address_has_at_most_its_connections_and_hears_why(tmp_path: Path) -> None:
    served = Served(tmp_path, max_connections=3)
    try:
        lines = [served.client(name) for name in ("A", "B", "C")]
        with connect(served.address, open_timeout=5) as refused:  # told before its hello
            error = json.loads(refused.recv(timeout=5))
            assert (error["t"], error["id"], error["fields"]) == \
                ("error", "net.too_many_connections", {"limit": 3})
            with pytest.raises(ConnectionClosed):
                refused.recv(timeout=2)
            assert refused.close_code == 1008
        # The joining player's game words the refusal, as its one sentence.
        line, table = open_line(server_url(served.address), "Eve", Join("123456"))
        line.close()
        assert table.token is None and [e.id for e in table.errors] == \
            ["net.too_many_connections"]
        lines[0].close()
        time.sleep(0.2)  # the server sees the line closed
        again = WireClient(served.address, "D").connect()
        again.send({"t": "ping"})
        assert again.until(lambda m: m["t"] in ("pong", "error"))["t"] == "pong"
    finally:
        served.stop()
    said = {lang: Catalog(lang, strict=True).render("net.too_many_connections", limit=3)
            for lang in ("en", "it", "fr")}
    assert said["en"] == ("This server already has 3 connections from your address, the "
                          "most it allows: close one of them, then try again.")
    assert "3 connessioni" in said["it"] and "3 connexions" in said["fr"]


def test_a_table_left_before_its_start_is_removed_a_played_one_stays(
        tmp_path: Path) -> None:
    served = Served(tmp_path, abandon_after=0.4)
    try:
        left = served.host()
        kept = served.host(name="Bea")
        started = served.host(name="Cy")
        started.send(Start())
        play([started], lambda: len(started.stream) > 8)
        for host in (left, started):
            host.cut()
        end = time.monotonic() + 5
        while left.code in served.thread.call(lambda hub: list(hub.tables)):
            assert time.monotonic() < end, "the abandoned table was never removed"
            time.sleep(0.05)
        live = [record.code for record in served.store.tables()]
        assert left.code not in live and served.log(left.code or "") == []
        assert kept.code in live and started.code in live  # a player there; started
        back = WireClient(served.address)
        back.token, back.last_seq = left.token, left.last_seq
        back.connect(resume=True)
        assert back.until(lambda m: m["t"] == "error")["id"] == "net.bad_token"
    finally:
        served.stop()


def test_a_finished_table_is_not_loaded_at_the_next_start(tmp_path: Path) -> None:
    served = Served(tmp_path)  # finished tables stay served their 10 minutes here
    try:
        host = served.host()
        host.send(Start())
        play([host], lambda: finished(host), timeout=20)
        playing = served.host(name="Bea")
        time.sleep(0.2)  # the finish is stored as the match ends
    finally:
        served.stop()
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    try:
        assert [record.code for record in store.tables()] == [playing.code]
        assert store.entries(host.code or "")  # kept until its review time is over
        store.remove_finished(0.0)  # what a start does once that time is over
        assert store.entries(host.code or "") == [] and store.entries(playing.code or "")
    finally:
        store.close()


@pytest.mark.parametrize(("option", "said"), [
    (["--max-connections", "0"], "--max-connections must be a whole number from 1 to 100000."),
    (["--abandon-after", "0.5"], "--abandon-after must be a number of minutes from 1 to 10080."),
])
def test_serve_refuses_a_cap_or_a_wait_that_makes_no_server(
        option: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    from voice_spades.serve_command import main

    assert main(option) == 2
    assert capsys.readouterr().err.strip() == said
