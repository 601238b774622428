"""`voice-spades play` options, start-up problems and piped input (no terminal)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from voice_spades.app import main

ROOT = Path(__file__).resolve().parents[2]


def run(data_dir: Path, stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "voice_spades", "--no-speech", "--no-voice", "--pace", "0",
         "--level", "easy", "--data-dir", str(data_dir), *args],
        input=stdin, capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(data_dir)})


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "playroom", "--players", "7"],
     "The playroom rules are for 3 to 6 players, not 7."),
    (["--players", "3"], "The pagat rules are for 4 players, not 3."),
    (["--quicksand"], "No hell, quicksand and suicide are playroom variants."),
    (["--target", "0"], "The target score must be positive, not 0."),
])
def test_options_that_make_no_match_exit_with_code_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        message: str) -> None:
    assert main(["--no-speech", "--data-dir", str(tmp_path), *args]) == 2
    assert capsys.readouterr().err == f"voice-spades: {message}\n"


def test_piped_input_is_read_line_by_line_and_its_end_saves(tmp_path: Path) -> None:
    result = run(tmp_path, "h\nscores\n5 enter\n", "--seed", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "No terminal on standard input: reading key names from it, one or " \
                       "more per line."
    assert "You bid 5." in lines
    assert lines[-1] == "Input ended. Game saved. Goodbye."
    assert (tmp_path / "savegame.json").exists()
    again = run(tmp_path, "", "--seed", "3")
    assert "Resuming your game: hand 1, trick 1." in again.stdout


def test_a_corrupt_save_is_moved_aside_and_a_new_match_starts(tmp_path: Path) -> None:
    (tmp_path / "savegame.json").write_text('{"format": "voice-spades-save/1", "match": 1}')
    result = run(tmp_path, "q\n", "--seed", "3")
    assert result.returncode == 0
    assert "Your saved game could not be read: the file has no game settings. It was moved " \
           "aside to savegame.json.corrupt-" in result.stdout
    assert "Voice Spades. pagat rules" in result.stdout
    assert len(list(tmp_path.glob("savegame.json.corrupt-*"))) == 1


def test_keymap_problems_are_reported_and_play_goes_on(tmp_path: Path) -> None:
    (tmp_path / "keymap.toml").write_text('[keys]\nhand = "j"\nscores = "j"\n')
    result = run(tmp_path, "j\nq\n", "--seed", "3")
    assert "keymap.toml line 3: J is already bound to hand on line 2; scores keeps its " \
           "default keys." in result.stdout
    assert "Your hand: " in result.stdout.split("Your bid")[-1]


def test_a_resumed_game_keeps_its_options(tmp_path: Path) -> None:
    run(tmp_path, "q\n", "--rules", "playroom", "--players", "3", "--seed", "4")
    result = run(tmp_path, "q\n", "--rules", "classic-fr")
    assert "A saved game is in progress, so --rules were not used." in result.stdout
    assert "Resuming your game" in result.stdout
    fresh = run(tmp_path, "q\n", "--new", "--rules", "classic-fr")
    assert "Voice Spades. classic-fr rules, 4 players" in fresh.stdout


def test_help_lists_the_keys(tmp_path: Path) -> None:
    result = run(tmp_path, "f1\nq\n")
    assert "Keys: B your bid; C cards on the table; F suit led;" in result.stdout
