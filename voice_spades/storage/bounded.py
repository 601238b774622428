"""Reading the player's files without being stuck on one: only ordinary files are
read, and only up to a size.

A file that is a link to ``/dev/zero`` would grow the game until it runs out of memory,
and ``/dev/urandom`` or a named pipe would hold the start for ever, deaf to Control-C:
:func:`read_capped` refuses both with an :class:`~voice_spades.errors.InvalidStateError`
whose message (``storage.not_a_file``, ``storage.too_big``) completes the sentence that
says what became of the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from voice_spades.errors import InvalidStateError

MEGABYTE = 1024 * 1024
GAME_FILE_LIMIT = 32 * MEGABYTE
"""Largest save, statistics or voice training read. A saved hand takes about 0.9 KB
(measured: 16 hands of four players, 15,001 bytes; 30 hands of six, 26,463), so a match
at the 1,000-hand limit is under 1 MB, and a trained means file is 0.8 MB: 32 MB leaves
a margin of thirty times and is still read in a moment."""
SETTINGS_FILE_LIMIT = 1 * MEGABYTE
"""Largest keymap or preferences read: the full default keymap is 5,821 bytes and
every preference set is under 200, so a megabyte is nearly two hundred keymaps."""


def read_capped(path: Path, limit: int) -> bytes:
    """The bytes of the ordinary file ``path`` (a link to one is followed).

    Raises InvalidStateError ``storage.not_a_file`` for anything else (a device, a named
    pipe, a folder), ``storage.too_big`` for a file over ``limit`` bytes, and OSError as
    :func:`open` does (FileNotFoundError when there is none). Never blocks: a named pipe
    is refused before it is opened, and opened without waiting for a writer if it took
    the file's place in between.
    """
    _check_kind(os.stat(path).st_mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    with open(os.open(path, flags), "rb") as file:
        info = os.fstat(file.fileno())
        _check_kind(info.st_mode)
        if info.st_size > limit:
            raise too_big(limit)
        data = file.read(limit + 1)  # the file may have grown since fstat
    if len(data) > limit:
        raise too_big(limit)
    return data


def read_capped_text(path: Path, limit: int) -> str:
    """:func:`read_capped` decoded as UTF-8 (UnicodeDecodeError if it is not)."""
    return read_capped(path, limit).decode("utf-8")


def too_big(limit: int) -> InvalidStateError:
    """The error for a file over ``limit`` bytes (said in megabytes)."""
    return InvalidStateError("storage.too_big", megabytes=max(1, limit // MEGABYTE))


def _check_kind(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise InvalidStateError("storage.not_a_file")


def movable(path: Path) -> bool:
    """True when ``path`` itself may be renamed aside: an ordinary file, a link (the link
    moves, not what it points to) or a named pipe; never a device such as ``/dev/zero``
    given by name, nor a folder."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode) or stat.S_ISFIFO(mode)
