"""Two copies of the game on one data folder, as real processes: the second plays a
separate game and says so, the first loses nothing, and a killed copy leaves the folder
free (issue 48, point 10)."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from voice_spades.storage import SaveStore, data_paths
from voice_spades.storage.folder_lock import (
    FolderTakenError,
    claim_data_folder,
    lock_folder,
    separate_folder,
)

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0
"""Seconds a copy may take to say a line (a start is about one second)."""


class Copy:
    """One running `voice-spades` on ``data_dir``, fed key names on standard input."""

    def __init__(self, data_dir: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voice_spades", "--no-speech", "--no-voice", "--pace", "0",
             "--level", "easy", "--seed", "3", "--data-dir", str(data_dir), *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                      "HOME": str(data_dir)})
        self.lines: list[str] = []
        self._new: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._new.put(line.rstrip("\n"))
        self._new.put(None)

    def wait_for(self, start: str) -> str:
        """The first line said from now on that starts with ``start``."""
        deadline = time.monotonic() + WAIT
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._new.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            if line.startswith(start):
                return line
        raise AssertionError(f"never said {start!r}; said: {self.lines}")

    def type(self, keys: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(keys + "\n")
        self.process.stdin.flush()

    def end_input(self) -> int:
        """Close standard input (the game saves and quits) and wait for the exit."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(WAIT)
        self.wait_for("Input ended.")
        return code

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(WAIT)


def player_bid(save: Path) -> object:
    loaded = SaveStore(save).load()
    assert loaded is not None
    return loaded.match.view(0).bids[0]


def test_a_second_copy_plays_a_separate_game_and_the_first_loses_no_play(
        tmp_path: Path) -> None:
    first = Copy(tmp_path)
    try:
        first.wait_for("Your bid")
        second = Copy(tmp_path)
        try:
            said = second.wait_for("Another copy")
            assert said == (f"Another copy of the game is playing from {tmp_path}, so this "
                            f"copy plays a separate game, kept in {tmp_path / 'another-copy'}"
                            ", and leaves the other one untouched; to listen to that game "
                            "instead, start with --watch.")
            second.wait_for("Your bid")
            first.type("5 enter")
            first.wait_for("You bid 5.")
            assert first.end_input() == 0
        finally:
            assert second.end_input() == 0  # it saves last: before, this lost the bid
    finally:
        if first.process.poll() is None:
            first.kill()
    assert player_bid(tmp_path / "savegame.json") is not None
    assert player_bid(tmp_path / "another-copy" / "savegame.json") is None
    assert not any("Another copy" in line for line in first.lines)


def test_a_killed_copy_leaves_the_folder_free(tmp_path: Path) -> None:
    crashed = Copy(tmp_path)
    try:
        crashed.wait_for("Your bid")
        crashed.type("4 enter")
        crashed.wait_for("You bid 4.")
    finally:
        crashed.kill()  # SIGKILL: no handler runs, nothing is released by the game
    assert crashed.process.returncode != 0
    again = Copy(tmp_path)
    try:
        assert again.wait_for("Resuming your game").startswith("Resuming your game: hand 1")
        assert again.end_input() == 0
    finally:
        if again.process.poll() is None:
            again.kill()
    assert not any("Another copy" in line for line in again.lines)
    assert not (tmp_path / "another-copy").exists()


def test_a_second_copy_keeps_the_players_voice_and_settings(tmp_path: Path) -> None:
    paths = data_paths(str(tmp_path))
    held = lock_folder(tmp_path)
    try:
        separate, lock, _ = claim_data_folder(paths)
        lock.release()
    finally:
        held.release()
    assert separate.save_file == tmp_path / "another-copy" / "savegame.json"
    assert separate.stats_file == tmp_path / "another-copy" / "stats.json"
    assert separate.voice_training_file("it") == paths.voice_training_file("it") == \
        tmp_path / "voice-training-it.means"
    assert (separate.preferences_file, separate.keymap_file) == \
        (paths.preferences_file, paths.keymap_file)


def test_the_lock_is_one_holder_at_a_time(tmp_path: Path) -> None:
    held = lock_folder(tmp_path)
    assert held.held
    with pytest.raises(FolderTakenError):
        lock_folder(tmp_path)
    separate, lock, said = claim_data_folder(data_paths(str(tmp_path)))
    assert separate.data_dir == tmp_path / "another-copy" and lock.held
    assert [m.id for m in said] == ["setup.folder_taken"]
    third = separate_folder(tmp_path)
    assert third is not None and third[0] == tmp_path / "another-copy-2"
    for one in (held, lock, third[1]):
        one.release()
    assert not held.held
    free = claim_data_folder(data_paths(str(tmp_path)))  # released: the folder is free
    assert free[0].data_dir == tmp_path and free[2] == []
    free[1].release()


def test_every_separate_folder_taken_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    locks = [lock_folder(tmp_path)]
    while (separate := separate_folder(tmp_path)) is not None:
        locks.append(separate[1])
    assert len(locks) == 10
    result = subprocess.run(
        [sys.executable, "-m", "voice_spades", "--no-speech", "--no-voice",
         "--data-dir", str(tmp_path)], input="", capture_output=True, text=True,
        timeout=WAIT, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                      "HOME": str(tmp_path)})
    for lock in locks:
        lock.release()
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"voice-spades: other copies of the game are playing from "
                             f"{tmp_path} and from every separate folder in it; quit one of "
                             "them, or start with --data-dir and another folder.\n")


@pytest.mark.skipif(sys.platform == "win32", reason="folder permissions differ on Windows")
def test_a_folder_that_cannot_hold_a_lock_is_played_unlocked(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    lock = lock_folder(blocked / "data")
    assert not lock.held


def test_a_watching_copy_hears_each_play_and_writes_nothing(tmp_path: Path) -> None:
    first = Copy(tmp_path)
    try:
        first.wait_for("Your bid")
        before = sorted(p.name for p in tmp_path.iterdir())
        listener = Copy(tmp_path, "--watch")
        try:
            assert listener.wait_for("Listening") == (
                f"Listening to the game played from {tmp_path}: you hear each play as it is "
                "saved. Press Q or Escape to stop.")
            assert listener.wait_for("The game is at hand") == "The game is at hand 1."
            first.type("5 enter")
            first.wait_for("You bid 5.")
            listener.wait_for("You bid 5.")
            listener.wait_for("Bidding done")
            assert first.end_input() == 0
            assert listener.wait_for("The other copy") == \
                "The other copy has stopped playing. Goodbye."
            assert listener.process.wait(WAIT) == 0
        finally:
            if listener.process.poll() is None:
                listener.kill()
    finally:
        if first.process.poll() is None:
            first.kill()
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing made or moved
    assert player_bid(tmp_path / "savegame.json") is not None


def test_watching_with_no_other_copy_is_one_sentence(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "voice_spades", "--no-speech", "--watch",
         "--data-dir", str(tmp_path)], input="", capture_output=True, text=True,
        timeout=WAIT, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                      "HOME": str(tmp_path)})
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"voice-spades: no other copy of the game is playing from "
                             f"{tmp_path}, so there is nothing to listen to; start without "
                             "--watch to play.\n")
    assert list(tmp_path.iterdir()) == []
