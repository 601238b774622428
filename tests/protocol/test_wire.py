"""Frames are refused when too big, too deep, not JSON or not a known message; the
client's messages read back as what it built."""

from __future__ import annotations

import json

import pytest

from voice_spades.protocol.codec import ProtocolError
from voice_spades.protocol.wire import (
    CHAT_MAX,
    MAX_DEPTH,
    MAX_FRAME_BYTES,
    Act,
    Chat,
    ClientMessage,
    Create,
    Hello,
    Join,
    Leave,
    Ping,
    SeatSpec,
    SetSeat,
    Start,
    encode,
    parse_frame,
    read_client,
)

MESSAGES: list[ClientMessage] = [
    Hello("Ada", "it"), Hello("Bo", "fr", token="abc", last_seq=12),
    Create({"name": "pagat", "players": 4}, (SeatSpec("human"), SeatSpec("bot", "hard"),
                                            SeatSpec("open"), SeatSpec("bot", "easy")), 5),
    Join("012345"), Join("999999", seat=2), Join("123456", watch=True),
    SetSeat(1, "bot", "medium"), SetSeat(2, "open"), Start(), Act("bid:nil", 3),
    Chat("ciao a tutti"), Leave(), Ping(),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_what_a_client_builds_reads_back_the_same(message: ClientMessage) -> None:
    assert read_client(parse_frame(encode(message.to_json()))) == message


def error_of(frame: str | bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        read_client(parse_frame(frame))
    return caught.value.message_id


@pytest.mark.parametrize(("frame", "expected"), [
    ("{not json", "net.bad_message"),
    ("[1, 2]", "net.bad_message"),
    ('{"no_type": 1}', "net.bad_message"),
    (b"\xff\xfe{}", "net.bad_message"),
    ('{"t": "dance"}', "net.unknown_type"),
    ('{"t": 5}', "net.bad_message"),
    ('{"t": "hello", "name": "x", "lang": "de", "v": 1}', "net.bad_message"),
    ('{"t": "hello", "name": "' + "x" * 41 + '", "lang": "en", "v": 1}', "net.bad_message"),
    ('{"t": "hello", "name": "a\\u0007b", "lang": "en", "v": 1}', "net.bad_message"),
    ('{"t": "hello", "name": "Ada", "lang": "en"}', "net.bad_message"),
    ('{"t": "join", "code": "12345"}', "net.bad_message"),
    ('{"t": "join", "code": "12345a"}', "net.bad_message"),
    ('{"t": "join", "code": "١٢٣٤٥٦"}', "net.bad_message"),
    ('{"t": "join", "code": "123456", "seat": 9}', "net.bad_message"),
    ('{"t": "act", "action": "play:QS", "at_seq": -1}', "net.bad_message"),
    ('{"t": "act", "action": "play:QS", "at_seq": true}', "net.bad_message"),
    ('{"t": "create", "rules": {}, "seats": [{"kind": "alien"}]}', "net.bad_message"),
    ('{"t": "create", "rules": {}, "seats": [{"kind": "bot"}], "grace": 5}', "net.bad_message"),
    ('{"t": "chat", "text": "' + "a" * (CHAT_MAX + 1) + '"}', "net.chat_too_long"),
    ('{"t": "chat", "text": "   "}', "net.bad_message"),
    ("{" * (MAX_DEPTH + 1) + "}" * (MAX_DEPTH + 1), "net.bad_message"),
    ('{"t": "ping", "x": ' + "[" * 5000 + "]" * 5000 + "}", "net.bad_message"),
    ('{"t": "ping", "pad": "' + "x" * MAX_FRAME_BYTES + '"}', "net.too_big"),
    ("x" * (1 << 20), "net.too_big"),
], ids=range(24))
def test_a_bad_frame_is_refused_with_its_error(frame: str | bytes, expected: str) -> None:
    assert error_of(frame) == expected


def test_brackets_inside_strings_do_not_count_as_depth() -> None:
    frame = json.dumps({"t": "chat", "text": "[[[[[[[[[[{{{{{{{{{ \\\" ]]"})
    assert read_client(parse_frame(frame)) == Chat("[[[[[[[[[[{{{{{{{{{ \\\" ]]")


def test_chat_control_characters_become_spaces() -> None:
    assert read_client({"t": "chat", "text": "hi\x1b[2Jthere"}) == Chat("hi [2Jthere")
