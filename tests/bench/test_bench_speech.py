"""`voice-spades bench speech`: its figures, its table and its JSON, and one real short
run (cues only: the text backend) on the private PulseAudio card."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from voice_spades.bench import speech
from voice_spades.bench.pulse_sink import pulse_missing
from voice_spades.bench.sound_sink import Sound, alsa_pulse_missing, first_sound, last_sound_end

ROOT = Path(__file__).resolve().parents[2]


def test_p90_and_medians_in_milliseconds() -> None:
    row = speech.Row("voice")
    row.times["launch"] = [0.1 * n for n in range(1, 11)]
    summary = row.summary()
    assert summary["launch"] == {"median_ms": 550.0, "p90_ms": 900.0, "tries": 10}
    assert summary["cue"] == {"median_ms": None, "p90_ms": None, "tries": 0}


def test_the_table_shows_na_where_there_is_no_audio() -> None:
    voice, text = speech.Row("voice"), speech.Row("text", note="no audio")
    for column in speech.COLUMNS:
        voice.times[column] = [0.02, 0.03, 0.04]
    text.times["cue"] = [0.005]
    lines = speech.table([voice, text]).splitlines()
    assert lines[0].split()[:5] == ["backend", "launch", "silence", "answer", "cue"]
    assert lines[1].split()[:3] == ["voice", "30.0", "(40.0)"]
    assert lines[2].split()[:5] == ["text", "n/a", "n/a", "n/a", "5.0"]


def test_first_and_last_sound() -> None:
    played = [Sound(1.0, 1.005, 900), Sound(1.005, 1.01, 800), Sound(2.0, 2.005, 700)]
    assert first_sound(played, 1.002) == played[1]
    assert last_sound_end(played, 1.0) == 2.005
    assert first_sound(played, 3.0) is None and last_sound_end(played, 3.0) is None


@pytest.mark.audio
def test_a_real_short_run_prints_json() -> None:
    missing = pulse_missing() or alsa_pulse_missing()
    if missing is not None:
        pytest.skip(missing)
    # Its own process: the bench points ALSA (read once per process) at its own card.
    # A short TMPDIR: the card's socket path must fit in 108 bytes.
    with tempfile.TemporaryDirectory(prefix="vs-") as temp:
        done = subprocess.run([sys.executable, "-m", "voice_spades.cli", "bench", "speech",
                               "--only", "text", "--tries", "3", "--json"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=False,
                              env={**os.environ, "TMPDIR": temp})
        assert done.returncode == 0, done.stderr[-2000:]
        assert list(Path(temp).iterdir()) == []  # its virtual card's folder is gone
    result = json.loads(done.stdout.splitlines()[-1])
    (row,) = result["rows"]
    assert row["backend"] == "text" and row["launch"]["median_ms"] is None
    assert row["cue"]["tries"] == 3
    assert 0 < row["cue"]["median_ms"] < 150  # a cue is heard at once
