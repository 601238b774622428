"""Key presses from a POSIX terminal (Linux, macOS): raw mode and escape sequences.

:func:`key_mode` puts the terminal in character mode (no echo, no line editing) and
always restores it: on leaving the block, on an exception, and at interpreter exit.
Only :mod:`.terminal` imports this module, and only where ``termios`` exists.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from voice_spades.keys.terminal_sequences import ESC, decode, incomplete_sequence

assert sys.platform != "win32"  # so that type checkers for Windows skip this module
import termios  # noqa: E402

_ESCAPE_WAIT = 0.03
"""Seconds to wait after a lone Escape byte for the rest of a sequence."""


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


class PosixKeys:
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
        while data[-1] == ESC or incomplete_sequence(data):
            more, _, _ = select.select([self.fd], [], [], _ESCAPE_WAIT)
            if not more:
                break
            chunk = os.read(self.fd, 1024)
            if not chunk:
                break
            data += chunk
        return decode(data)
