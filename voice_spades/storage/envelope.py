"""Reading the game's own JSON files: the format tag is checked, and a file that
cannot be used is moved aside, with an error saying why and where it went.

Storage builds no sentence: a problem is a :class:`~voice_spades.errors.SpadesError`
whose message id is in the catalog (``storage.*``); the session words it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from voice_spades.errors import InvalidStateError, SpadesError
from voice_spades.messages import Message
from voice_spades.storage.atomic import move_aside, remove_stale_temporaries
from voice_spades.storage.bounded import GAME_FILE_LIMIT, movable, read_capped, read_capped_text

T = TypeVar("T")


class CorruptFileError(SpadesError):
    """A saved file could not be used; it was moved aside.

    Its message is the reason (:attr:`reason`); :attr:`moved_to` is where the file
    went, None when it could not be moved.
    """

    def __init__(self, reason: Message, moved_to: Path | None) -> None:
        super().__init__(reason.id, **reason.fields)
        self.reason = reason
        self.moved_to = moved_to

    @property
    def where(self) -> str | Message:
        """The file's new name, or a message saying it could not be moved."""
        return self.moved_to.name if self.moved_to is not None else Message("storage.nowhere")


def read_envelope(text: str, file_format: str, wrong_kind: str) -> dict[str, object]:
    """The JSON object of a file tagged ``"format": file_format``; InvalidStateError
    when the text is not JSON, or (with the message id ``wrong_kind``) is not that file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidStateError("storage.not_json", error=exc.msg) from exc
    except RecursionError as exc:  # brackets nested past Python's recursion limit
        raise InvalidStateError("storage.too_deep") from exc
    except ValueError as exc:  # a whole number of more than 4,300 digits
        raise InvalidStateError("storage.number_too_long") from exc
    if not isinstance(data, dict) or data.get("format") != file_format:
        raise InvalidStateError(wrong_kind)
    return data


def load_file(path: Path, parse: Callable[[str], T]) -> T | None:
    """``parse`` of the file's text, or None when there is no file. A file that cannot
    be read (also one that is no ordinary file, or is over
    :data:`~.bounded.GAME_FILE_LIMIT`), or that ``parse`` refuses with
    InvalidStateError, is moved aside and CorruptFileError raised (also when checking
    it goes too deep for Python)."""
    return _load(path, lambda: parse(read_capped_text(path, GAME_FILE_LIMIT)))


def load_binary_file(path: Path, parse: Callable[[bytes], T]) -> T | None:
    """:func:`load_file` of a file that is not text: ``parse`` is given its bytes."""
    return _load(path, lambda: parse(read_capped(path, GAME_FILE_LIMIT)))


def _load(path: Path, read: Callable[[], T]) -> T | None:
    remove_stale_temporaries(path)
    try:
        if not path.exists():  # may raise too: a folder we may not look into
            return None
        return read()
    except (OSError, UnicodeDecodeError, InvalidStateError, RecursionError) as exc:
        if isinstance(exc, InvalidStateError):
            reason = exc.message
        elif isinstance(exc, RecursionError):
            reason = Message("storage.too_deep")
        else:
            reason = Message("storage.unreadable", error=exc.__class__.__name__)
        raise set_aside(path, reason) from exc


def set_aside(path: Path, reason: Message | SpadesError) -> CorruptFileError:
    """Move an unusable file aside (if it is there and can be moved: never a device
    named outright, :func:`~.bounded.movable`); the error to report says why
    (``reason``) and where it went."""
    try:
        moved = move_aside(path) if movable(path) else None
    except OSError:
        moved = None
    return CorruptFileError(reason.message if isinstance(reason, SpadesError) else reason, moved)
