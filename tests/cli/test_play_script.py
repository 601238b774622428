"""The README's play command, run for real: set-up, then a game that saves and quits."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_play_script_sets_up_and_starts_a_game(tmp_path: Path) -> None:
    result = subprocess.run(
        [str(ROOT / "play"), "--seed", "4", "--no-voice", "--no-speech",
         "--data-dir", str(tmp_path)],
        input="h\nq\n", capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    assert "Your hand: spades" in result.stdout
    assert "Game saved. Goodbye." in result.stdout
    assert (tmp_path / "savegame.json").is_file()
