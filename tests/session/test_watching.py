"""Listening to another copy's game from its save file: each save says what was played
since, in the words the player would have heard; nothing else is said, and the file is
only read."""

from __future__ import annotations

import os
from pathlib import Path

from voice_spades.engine import Match, profile
from voice_spades.narration import Line, Narrator, Phrasebook, Verbosity
from voice_spades.session.bots import HUMAN
from voice_spades.session.watching import SaveWatcher, played_actions
from voice_spades.storage import SaveStore


def texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines]


def play(match: Match, count: int) -> list[str]:
    """``count`` legal actions on ``match``; what the player's narrator says of them."""
    narrator = Narrator(Phrasebook(match.rules, HUMAN, Verbosity.NORMAL))
    narrator.sync(match.view(HUMAN))
    said: list[str] = []
    for _ in range(count):
        for event in match.apply(match.legal_actions()[0]):
            said += [line.text for line in narrator.narrate(event)]
    return said


def saved(store: SaveStore, match: Match) -> None:
    before = store.path.stat().st_mtime_ns if store.path.exists() else 0
    store.save(match, {})
    os.utime(store.path, ns=(before + 1_000_000, before + 1_000_000))  # a new stamp


def test_each_save_says_the_plays_since_the_last(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "savegame.json")
    watcher = SaveWatcher(store.path, Verbosity.NORMAL)
    assert watcher.look() == []  # no game saved yet
    match = Match(profile("pagat"), 11)
    saved(store, match)
    assert texts(watcher.look()) == ["The game is at hand 1."]
    assert watcher.look() == []  # unchanged
    heard = play(match, 3)
    saved(store, match)
    assert texts(watcher.look()) == heard and heard
    heard = play(match, 60)  # past the end of the first hand: a new deal is said too
    saved(store, match)
    assert texts(watcher.look()) == heard
    assert any(text.startswith("Hand 2") for text in heard)
    assert watcher.match is not None and \
        played_actions(watcher.match) == played_actions(match)


def test_a_new_game_is_joined_where_it_is(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "savegame.json")
    watcher = SaveWatcher(store.path, Verbosity.NORMAL)
    first = Match(profile("pagat"), 11)
    play(first, 5)
    saved(store, first)
    watcher.look()
    other = Match(profile("pagat"), 12)
    play(other, 60)
    saved(store, other)
    assert texts(watcher.look()) == ["The game is at hand 2."]


def test_a_damaged_or_missing_save_says_nothing_and_stays(tmp_path: Path) -> None:
    path = tmp_path / "savegame.json"
    watcher = SaveWatcher(path, Verbosity.NORMAL)
    path.write_text("{not json")
    assert watcher.look() == []
    assert path.read_text() == "{not json"  # never moved aside: it is the other copy's
    assert list(tmp_path.iterdir()) == [path]
