"""Terminal key decoding and the raw key mode that must always be undone."""

from __future__ import annotations

import os
import pty
import termios
import time

import pytest

from voice_spades.keys import TerminalKeys, decode, key_mode


@pytest.mark.parametrize(("data", "keys"), [
    (b"\x1b[A\x1b[B\x1b[C\x1b[D", ["up", "down", "right", "left"]),
    (b"\x1bOA\x1bOD", ["up", "left"]),
    (b"\x1b[H\x1b[F\x1bOH\x1bOF\x1b[1~\x1b[4~\x1b[7~\x1b[8~",
     ["home", "end", "home", "end", "home", "end", "home", "end"]),
    (b"\x1b[5~\x1b[6~\x1b[3~", ["page_up", "page_down", "delete"]),
    (b"\x1bOP\x1b[15~\x1b[24~\x1b[[A", ["f1", "f5", "f12", "f1"]),
    (b"\x1b[1;2A", ["up"]),
    (b"\x1b", ["escape"]),
    (b"\r\n\t \x7f", ["enter", "enter", "tab", "space", "backspace"]),
    (b"hH?7\x0e", ["h", "shift+h", "?", "7", "ctrl+n"]),
    (b"\x1b[99~\x1b[Z", ["unknown", "unknown"]),
    ("é".encode(), ["é"]),
])
def test_decode(data: bytes, keys: list[str]) -> None:
    assert decode(data) == keys


def test_key_mode_reads_keys_and_restores_the_terminal_even_on_error() -> None:
    leader, follower = pty.openpty()
    try:
        before = termios.tcgetattr(follower)
        with pytest.raises(RuntimeError), key_mode(follower):
            mode = termios.tcgetattr(follower)
            assert not mode[3] & termios.ICANON and not mode[3] & termios.ECHO
            os.write(leader, b"h\x1b[A")
            assert TerminalKeys(follower).read(1.0) == ["h", "up"]
            assert TerminalKeys(follower).read(0.01) == []
            raise RuntimeError("crash")
        assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)


def test_an_escape_sequence_split_in_two_reads_is_one_key() -> None:
    leader, follower = pty.openpty()
    try:
        with key_mode(follower):
            os.write(leader, b"\x1b[")
            os.write(leader, b"B")
            assert TerminalKeys(follower).read(1.0) == ["down"]
    finally:
        os.close(leader)
        os.close(follower)


def test_keys_typed_before_the_key_mode_are_kept() -> None:
    """The first keys, typed while the game starts, are the player's: not flushed."""
    leader, follower = pty.openpty()
    try:
        os.write(leader, b"z3")
        time.sleep(0.2)  # the terminal has them (typed while the game loads)
        with key_mode(follower):
            assert TerminalKeys(follower).read(1.0) == ["z", "3"]
    finally:
        os.close(leader)
        os.close(follower)
