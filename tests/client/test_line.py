"""The line to a real server on 127.0.0.1: create, join, a wrong code, no server."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.client.net import connect, eventually, running_server
from voice_spades.engine import options_to_dict, profile
from voice_spades.narration import Phrasebook
from voice_spades.protocol.wire import Create, Join, SeatSpec, Start


def test_a_friend_joins_by_code_and_both_hear_the_seating(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        rules = options_to_dict(profile("pagat"))
        seats = (SeatSpec("human"), SeatSpec("open"), SeatSpec("bot", "easy"), SeatSpec("open"))
        host_line, host = connect(server.address, Create(rules, seats), name="Ada")
        assert host.token is not None and host.host and host.my_seat == 0
        assert host.code is not None and len(host.code) == 6 and host.code.isdigit()
        friend_line, friend = connect(server.address, Join(host.code), name="Giulia",
                                      lang="it")
        assert friend.my_seat == 1
        eventually(lambda: any(s.name == "Giulia" for s in host.seats))
        notes = host.notes()
        words = Phrasebook(profile("pagat"), 0)
        said = [words.message(note.message) for note in notes]
        assert "Giulia sat down as West." in said, said
        host_line.send(Start())
        eventually(lambda: host.ready.is_set() and friend.ready.is_set())
        assert friend.view().seat == 1 and len(friend.view().legal) >= 0
        assert [s.kind for s in friend.seats] == ["human", "human", "bot", "bot"]
        host_line.close()
        friend_line.close()


def test_a_wrong_code_is_one_sentence(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        line, table = connect(server.address, Join("999999"))
        assert table.token is None
        error = table.errors[0]
        assert error.id == "net.no_such_table"
        words = Phrasebook(profile("pagat"), 0)
        assert words.message(error) == (
            "There is no table with the code 999999. Check the 6 digits with the host.")
        line.close()


def test_no_server_is_one_sentence_at_once() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    line, _ = connect(f"ws://127.0.0.1:{port}/ws", Join("123456"))
    assert line.failure is not None and line.failure.id == "table.unreachable"
    words = Phrasebook(profile("pagat"), 0)
    assert words.message(line.failure).startswith(
        f"There is no table server at ws://127.0.0.1:{port}/ws")
