"""The cues themselves: short, told apart, and never louder than the narrator's speech
(measured from real espeak-ng sentences through pyttsx3)."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from voice_spades.speech.audio_clip import read_wav
from voice_spades.speech.cue_sounds import (
    MAX_SECONDS,
    PEAK_BELOW_SPEECH,
    RATE,
    Cue,
    level,
    make_cues,
)
from voice_spades.speech.synth import SynthClient

SENTENCES = ["Your turn.", "North played the queen of hearts.", "Spades are broken.",
             "West won the trick with the ace of spades.", "That breaks East's nil.",
             "You won the match, 512 to 380, after 9 hands!"]


@pytest.fixture(scope="module")
def speech_levels() -> list[tuple[float, float]]:
    """(peak, loudness) in dBFS of espeak-ng sentences at 200 and 400 words a minute."""
    client = SynthClient()
    client.start()
    levels = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            for rate, (i, text) in itertools.product((200, 400), enumerate(SENTENCES)):
                path = Path(folder) / f"{rate}-{i}.wav"
                client.synth(text, path, rate, None, 50)
                levels.append(level(read_wav(path)[0]))
    finally:
        client.close()
    return levels


def test_every_cue_is_short() -> None:
    for cue, sound in make_cues().items():
        assert 0.04 < len(sound) / RATE < MAX_SECONDS, cue


@pytest.mark.audio
def test_no_cue_is_louder_than_speech(speech_levels: list[tuple[float, float]]) -> None:
    quietest_peak = min(peak for peak, _ in speech_levels)
    speech_loudness = float(np.median([loud for _, loud in speech_levels]))
    print(f"speech: peaks {quietest_peak:.1f} dBFS and up, loudness {speech_loudness:.1f} "
          "dBFS; cues at volume 100:",
          {c.value: [round(x, 1) for x in level(s)] for c, s in make_cues(100).items()})
    for cue, sound in make_cues(100).items():
        peak, loudness = level(sound)
        assert peak <= quietest_peak - PEAK_BELOW_SPEECH + 0.1, cue
        assert loudness <= speech_loudness + 0.5, cue


def test_the_volume_scales_every_cue() -> None:
    full, half, off = make_cues(100), make_cues(50), make_cues(0)
    for cue in Cue:
        assert level(half[cue])[0] == pytest.approx(level(full[cue])[0] - 12.04, abs=0.05)
        assert not off[cue].any()


def spectrogram(sound: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Magnitudes in 20 ms frames over the longest cue's length, then flattened."""
    size, hop = 1024, 480
    padded = np.pad(sound.astype(np.float64), (0, int(MAX_SECONDS * RATE) - len(sound)))
    window = np.hanning(size)
    return np.concatenate([np.abs(np.fft.rfft(padded[i:i + size] * window))
                           for i in range(0, len(padded) - size, hop)])


def test_the_cues_are_told_apart() -> None:
    # Two cues alike by ear have alike spectrograms (the same pitches at the same times);
    # each pair here shares under half its spectral shape.
    sounds = {cue: spectrogram(sound) for cue, sound in make_cues().items()}
    worst = 0.0
    for (a, sa), (b, sb) in itertools.combinations(sounds.items(), 2):
        similarity = float(sa @ sb / np.linalg.norm(sa) / np.linalg.norm(sb))
        worst = max(worst, similarity)
        assert similarity < 0.5, (a, b, similarity)
    print("most alike pair of cues: similarity", round(worst, 2))
