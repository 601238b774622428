"""Reading single key presses from a terminal: raw mode and escape sequences.

:func:`key_mode` puts the terminal in character mode (no echo, no line editing) and
always restores it: on leaving the block, on an exception, and at interpreter exit.
:func:`decode` turns the bytes a terminal sends into key names (see :mod:`.names`).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import termios
from collections.abc import Iterator
from contextlib import contextmanager

from voice_spades.keys.names import UNKNOWN_KEY

ESC = 0x1B
_ESCAPE_WAIT = 0.03
"""Seconds to wait after a lone Escape byte for the rest of a sequence."""

_CSI_FINAL = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
              "P": "f1", "Q": "f2", "R": "f3", "S": "f4"}
_SS3_FINAL = {**_CSI_FINAL, "M": "enter"}
_TILDE = {1: "home", 7: "home", 4: "end", 8: "end", 2: "insert", 3: "delete", 5: "page_up",
          6: "page_down", 11: "f1", 12: "f2", 13: "f3", 14: "f4", 15: "f5", 17: "f6",
          18: "f7", 19: "f8", 20: "f9", 21: "f10", 23: "f11", 24: "f12"}
_CONTROL = {0x0D: "enter", 0x0A: "enter", 0x09: "tab", 0x7F: "backspace", 0x08: "backspace",
            0x20: "space"}


def decode(data: bytes) -> list[str]:
    """The key names in a burst of terminal input (several keys may arrive at once)."""
    keys: list[str] = []
    i = 0
    while i < len(data):
        key, i = _decode_one(data, i)
        keys.append(key)
    return keys


def _decode_one(data: bytes, i: int) -> tuple[str, int]:
    byte = data[i]
    if byte == ESC:
        return _decode_escape(data, i)
    if byte in _CONTROL:
        return _CONTROL[byte], i + 1
    if byte < 0x20:
        return (f"ctrl+{chr(byte + 0x60)}" if 1 <= byte <= 26 else UNKNOWN_KEY), i + 1
    if byte < 0x80:
        char = chr(byte)
        return (f"shift+{char.lower()}" if char.isupper() else char), i + 1
    # A UTF-8 character: no key of ours, but say which one it was.
    length = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
    return data[i:i + length].decode("utf-8", "replace"), i + length


def _decode_escape(data: bytes, i: int) -> tuple[str, int]:
    if i + 1 >= len(data) or data[i + 1] not in b"[O":
        return "escape", i + 1
    if data[i + 1] == ord("O"):
        if i + 2 >= len(data):
            return "escape", i + 1
        return _SS3_FINAL.get(chr(data[i + 2]), UNKNOWN_KEY), i + 3
    j = i + 2
    if j < len(data) and data[j] == ord("["):  # Linux console F1-F5: ESC [ [ A..E
        if j + 1 < len(data):
            return {ord(c): f"f{n}" for n, c in enumerate("ABCDE", 1)}.get(
                data[j + 1], UNKNOWN_KEY), j + 2
        return UNKNOWN_KEY, j + 1
    start = j
    while j < len(data) and 0x20 <= data[j] <= 0x3F:
        j += 1
    if j >= len(data):
        return UNKNOWN_KEY, j
    params, final = data[start:j].decode("ascii", "replace"), chr(data[j])
    if final == "~":
        number = params.split(";")[0]
        key = _TILDE.get(int(number), UNKNOWN_KEY) if number.isdigit() else UNKNOWN_KEY
    else:
        key = _CSI_FINAL.get(final, UNKNOWN_KEY)
    return _with_shift(key, params), j + 1


def _with_shift(key: str, params: str) -> str:
    """Shift+F1 is "ESC [ 1 ; 2 P" (modifier 2 is Shift): the function keys take it."""
    if key.startswith("f") and key[1:].isdigit() and params.split(";")[1:2] == ["2"]:
        return f"shift+{key}"
    return key


@contextmanager
def key_mode(fd: int) -> Iterator[None]:
    """Character-at-a-time input without echo on terminal ``fd``; restored afterwards.

    Control-C and Control-backslash still send their signals (the caller saves and
    quits on them); flow control (Control-S/Q) and literal-next (Control-V) are turned
    off. Keys typed before are kept, not flushed: they are the player's first keys.
    """
    saved = termios.tcgetattr(fd)

    def restore() -> None:
        with contextlib.suppress(termios.error):  # a terminal that is gone needs nothing
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    mode = termios.tcgetattr(fd)
    mode[0] &= ~(termios.IXON | termios.ICRNL)
    mode[3] &= ~(termios.ICANON | termios.ECHO | termios.IEXTEN)
    mode[6][termios.VMIN] = 1
    mode[6][termios.VTIME] = 0
    atexit.register(restore)
    termios.tcsetattr(fd, termios.TCSANOW, mode)
    try:
        yield
    finally:
        restore()
        atexit.unregister(restore)


class TerminalKeys:
    """Reads key presses from a terminal file descriptor already in :func:`key_mode`."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read(self, timeout: float) -> list[str] | None:
        """The keys pressed within ``timeout`` seconds (maybe none); None at end of input."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return []
        data = os.read(self.fd, 1024)
        if not data:
            return None
        # An escape sequence may arrive split; a lone Escape byte waits briefly for more.
        while data[-1] == ESC or _incomplete_csi(data):
            more, _, _ = select.select([self.fd], [], [], _ESCAPE_WAIT)
            if not more:
                break
            chunk = os.read(self.fd, 1024)
            if not chunk:
                break
            data += chunk
        return decode(data)


def _incomplete_csi(data: bytes) -> bool:
    start = data.rfind(bytes([ESC]))
    if start < 0 or len(data) - start > 8:
        return False
    tail = data[start + 1:]
    if tail in (b"[", b"O", b"[["):
        return True
    return tail.startswith(b"[") and all(0x20 <= b <= 0x3F for b in tail[1:])
