"""Reading the game's own JSON files: the format tag is checked, and a file that
cannot be used is moved aside with a sentence saying why and where."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from voice_spades.errors import InvalidStateError, SpadesError
from voice_spades.narration.catalog import render
from voice_spades.storage.atomic import move_aside, remove_stale_temporaries

T = TypeVar("T")


class CorruptFileError(SpadesError):
    """A saved file could not be used; it was moved aside. The message says why and where."""

    def __init__(self, reason: str, moved_to: Path | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.moved_to = moved_to


def read_envelope(text: str, file_format: str, wrong_kind: str) -> dict[str, object]:
    """The JSON object of a file tagged ``"format": file_format``; InvalidStateError
    when the text is not JSON, or (with the sentence ``wrong_kind``) is not that file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidStateError(render("storage.not_json", error=exc.msg)) from exc
    if not isinstance(data, dict) or data.get("format") != file_format:
        raise InvalidStateError(wrong_kind)
    return data


def load_file(path: Path, parse: Callable[[str], T]) -> T | None:
    """``parse`` of the file's text, or None when there is no file. A file that cannot
    be read, or that ``parse`` refuses with InvalidStateError, is moved aside and
    CorruptFileError raised."""
    remove_stale_temporaries(path)
    if not path.exists():
        return None
    try:
        return parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, InvalidStateError) as exc:
        reason = str(exc) if isinstance(exc, InvalidStateError) else \
            render("storage.unreadable", error=exc.__class__.__name__)
        raise set_aside(path, reason) from exc


def set_aside(path: Path, reason: str) -> CorruptFileError:
    """Move an unusable file aside (if it is there and can be moved); the error to
    report says why and where it went."""
    try:
        moved = move_aside(path) if path.exists() else None
    except OSError:
        moved = None
    return CorruptFileError(reason, moved)
