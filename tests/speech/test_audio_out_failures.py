"""A sound device that hangs, or vanishes, never holds the game: speech ends with one
message, closing does not wait for ever, and the program still exits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.speech.virtual_device import ROOT

pytestmark = pytest.mark.audio

STUCK = """
import json, os, sys, threading, time
import numpy as np
reader = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)  # opened, never read: a hung server
from voice_spades.errors import SetupError
from voice_spades.speech import player
from voice_spades.speech.audio_out import AudioOut
player.STALL_GRACE = 0.3
audio = AudioOut()
speech = player.SpeechPlayer(audio)
report = {}
start = time.monotonic()
try:
    speech.play(np.zeros(audio.samplerate, np.float32), audio.samplerate, threading.Event())
    report["error"] = None
except SetupError as error:
    report["error"] = error.message_id
report["play_seconds"] = time.monotonic() - start
start = time.monotonic()
audio.close()
report["close_seconds"] = time.monotonic() - start
print(json.dumps(report), flush=True)
"""


def test_a_stuck_audio_device_cannot_hold_the_game_forever(tmp_path: Path) -> None:
    # The bots wait for speech with no bound, so speech on a hung device must end.
    fifo = tmp_path / "device.fifo"
    os.mkfifo(fifo)
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{ type file slave.pcm "null" file "{fifo}" format "raw" }}\n')
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", STUCK, str(fifo)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["error"] == "speech.device_lost"
    assert 1.0 < report["play_seconds"] < 3.0  # the second of sound, then the grace
    assert report["close_seconds"] < 2.0
    assert time.monotonic() - started < 20  # and the program exited
