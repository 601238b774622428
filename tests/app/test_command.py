"""`voice-spades play` options, start-up problems and piped input (no terminal)."""

from __future__ import annotations

import re
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
    (["--players", "3"], "The pagat rules are for 4 players, not 3. For 3 players, use "
                         "--rules playroom."),
    (["--players", "6"], "The pagat rules are for 4 players, not 6. For 6 players, use "
                         "--rules playroom."),
    (["--players", "2"], "The pagat rules are for 4 players, not 2. For 2 players, use "
                         "--rules two-player."),
    (["--rules", "two-player", "--players", "4"],
     "The two-player rules are for 2 players, not 4. For 4 players, use --rules pagat, "
     "classic-fr, cardgames or playroom."),
    (["--pace", "inf"], "--pace must be a number of seconds from 0 to 10, not inf."),
    (["--pace", "nan"], "--pace must be a number of seconds from 0 to 10, not nan."),
    (["--pace", "-0.5"], "--pace must be a number of seconds from 0 to 10, not -0.5."),
    (["--pace", "11"], "--pace must be a number of seconds from 0 to 10, not 11."),
    (["--rules", "playroom", "--target", "499"],
     "The playroom rules play to a target from 500 to 2000, not 499."),
    (["--rules", "playroom", "--target", "2001"],
     "The playroom rules play to a target from 500 to 2000, not 2001."),
    (["--rules", "playroom", "--target", str(10**26)],
     f"The playroom rules play to a target from 500 to 2000, not {10**26}."),
    (["--target", "2001"], "The target can be at most 2000, not 2001."),
    (["--data-dir", ""], "The data folder name is empty, which would mean the current "
                         "folder. Give a folder, for example --data-dir ~/voice-spades."),
    (["--quicksand"], "No hell, quicksand and suicide are playroom variants."),
    (["--target", "0"], "The target score must be positive, not 0."),
    # these started a game (the rate the speech could not take) or gave a traceback
    *[(["--rate", rate], "--rate must be a whole number of words per minute from 80 to 500, "
                         f"not {rate}.") for rate in ("-1", "0", "79", "501", "1e20", "fast")],
    (["--data-dir", "d" * 5000], "The name given to --data-dir is 5000 characters long, more "
                                 "than the system allows for a file or folder; give a shorter "
                                 "one."),
    (["--keymap", "k" * 5000], "The name given to --keymap is 5000 characters long, more than "
                               "the system allows for a file or folder; give a shorter one."),
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
    assert "Voice Spades, pagat." in result.stdout
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
    assert "Voice Spades, classic-fr." in fresh.stdout


def test_help_lists_the_keys(tmp_path: Path) -> None:
    # F1: the keys for now, a few at a time (issue 10); ? (all_keys): every key, a key at
    # a time, stepped with the arrows, comma and period (issue 48).
    result = run(tmp_path, "f1\n?\ndown\n.\nq\n")
    assert "Keys now, 1 of " in result.stdout
    assert "one at a time: question mark, Down arrow or period for the next" in result.stdout
    assert re.search(r"\n1 of (\d+): B your bid, or the bids in play\.\r?\n"
                     r"2 of \1: C cards on the table\.\r?\n3 of \1: F suit led\.",
                     result.stdout), result.stdout


@pytest.mark.parametrize("target", ["500", "2000"])
def test_playroom_targets_from_500_to_2000_are_accepted(tmp_path: Path, target: str) -> None:
    result = run(tmp_path, "q\n", "--rules", "playroom", "--players", "6", "--target", target)
    assert result.returncode == 0, result.stderr
    assert "Voice Spades, playroom, 6 players." in result.stdout


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(("name", "content", "said"), [
    ("savegame.json", DEEP, "Your saved game could not be read: the file is nested too deeply "
                            "to be read. It was moved aside to savegame.json.corrupt-"),
    ("savegame.json", '{"format": "voice-spades-save/1", "settings": {"seed": ' + "9" * 5000
     + "}}", "Your saved game could not be read: the file holds a number too long to be "
             "read. It was moved aside to savegame.json.corrupt-"),
    ("stats.json", DEEP, "The statistics file could not be read: the file is nested too "
                         "deeply to be read. It was moved aside to stats.json.corrupt-"),
    ("stats.json", "1" * 5000, "The statistics file could not be read: the file holds a "
                               "number too long to be read. It was moved aside to "
                               "stats.json.corrupt-"),
    ("keymap.toml", "[keys]\nhand = " + DEEP, "Your keymap keymap.toml could not be used: "
     "the file is nested too deeply to be read. It was moved aside to keymap.toml.corrupt-"),
    ("keymap.toml", "[keys]\nhand = " + "7" * 5000, "Your keymap keymap.toml could not be "
     "used: the file holds a number too long to be read. It was moved aside to "
     "keymap.toml.corrupt-"),
    ("preferences.toml", "rate = " + DEEP, "could not be used: the file is nested too deeply "
     "to be read. It was moved aside to preferences.toml.corrupt-"),
    ("preferences.toml", "rate = " + "7" * 5000, "could not be used: the file holds a number "
     "too long to be read. It was moved aside to preferences.toml.corrupt-"),
])
def test_a_file_that_crashed_every_start_is_moved_aside(tmp_path: Path, name: str,
                                                         content: str, said: str) -> None:
    (tmp_path / name).write_text(content)
    result = run(tmp_path, "q\n", "--seed", "3")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert said in result.stdout
    assert "Voice Spades, pagat." in result.stdout
    assert len(list(tmp_path.glob(f"{name}.corrupt-*"))) == 1
    assert run(tmp_path, "q\n").returncode == 0


def unwritable(folder: Path) -> str:
    return f"{folder} is a file, not a folder"


@pytest.mark.parametrize(("stdin", "goodbye"), [
    ("q\n", "Your game was not saved: {reason}. What you played since the last save is "
            "lost. To keep your games, start with --data-dir and a folder you can write to. "
            "Goodbye."),
    ("", "Input ended. Your game was not saved: {reason}. What you played since the last "
         "save is lost. To keep your games, start with --data-dir and a folder you can "
         "write to. Goodbye."),
])
def test_a_data_folder_that_cannot_be_written_is_said_at_start_and_at_quit(
        tmp_path: Path, stdin: str, goodbye: str) -> None:
    """Like --data-dir /etc/hostname: the game is played, never called saved."""
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    result = run(afile, stdin, "--seed", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    warning = (f"Your game cannot be saved: {unwritable(afile)}. You can play on, but this "
               "game will be lost when you quit. To keep your games, start with --data-dir "
               "and a folder you can write to.")
    assert warning in lines
    assert lines.index(warning) < next(i for i, line in enumerate(lines)
                                       if line.startswith("Voice Spades,"))
    assert lines.count(warning) == 1
    assert lines[-1] == goodbye.format(reason=unwritable(afile))
    assert "Game saved" not in result.stdout


def test_an_unwritable_home_is_said_with_its_folder(tmp_path: Path) -> None:
    """No --data-dir, and HOME where nothing can be created (here: a file)."""
    home = tmp_path / "home"
    home.write_text("")
    result = subprocess.run(
        [sys.executable, "-m", "voice_spades", "--no-speech", "--no-voice", "--pace", "0",
         "--seed", "3"], input="q\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(home)})
    assert result.returncode == 0, result.stderr
    assert f"Your game cannot be saved: {unwritable(home)}. " in result.stdout
    assert result.stdout.splitlines()[-1].startswith(
        f"Your game was not saved: {unwritable(home)}.")


@pytest.mark.parametrize(("encoding", "shown"), [("ascii", "cafe-EUR"),
                                                  ("latin-1", "café-EUR")])
def test_lines_the_terminal_cannot_encode_are_printed_in_plain_letters(
        tmp_path: Path, encoding: str, shown: str) -> None:
    keymap = tmp_path / "café-€.toml"
    result = subprocess.run(
        [sys.executable, "-m", "voice_spades", "--no-speech", "--no-voice", "--pace", "0",
         "--data-dir", str(tmp_path), "--seed", "3", "--keymap", str(keymap)],
        input=b"q\n", capture_output=True, timeout=60, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path),
             "PYTHONIOENCODING": encoding})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode(encoding).splitlines()
    assert f"There is no keymap file {tmp_path}/{shown}.toml; using the default keys." in lines
    assert lines[-1] == "Game saved. Goodbye."
