"""Wins and losses per rule profile, kept across matches (written atomically)."""

from __future__ import annotations

import json
from pathlib import Path

from voice_spades.narration.catalog import render
from voice_spades.storage.atomic import atomic_write_text, move_aside, remove_stale_temporaries
from voice_spades.storage.saves import CorruptFileError

STATS_FORMAT = "voice-spades-stats/1"


class Stats:
    """The record of one data folder; :meth:`load` it, then :meth:`record` results."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: dict[str, dict[str, int]] = {}

    def load(self) -> None:
        """Read the file if there is one. An unreadable file is moved aside, the record
        starts empty, and CorruptFileError says so."""
        remove_stale_temporaries(self.path)
        self.records = {}
        if not self.path.exists():
            return
        try:
            self.records = _parse(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            try:
                moved: Path | None = move_aside(self.path)
            except OSError:
                moved = None
            reason = str(exc) if isinstance(exc, _Damaged) else \
                render("storage.unreadable", error=exc.__class__.__name__)
            raise CorruptFileError(reason, moved) from exc

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


class _Damaged(ValueError):
    """A statistics file that parses but is not a valid record; the message says why."""


def _parse(text: str) -> dict[str, dict[str, int]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Damaged(render("storage.not_json", error=exc.msg)) from exc
    if not isinstance(data, dict) or data.get("format") != STATS_FORMAT:
        raise _Damaged(render("storage.not_stats"))
    profiles = data.get("profiles")
    if not isinstance(profiles, dict):
        raise _Damaged(render("storage.no_records"))
    records: dict[str, dict[str, int]] = {}
    for name, entry in profiles.items():
        if not isinstance(entry, dict) or not all(
                isinstance(entry.get(k), int) and entry[k] >= 0 for k in ("wins", "losses")):
            raise _Damaged(render("storage.bad_record", name=name))
        records[name] = {"wins": entry["wins"], "losses": entry["losses"]}
    return records
