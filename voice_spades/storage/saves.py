"""The saved match: written atomically after every action, read back on start.

The file holds the engine's own record of the match (rules, seed, every deal and
action, replayed and checked on loading) and the session's settings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from voice_spades.engine import Match
from voice_spades.errors import InvalidStateError, SpadesError
from voice_spades.messages import Message
from voice_spades.storage.atomic import atomic_write_text
from voice_spades.storage.envelope import CorruptFileError, load_file, read_envelope, set_aside

SAVE_FORMAT = "voice-spades-save/1"


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
        return load_file(self.path, parse_save)

    def discard(self, reason: Message | SpadesError) -> CorruptFileError:
        """Move a save that turned out unusable aside (``reason`` says why); the error
        to report says where it went."""
        return set_aside(self.path, reason)

    def delete(self) -> None:
        """Remove the save (the match is over or abandoned)."""
        self.path.unlink(missing_ok=True)


def parse_save(text: str) -> SavedGame:
    """Read a save file's text; raises InvalidStateError saying what is wrong."""
    data = read_envelope(text, SAVE_FORMAT, "storage.not_a_save")
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise InvalidStateError("storage.no_settings")
    return SavedGame(Match.from_dict(data.get("match")), settings)
