"""Files that never end (a link to /dev/zero or /dev/urandom, a named pipe) and files far
too big: refused in a moment with one reason, never read until memory runs out, never
waited on; and a temporary file another running copy is writing is never deleted."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from voice_spades.errors import InvalidStateError
from voice_spades.keys import load_keymap
from voice_spades.messages import Message
from voice_spades.narration import render_message
from voice_spades.storage import CorruptFileError, SaveStore, Stats
from voice_spades.storage.atomic import STALE_AFTER, remove_stale_temporaries
from voice_spades.storage.bounded import GAME_FILE_LIMIT, read_capped
from voice_spades.storage.preferences import Preferences, load_preferences, preferences_file

posix_only = pytest.mark.skipif(os.name != "posix", reason="named pipes and /dev are POSIX")
NOT_A_FILE = Message("storage.not_a_file")
T = TypeVar("T")
BOUND = 5.0
"""Seconds any of these reads may take: each is refused before a byte is read."""


def endless(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(f"/dev/{kind}")


def within_bound(load: Callable[[], T]) -> T:
    """``load()``'s result (or its exception, raised here), failing rather than hanging
    if it takes more than BOUND seconds."""
    result: list[T] = []
    raised: list[BaseException] = []

    def run() -> None:
        try:
            result.append(load())
        except BaseException as exc:  # raised again on the test's thread
            raised.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND)
    assert result or raised, f"still reading after {BOUND} s"
    if raised:
        raise raised[0]
    return result[0]


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "zero", "urandom"])
def test_a_save_or_record_that_never_ends_is_refused_and_moved_aside(
        tmp_path: Path, kind: str) -> None:
    save, stats = tmp_path / "savegame.json", tmp_path / "stats.json"
    endless(kind, save)
    endless(kind, stats)
    for load in (SaveStore(save).load, Stats(stats).load):
        with pytest.raises(CorruptFileError) as caught:
            within_bound(load)
        assert caught.value.reason == NOT_A_FILE and caught.value.moved_to is not None
    assert not save.exists() and not stats.exists()
    assert render_message(NOT_A_FILE) == "it is not an ordinary file (a device, a named " \
                                         "pipe, or a link to one), which the game does not read."


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "zero", "urandom"])
def test_preferences_that_never_end_give_the_defaults(tmp_path: Path, kind: str) -> None:
    endless(kind, preferences_file(tmp_path))
    prefs, problems = within_bound(lambda: load_preferences(tmp_path))
    assert prefs == Preferences() and [p.id for p in problems] == ["preferences.refused"]
    assert problems[0].fields["reason"] == NOT_A_FILE
    assert preferences_file(tmp_path).is_symlink() or preferences_file(tmp_path).exists()
    prefs, problems = within_bound(lambda: load_preferences(tmp_path, True))
    assert prefs == Preferences() and [p.id for p in problems] == ["preferences.moved_aside"]
    assert not os.path.lexists(preferences_file(tmp_path))


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "zero", "urandom"])
def test_a_keymap_that_never_ends_keeps_the_default_keys(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "keymap.toml"
    endless(kind, path)
    keymap = within_bound(lambda: load_keymap(path))
    assert [p.id for p in keymap.problems] == ["keymap.moved_aside"]
    assert keymap.action_for("b") == "bid"
    assert not os.path.lexists(path)


@posix_only
def test_a_device_named_outright_is_refused_and_left_where_it_is() -> None:
    keymap = within_bound(lambda: load_keymap(Path("/dev/zero")))
    assert [p.id for p in keymap.problems] == ["keymap.refused"]
    assert render_message(keymap.problems[0]) == (
        "Your keymap zero could not be used: it is not an ordinary file (a device, a named "
        "pipe, or a link to one), which the game does not read. Using the default keys.")
    assert Path("/dev/zero").is_char_device()


def test_a_file_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "savegame.json"
    with open(path, "wb") as file:  # sparse: no disk used, and nothing read
        file.truncate(GAME_FILE_LIMIT + 1)
    started = time.monotonic()
    with pytest.raises(CorruptFileError) as caught:
        SaveStore(path).load()
    assert time.monotonic() - started < 1
    assert caught.value.reason == Message("storage.too_big", megabytes=32)
    assert render_message(caught.value.reason) == \
        "the file is larger than 32 megabytes, far larger than any file the game writes."


def test_the_limit_counts_bytes_not_the_size_said(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_bytes(b"x" * 11)
    assert read_capped(path, 11) == b"x" * 11
    with pytest.raises(InvalidStateError):
        read_capped(path, 10)


def test_a_long_match_is_far_under_the_limit(tmp_path: Path) -> None:
    from voice_spades.engine import Match, profile
    from voice_spades.simulate import play_match

    match = play_match(profile("playroom", players=6), seed=5)
    assert isinstance(match, Match) and match.hands_played >= 5
    store = SaveStore(tmp_path / "savegame.json")
    store.save(match, {})
    per_hand = store.path.stat().st_size / match.hands_played
    assert per_hand < 1500  # 1,000 hands (the longest limit) stay under 1.5 MB
    loaded = store.load()
    assert loaded is not None and loaded.match.hands_played == match.hands_played


@pytest.mark.skipif(os.name != "posix", reason="a writer is asked after on POSIX only")
def test_a_live_copys_temporary_file_is_kept_and_a_dead_ones_removed(tmp_path: Path) -> None:
    path = tmp_path / "savegame.json"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        live = tmp_path / f".savegame.json.{other.pid}.tmp"
        live.write_text("half a save")
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
        dead = tmp_path / f".savegame.json.{gone.stdout.strip()}.tmp"
        dead.write_text("left by a crash")
        remove_stale_temporaries(path)
        assert live.exists() and not dead.exists()
        old = time.time() - STALE_AFTER - 1
        os.utime(live, (old, old))  # however alive its writer, no write lasts this long
        remove_stale_temporaries(path)
        assert not live.exists()
    finally:
        other.kill()
        other.wait()

