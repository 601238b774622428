"""Atomic file writes: a reader sees the old file or the new one, never half of either."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path


def atomic_write_text(path: Path, text: str, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically and durably
    (:func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def atomic_write_bytes(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` atomically and durably.

    The data goes to a temporary file in the same folder, is flushed and fsynced,
    then renamed over ``path`` (``os.replace`` is atomic); the folder is fsynced so the
    rename itself survives a crash. ``mode`` (``0o600``: the owner's only) is the new
    file's permissions from its first byte on; None keeps the usual ones.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if mode is not None:  # made with its permissions: never readable by others
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()  # a leftover would keep its own permissions
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            os.close(os.open(tmp, flags, mode))
        with open(tmp, "r+b" if mode is not None else "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not possible on every platform (Windows); the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def move_aside(path: Path) -> Path:
    """Rename an unreadable file to ``NAME.corrupt-YYYYmmdd-HHMMSS`` (never overwriting
    an earlier one) and return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    return target


STALE_AFTER = 600.0
"""Seconds after which a temporary file is left over whatever wrote it: a write takes
milliseconds (a save is under 1 MB, flushed once), so ten minutes is no live write."""


def remove_stale_temporaries(path: Path) -> None:
    """Delete temporary files left by writes to ``path`` that were killed midway; never
    one another running copy of the game is writing (:func:`is_stale`)."""
    for temporary in path.parent.glob(f".{path.name}.*.tmp"):
        if is_stale(temporary):
            with contextlib.suppress(OSError):
                temporary.unlink()


def is_stale(temporary: Path, now: float | None = None) -> bool:
    """True when nothing is writing ``temporary`` (named ``.NAME.PID.tmp``) any more: it
    is older than :data:`STALE_AFTER`, or (where a process can be asked after without
    harm, not Windows) the process that wrote it is gone."""
    try:
        age = (time.time() if now is None else now) - temporary.stat().st_mtime
    except OSError:
        return False
    if age > STALE_AFTER:
        return True
    writer = temporary.name.rsplit(".", 2)[-2]
    if os.name != "posix" or not writer.isdigit():
        return False
    return int(writer) != os.getpid() and not _running(int(writer))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0 only asks; on Windows os.kill would end the process
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it runs, as another user
        return True
    return True
