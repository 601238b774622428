"""Listening to the game another copy of voice-spades plays from the same folder.

One copy owns a data folder at a time (:mod:`voice_spades.storage.folder_lock`); a
second one started with ``--watch`` plays nothing and writes nothing: it reads the first
copy's save file each time it changes (the game saves after every action) and says what
happened since, as the player would have heard it at the table. It stops when the other
copy stops, or when the player asks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from voice_spades.engine import Match, action_from_text
from voice_spades.errors import SpadesError
from voice_spades.narration import Line, Narrator, Phrasebook, Verbosity
from voice_spades.session.bots import HUMAN
from voice_spades.session.output import Output
from voice_spades.session.turns import make_line
from voice_spades.storage.bounded import GAME_FILE_LIMIT, read_capped_text
from voice_spades.storage.saves import parse_save

LOOK_EVERY = 0.2
"""Seconds between two looks at the save file: under the bots' pace between plays
(0.25 s with speech, 0.4 s with text), so each play is said as it comes."""
ASK_EVERY = 5
"""Looks between two questions whether the other copy still plays (once a second):
asking takes its lock for an instant, when a copy starting then would find the folder
taken, so it is asked no more often than a player would notice."""


class SaveWatcher:
    """Turns each new version of a save file into the lines the player would have
    heard; never writes, moves or locks anything."""

    def __init__(self, save: Path, verbosity: Verbosity) -> None:
        self.save = save
        self.verbosity = verbosity
        self.match: Match | None = None
        self._narrator: Narrator | None = None
        self._seen: list[str] = []
        self._stamp: tuple[int, int, int] | None = None

    def look(self) -> list[Line]:
        """What was played since the last look (nothing when the file has not changed,
        is gone between two games, or cannot be read: the next look tries again)."""
        try:
            info = self.save.stat()
        except OSError:
            return []
        stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
        if stamp == self._stamp:
            return []
        self._stamp = stamp
        try:
            saved = parse_save(read_capped_text(self.save, GAME_FILE_LIMIT)).match
        except (OSError, UnicodeDecodeError, SpadesError, RecursionError, ValueError):
            return []
        return self._follow(saved)

    def _follow(self, saved: Match) -> list[Line]:
        actions = played_actions(saved)
        known, narrator = self.match, self._narrator
        if known is None or narrator is None or known.seed != saved.seed or \
                known.rules != saved.rules or actions[:len(self._seen)] != self._seen:
            return self._join(saved, actions)
        lines: list[Line] = []
        try:
            for text in actions[len(self._seen):]:
                for event in known.apply(action_from_text(text)):
                    lines += narrator.narrate(event)
        except SpadesError:  # not the game saved after all: start again from the file
            return self._join(saved, actions)
        if known.to_dict() != saved.to_dict():
            return lines + self._join(saved, actions)
        self._seen = actions
        return lines

    def _join(self, saved: Match, actions: list[str]) -> list[Line]:
        """Start following ``saved`` (a game not heard before) where it is."""
        self.match, self._seen = saved, actions
        words = Phrasebook(saved.rules, HUMAN, self.verbosity)
        self._narrator = Narrator(words)
        view = saved.view(HUMAN)
        self._narrator.sync(view)
        return [make_line(words, "watch.joined", hand=view.hand_number)]


def played_actions(match: Match) -> list[str]:
    """Every action of ``match`` so far, hand after hand, as saved."""
    hands = match.to_dict()["hands"]
    assert isinstance(hands, list)
    return [str(action) for hand in hands if isinstance(hand, dict)
            for action in hand.get("actions", ())]


def watch(watcher: SaveWatcher, output: Output, stop: threading.Event,
          still_playing: Callable[[], bool]) -> bool:
    """Say each change ``watcher`` finds until ``stop`` is set (True) or the other copy
    is no longer playing (False)."""
    looks = 0
    while not stop.wait(LOOK_EVERY):
        lines = watcher.look()
        if lines:
            output.emit(lines)
        looks += 1
        if looks % ASK_EVERY == 0 and not still_playing():
            output.emit(watcher.look())  # its last save, made as it quit
            return False
    return True
