"""`voice-spades play` sounds its cues through the virtual stereo device, with text-only
speech too, and stays silent with ``--sounds off``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.speech.virtual_device import ROOT, stereo_home

pytestmark = pytest.mark.audio

KEYS = "5 enter\n" + "enter\n" * 3


def play(tmp_path: Path, *options: str) -> tuple[str, Path]:
    out = tmp_path / "out"
    env = stereo_home(tmp_path / "home", out)
    done = subprocess.run(
        [sys.executable, "-m", "voice_spades", "play", "--no-speech", "--no-voice",
         "--pace", "0.4", "--level", "easy", "--seed", "3", "--data-dir",
         str(tmp_path / "data"), *options],
        input=KEYS, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
        check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout, out


@pytest.mark.slow
def test_cards_sound_from_both_sides_with_text_speech(tmp_path: Path) -> None:
    stdout, out = play(tmp_path)
    assert "West played" in stdout and "East" in stdout
    (raw,) = out.glob("out.raw*")
    rec = np.fromfile(raw, dtype=np.float32).reshape(-1, 2)
    blocks = rec[:len(rec) // 480 * 480].reshape(-1, 480, 2)
    left, right = (blocks.astype(np.float64) ** 2).mean(axis=1).T  # 10 ms blocks
    centre = (left > 1e-4) & np.isclose(left, right)
    assert centre.sum() >= 3  # your turn, your cards
    # West's cards lean left and East's right, part of the way: the far ear still hears
    # them (placement.FIELD_WIDTH: 9.8 dB between the ears, a power ratio of about 9.5).
    west = (left > 1e-4) & (left > 4 * right) & (left < 20 * right)
    east = (right > 1e-4) & (right > 4 * left) & (right < 20 * left)
    assert west.sum() >= 3 and east.sum() >= 3
    assert not ((left > 1e-4) & (right < 1e-7)).any()  # no cue in one ear only
    assert float(np.abs(rec).max()) <= 1.0


def test_sounds_off_opens_no_audio_output(tmp_path: Path) -> None:
    stdout, out = play(tmp_path, "--sounds", "off")
    assert "West played" in stdout
    assert list(out.glob("out.raw*")) == []


def test_a_volume_out_of_range_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "voice_spades", "play", "--sound-volume", "140"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
        env=stereo_home(tmp_path / "home", tmp_path / "out"), check=False)
    assert done.returncode == 2
    assert "The sound volume must be a whole number from 0 to 100, not 140." in done.stderr
