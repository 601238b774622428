"""Key presses from the Windows console, through ``msvcrt`` (``kbhit``, ``getwch``).

The console gives each ordinary key as its character (``"\\r"`` for Enter, ``"\\x1b"``
for Escape, ``"\\x0e"`` for Control+N) and each arrow, function or editing key as two:
a prefix, ``"\\x00"`` or ``"\\xe0"``, then a code (``"\\xe0H"`` is Up, ``"\\x00;"`` F1,
``"\\x00T"`` Shift+F1). The names are those of :mod:`.names`, as on a POSIX terminal.

``msvcrt`` is reached only through :class:`Console`, the one seam the tests replace.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Protocol, cast

from voice_spades.keys.names import UNKNOWN_KEY
from voice_spades.keys.terminal_sequences import decode

PREFIXES = ("\x00", "\xe0")
"""What the console sends before the code of an arrow, function or editing key."""
_POLL = 0.01
"""Seconds between two looks at the keyboard while waiting for a key."""


def _function_keys(first: int, names: list[str]) -> dict[int, str]:
    return {first + n: name for n, name in enumerate(names)}


_F1_F10 = [f"f{n}" for n in range(1, 11)]
EXTENDED: dict[int, str] = {
    0x47: "home", 0x48: "up", 0x49: "page_up", 0x4B: "left", 0x4D: "right", 0x4F: "end",
    0x50: "down", 0x51: "page_down", 0x52: "insert", 0x53: "delete",
    **_function_keys(0x3B, _F1_F10),
    **_function_keys(0x54, [f"shift+{name}" for name in _F1_F10]),
    # With Control or Alt the function, arrow and editing keys keep their own name
    # (a POSIX terminal's modifiers are read the same way: only Shift+F is a key).
    **_function_keys(0x5E, _F1_F10), **_function_keys(0x68, _F1_F10),
    0x73: "left", 0x74: "right", 0x75: "end", 0x76: "page_down", 0x77: "home",
    0x84: "page_up", 0x85: "f11", 0x86: "f12", 0x87: "shift+f11", 0x88: "shift+f12",
    0x89: "f11", 0x8A: "f12", 0x8B: "f11", 0x8C: "f12", 0x8D: "up", 0x91: "down",
    0x92: "insert", 0x93: "delete",
}
"""Key names by the code that follows a prefix."""
GREY_KEYS = frozenset([*range(0x47, 0x54), *range(0x73, 0x78), *range(0x84, 0x94)])
"""The codes that may follow "\xe0" (the arrow and editing keys apart from the keypad's,
F11 and F12): "\xe0" before any other character is the letter "à"."""


class Console(Protocol):
    """The part of ``msvcrt`` the reader uses."""

    def kbhit(self) -> bool:
        """True when a key press is waiting."""

    def getwch(self) -> str:
        """The next character of a key press, waiting for one; never echoed."""


def system_console() -> Console:
    """Windows' own ``msvcrt`` (ImportError elsewhere)."""
    return cast(Console, importlib.import_module("msvcrt"))


class WindowsKeys:
    """Reads key presses from the Windows console (the keyboard of the console window,
    whatever standard input is)."""

    def __init__(self, console: Console | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.console = console if console is not None else system_console()
        self._clock = clock
        self._sleep = sleep

    def read(self, timeout: float) -> list[str] | None:
        """The keys pressed within ``timeout`` seconds (maybe none). A console has no end
        of input, so this never returns None."""
        deadline = self._clock() + timeout
        while not self.console.kbhit():
            left = deadline - self._clock()
            if left <= 0:
                return []
            self._sleep(min(_POLL, left))
        return self._burst()

    def _burst(self) -> list[str]:
        """Every key waiting now, in order."""
        keys: list[str] = []
        text: list[str] = []
        pending: str | None = None  # a character read ahead, not yet taken
        while pending is not None or self.console.kbhit():
            char = pending if pending is not None else self.console.getwch()
            pending = None
            if char not in PREFIXES:
                text.append(char)
                continue
            code = self.console.getwch() if self.console.kbhit() else None
            name = _extended(char, code)
            if name is None and char == "\xe0":
                # "\xe0" is also "à", typed alone on an Italian or French keyboard.
                text.append(char)
                pending = code
                continue
            keys += [*_characters(text), name or UNKNOWN_KEY]
            text = []
        return [*keys, *_characters(text)]


def _extended(prefix: str, code: str | None) -> str | None:
    """The key a prefix and its code name, if any."""
    if code is None or (prefix == "\xe0" and ord(code) not in GREY_KEYS):
        return None
    return EXTENDED.get(ord(code))


def _characters(chars: list[str]) -> list[str]:
    """The key names of ordinary characters, as a terminal would send them (UTF-16
    surrogate pairs from the console joined into one character)."""
    if not chars:
        return []
    text = "".join(chars).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return decode(text.encode("utf-8"))
