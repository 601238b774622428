"""One copy of the game owns a data folder at a time.

Two copies on one folder both resumed the same match, and whichever saved last wiped the
other's plays. A copy now holds an operating-system lock on ``voice-spades.lock`` in the
folder while it plays (``flock`` on Linux and macOS, ``msvcrt.locking`` on Windows): the
system lets go of it when the process ends, however it ends, so a crashed or killed copy
never leaves the folder locked. The file itself stays; it is the lock, not its contents,
that says a copy is playing.

A second copy plays a separate game in a folder of its own inside the first
(:func:`separate_folder`), which is said aloud; :mod:`voice_spades.app` words it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from voice_spades.messages import Message
from voice_spades.storage.paths import DataPaths

LOCK_FILE = "voice-spades.lock"
SEPARATE_NAME = "another-copy"
"""The folder a second copy plays in, inside the first one's (``another-copy``, then
``another-copy-2``...)."""
MAX_COPIES = 9
"""Copies tried before giving up: nobody plays nine games at once on one machine."""


@dataclass(slots=True)
class FolderLock:
    """The lock on one data folder, held while :attr:`fd` is open."""

    folder: Path
    fd: int | None

    @property
    def held(self) -> bool:
        """True while this copy owns the folder (False after :meth:`release`, or when
        the folder could not be locked at all)."""
        return self.fd is not None

    def release(self) -> None:
        """Let another copy have the folder (the system does this at exit too)."""
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)  # closing the file drops its lock on every system
            self.fd = None


class FolderTakenError(Exception):
    """Another running copy of the game holds the folder's lock."""


def lock_folder(folder: Path) -> FolderLock:
    """Take ``folder`` for this copy (made if missing).

    Raises FolderTakenError when another running copy holds it. A folder where no lock
    file can be made (read-only, no permission) gives an unheld lock: nothing can be
    saved there either, which the session says, so two copies cannot overwrite each
    other."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return FolderLock(folder, None)
    try:
        _lock(fd)
    except OSError:
        os.close(fd)
        raise FolderTakenError(str(folder)) from None
    return FolderLock(folder, fd)


def other_copy_plays(folder: Path) -> bool:
    """True while another running copy holds ``folder``'s lock (asked by taking it for
    an instant; nothing is made where there is no lock file)."""
    if not (folder / LOCK_FILE).exists():
        return False
    try:
        lock_folder(folder).release()
    except FolderTakenError:
        return True
    return False


def separate_folder(taken: Path) -> tuple[Path, FolderLock] | None:
    """A folder for a separate game inside ``taken``, which another copy owns, and its
    lock; None if every one of :data:`MAX_COPIES` is taken too."""
    for number in range(1, MAX_COPIES + 1):
        folder = taken / (SEPARATE_NAME if number == 1 else f"{SEPARATE_NAME}-{number}")
        try:
            return folder, lock_folder(folder)
        except FolderTakenError:
            continue
    return None


def claim_data_folder(paths: DataPaths) -> tuple[DataPaths, FolderLock, list[Message]]:
    """The files this copy uses, the lock on its data folder, and what to tell the
    player: ``paths`` themselves, or, when another copy plays from their data folder, a
    separate folder inside it for the game and its record (the preferences, keymap and
    voice training stay the player's own), with the notice ``setup.folder_taken``
    naming both folders. FolderTakenError when every separate folder is taken too."""
    try:
        return paths, lock_folder(paths.data_dir), []
    except FolderTakenError:
        separate = separate_folder(paths.data_dir)
    if separate is None:
        raise FolderTakenError(str(paths.data_dir))
    folder, lock = separate
    said = Message("setup.folder_taken", folder=str(paths.data_dir), other=str(folder))
    return replace(paths, data_dir=folder, voice_dir=paths.data_dir), lock, [said]


def _lock(fd: int) -> None:
    """Take the lock on ``fd`` or raise OSError at once if another process holds it.
    The platform's module is imported here, not at the top, so the module imports on
    every platform (tests/test_portable_imports.py)."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
