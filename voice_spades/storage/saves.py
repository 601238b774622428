"""The saved match: written atomically after every action, read back on start.

The file holds the engine's own record of the match (rules, seed, every deal and
action, replayed and checked on loading) and the session's settings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from voice_spades.engine.match import Match
from voice_spades.errors import InvalidStateError, SpadesError
from voice_spades.narration.catalog import render
from voice_spades.storage.atomic import atomic_write_text, move_aside, remove_stale_temporaries

SAVE_FORMAT = "voice-spades-save/1"


class CorruptFileError(SpadesError):
    """A saved file could not be used; it was moved aside. The message says why and where."""

    def __init__(self, reason: str, moved_to: Path | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.moved_to = moved_to


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A match in progress and the settings it was started with."""

    match: Match
    settings: dict[str, object]


class SaveStore:
    """The save file of one data folder."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def save(self, match: Match, settings: dict[str, object]) -> None:
        """Write the match atomically (raises OSError if the disk refuses)."""
        data = {"format": SAVE_FORMAT, "settings": settings, "match": match.to_dict()}
        atomic_write_text(self.path, json.dumps(data, separators=(",", ":")))

    def load(self) -> SavedGame | None:
        """The saved match, or None if there is none.

        An unreadable or invalid file is renamed aside and CorruptFileError raised.
        """
        remove_stale_temporaries(self.path)
        if not self.path.exists():
            return None
        try:
            return parse_save(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, InvalidStateError) as exc:
            reason = str(exc) if isinstance(exc, InvalidStateError) else \
                render("storage.unreadable", error=exc.__class__.__name__)
            raise CorruptFileError(reason, _move_aside(self.path)) from exc

    def discard(self, reason: str) -> CorruptFileError:
        """Move a save that turned out unusable aside; the error to report says where."""
        return CorruptFileError(reason, _move_aside(self.path) if self.path.exists() else None)

    def delete(self) -> None:
        """Remove the save (the match is over or abandoned)."""
        self.path.unlink(missing_ok=True)


def parse_save(text: str) -> SavedGame:
    """Read a save file's text; raises InvalidStateError saying what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidStateError(render("storage.not_json", error=exc.msg)) from exc
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise InvalidStateError(render("storage.not_a_save"))
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise InvalidStateError(render("storage.no_settings"))
    return SavedGame(Match.from_dict(data.get("match")), settings)


def _move_aside(path: Path) -> Path | None:
    try:
        return move_aside(path)
    except OSError:
        return None
