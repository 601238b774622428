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
    ACROSS_ECHO,
    MAX_SECONDS,
    PEAK_BELOW_SPEECH,
    RATE,
    Cue,
    level,
    make_cues,
)
from voice_spades.speech.cues import SEATED
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
    across = make_cues(100, across=True)
    for cue, sound in [*make_cues(100).items(), *((c, across[c]) for c in SEATED)]:
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


def centroid(sound: npt.NDArray[np.floating]) -> float:
    """The spectral centroid in Hz: where a sound's brightness is."""
    magnitude = np.abs(np.fft.rfft(np.asarray(sound, dtype=np.float64)))
    freqs = np.fft.rfftfreq(len(sound), 1 / RATE)
    return float((magnitude * freqs).sum() / magnitude.sum())


def test_a_cue_from_across_the_table_is_told_from_ones_own() -> None:
    # The partner's cues share the centre with the player's: muffled and echoed, they are
    # darker (spectral centroid 30-82% lower: card 2588 -> 468 Hz, nil 4034 -> 2821 Hz),
    # 40 ms longer, and about as loud (within 2.5 dB).
    own, across = make_cues(), make_cues(across=True)
    for cue in SEATED:
        near, far = own[cue], across[cue]
        assert len(far) / RATE < MAX_SECONDS, cue
        assert len(far) - len(near) == int(ACROSS_ECHO[0] * RATE), cue
        assert centroid(far) < 0.75 * centroid(near), (cue, centroid(near), centroid(far))
        assert level(far)[1] == pytest.approx(level(near)[1], abs=2.5), cue
    # The card, the cue heard most, is a tap: from across it taps twice (its envelope
    # comes back 40 ms later: 0.42 against 0.06 for one's own).
    lag = int(ACROSS_ECHO[0] * RATE)
    assert echo_strength(across[Cue.CARD], lag) > echo_strength(own[Cue.CARD], lag) + 0.25


def echo_strength(sound: npt.NDArray[np.float32], lag: int) -> float:
    """How much of a sound's 5 ms envelope comes back ``lag`` samples later (the
    envelope's correlation with itself there, 0-1)."""
    block = RATE // 200
    x = np.asarray(sound, dtype=np.float64) ** 2
    env = np.sqrt(x[:len(x) // block * block].reshape(-1, block).mean(axis=1))
    env = np.pad(env, (0, lag // block))
    shift = lag // block
    return float(env[:-shift] @ env[shift:] / (env @ env))
