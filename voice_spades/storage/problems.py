"""Why a file could not be written, said so the player knows what to do about it.

A failed write is an :class:`OSError`; :func:`write_problem` turns it into a catalog
message (``storage.*``) naming the folder and the cause the player can act on: no
permission, a read-only disk, a file where a folder should be, a full disk.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from voice_spades.errors import InvalidInputError
from voice_spades.messages import Message

_BY_ERRNO = {
    errno.EACCES: "storage.no_permission",
    errno.EPERM: "storage.no_permission",
    errno.EROFS: "storage.read_only",
    errno.ENOTDIR: "storage.not_a_folder",
    errno.EEXIST: "storage.not_a_folder",
    errno.ENOSPC: "storage.disk_full",
    errno.EDQUOT: "storage.disk_full",
}
"""The causes a player can act on, by error number."""


def write_problem(exc: OSError, folder: Path) -> Message:
    """Why writing in ``folder`` failed with ``exc``, as a message.

    >>> write_problem(PermissionError(errno.EACCES, "Permission denied"), Path("/data"))
    Message('storage.no_permission', folder='/data')
    >>> write_problem(OSError(errno.EIO, "Input/output error"), Path("/data"))
    Message('storage.write_failed', folder='/data', error='Input/output error')
    """
    message_id = _BY_ERRNO.get(exc.errno or 0)
    if message_id == "storage.not_a_folder":
        blocking = _file_in_the_way(folder)
        if blocking is None:  # EEXIST for another reason: say what the system said
            message_id = None
        else:
            return Message(message_id, folder=str(folder), path=str(blocking))
    if message_id is not None:
        return Message(message_id, folder=str(folder))
    return Message("storage.write_failed", folder=str(folder),
                   error=exc.strerror or exc.__class__.__name__)


def _file_in_the_way(folder: Path) -> Path | None:
    """The file standing where ``folder`` or one of its parents should be, if any."""
    for place in (folder, *folder.parents):
        if place.exists():
            return None if place.is_dir() else place
    return None


def checked_folder(text: str) -> str:
    """A data folder given by the player; an empty name (which would mean the current
    folder) is refused with InvalidInputError.

    >>> checked_folder(" ")
    Traceback (most recent call last):
    ...
    voice_spades.errors.InvalidInputError: Message('storage.empty_folder_name')
    """
    if not text.strip():
        raise InvalidInputError("storage.empty_folder_name")
    return text


def checked_name_length(option: str, path: Path) -> Path:
    """``path`` as given to ``option``, unless the system refuses it as too long a name
    (InvalidInputError ``storage.name_too_long``, saying its length, not the name)."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise InvalidInputError("storage.name_too_long", option=option,
                                    length=len(str(path))) from None
    return path
