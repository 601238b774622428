"""Reading single key presses from the player's terminal, on every desktop.

One interface over two readers, chosen by ``sys.platform``: a POSIX terminal (Linux,
macOS: raw mode and escape sequences, :mod:`.terminal_posix`) or the Windows console
(``msvcrt``, :mod:`.terminal_windows`). Both give the key names of :mod:`.names`.
Neither platform's modules (``termios``, ``msvcrt``) are imported before they are used.

:func:`key_mode` puts the terminal in character mode and always restores it;
:class:`TerminalKeys` reads the keys; :func:`decode` names the bytes a terminal sends.
"""

from __future__ import annotations

import contextlib
import sys
from contextlib import AbstractContextManager
from typing import Protocol

from voice_spades.keys.terminal_sequences import decode

__all__ = ["KeyReader", "TerminalKeys", "decode", "key_mode", "uses_console"]


class KeyReader(Protocol):
    """What reads keys on one platform."""

    def read(self, timeout: float) -> list[str] | None:
        """The keys pressed within ``timeout`` seconds (maybe none); None at end of input."""


def uses_console(platform: str | None = None) -> bool:
    """True where keys come from the Windows console rather than a POSIX terminal
    (``platform``: as ``sys.platform`` says, or another one, for tests)."""
    return (platform or sys.platform) == "win32"


def key_mode(fd: int, platform: str | None = None) -> AbstractContextManager[None]:
    """Character-at-a-time input without echo on terminal ``fd``, restored afterwards
    (see :func:`.terminal_posix.key_mode`). The Windows console needs nothing: its reader
    already takes each key as it is pressed, unechoed."""
    if sys.platform != "win32" and not uses_console(platform):  # (spelled out for mypy)
        from voice_spades.keys.terminal_posix import key_mode as posix_key_mode

        return posix_key_mode(fd)
    return contextlib.nullcontext()


def reader_for(fd: int, platform: str | None = None) -> KeyReader:
    """The key reader of this platform, for terminal ``fd`` (ignored on Windows, where
    the console's keyboard is read)."""
    if sys.platform != "win32" and not uses_console(platform):
        from voice_spades.keys.terminal_posix import PosixKeys

        return PosixKeys(fd)
    from voice_spades.keys.terminal_windows import WindowsKeys

    return WindowsKeys()


class TerminalKeys:
    """Reads key presses from terminal ``fd`` (already in :func:`key_mode`), or from the
    console on Windows."""

    def __init__(self, fd: int, reader: KeyReader | None = None) -> None:
        self.fd = fd
        self.reader = reader if reader is not None else reader_for(fd)

    def read(self, timeout: float) -> list[str] | None:
        """The keys pressed within ``timeout`` seconds (maybe none); None at end of input."""
        return self.reader.read(timeout)
