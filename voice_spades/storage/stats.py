"""Wins and losses per rule profile, kept across matches (written atomically)."""

from __future__ import annotations

import json
from pathlib import Path

from voice_spades.errors import InvalidStateError
from voice_spades.storage.atomic import atomic_write_text
from voice_spades.storage.envelope import load_file, read_envelope

STATS_FORMAT = "voice-spades-stats/1"


class Stats:
    """The record of one data folder; :meth:`load` it, then :meth:`record` results."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: dict[str, dict[str, int]] = {}

    def load(self) -> None:
        """Read the file if there is one. An unreadable file is moved aside, the record
        starts empty, and CorruptFileError says so."""
        self.records = {}
        self.records = load_file(self.path, _parse) or {}

    def record(self, profile: str, won: bool) -> None:
        """Count one finished match and save the record."""
        entry = self.records.setdefault(profile, {"wins": 0, "losses": 0})
        entry["wins" if won else "losses"] += 1
        data = {"format": STATS_FORMAT, "profiles": self.records}
        atomic_write_text(self.path, json.dumps(data, indent=1, sort_keys=True))

    def of(self, profile: str) -> tuple[int, int]:
        """(wins, losses) with ``profile``'s rules."""
        entry = self.records.get(profile, {})
        return entry.get("wins", 0), entry.get("losses", 0)


def _parse(text: str) -> dict[str, dict[str, int]]:
    data = read_envelope(text, STATS_FORMAT, "storage.not_stats")
    profiles = data.get("profiles")
    if not isinstance(profiles, dict):
        raise InvalidStateError("storage.no_records")
    records: dict[str, dict[str, int]] = {}
    for name, entry in profiles.items():
        if not isinstance(entry, dict) or not all(
                isinstance(entry.get(k), int) and entry[k] >= 0 for k in ("wins", "losses")):
            raise InvalidStateError("storage.bad_record", name=name)
        records[name] = {"wins": entry["wins"], "losses": entry["losses"]}
    return records
