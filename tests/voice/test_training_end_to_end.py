"""``voice-spades train-voice`` as a player runs it: the real command, its phrases
printed, the player's voice through a virtual microphone (an ALSA ``file`` device
fed from a FIFO, as in :mod:`tests.voice.test_voice_end_to_end`), the training saved
where the next game finds it."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from tests.voice.test_models import write_model
from tests.voice.test_voice_end_to_end import ROOT, FifoMicrophone, microphone_home
from voice_spades.storage.paths import data_paths
from voice_spades.voice.adaptation.trained_means import load_trained_means
from voice_spades.voice.listener import voice_training
from voice_spades.voice.recognizers.pocketsphinx_decoders import builtin_model_dir
from voice_spades.voice.testing.testspeech import tools_available

pexpect = pytest.importorskip("pexpect")

pytestmark = [pytest.mark.audio, pytest.mark.slow,
              pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")]


def test_a_player_trains_their_voice_through_the_microphone(tmp_path: Path) -> None:
    """With a Vosk model installed (laid out as one), the player is also told that games
    hear with it and how to play with the training instead."""
    home, fifo = microphone_home(tmp_path)
    vosk = write_model(tmp_path / "vosk-model-small-en-us-0.15")
    microphone = FifoMicrophone(fifo)
    child = pexpect.spawn(
        sys.executable, ["-m", "voice_spades", "train-voice", "--no-speech", "--phrases", "8",
                         "--data-dir", str(tmp_path / "data")],
        cwd=str(ROOT), encoding="utf-8", timeout=30, dimensions=(40, 250),
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
             "HOME": str(home), "VOICE_SPADES_VOSK_MODEL": str(vosk)})
    try:
        child.expect("Voice training. I will say 8 short phrases")
        read = 0
        while True:
            found = child.expect([r"Say: ([^\r\n]+)\.\r?\n", r"Done: [^\r\n]+"])
            if found == 1:
                break
            phrase = child.match.group(1)
            microphone.say(phrase)
            read += 1
        done = child.match.group(0)
        child.expect("listen with the installed Vosk model")
        child.expect("--recognizer pocketsphinx")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
        microphone.close()
    assert child.exitstatus == 0
    heard = int(re.search(r"trained on (\d+) of 8", done).group(1))  # type: ignore[union-attr]
    assert heard >= 7 and read >= 8
    path = data_paths(tmp_path / "data").voice_training_file("en")
    assert load_trained_means(path, builtin_model_dir() / "en-us") is not None
    assert voice_training(data_paths(tmp_path / "data"), "en") == (path, None)
