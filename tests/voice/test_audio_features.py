"""Signal measurements used around the decoders, on generated and spoken audio."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from voice_spades.voice.audio.features import (
    add_noise_floor,
    frame_energies_db,
    reduce_noise,
    trim_to_speech,
    voiced_fraction,
)
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.testspeech import SpeechParams, silence, white_noise

RATE = 16000


def tone(seconds: float, hz: float, level: float = 0.3) -> bytes:
    t = np.arange(int(seconds * RATE)) / RATE
    wave = level * 32767 * np.sign(np.sin(2 * np.pi * hz * t)) * 0.5 \
        + level * 32767 * 0.5 * np.sin(2 * np.pi * 3 * hz * t)
    return wave.astype("<i2").tobytes()


def test_energies_of_silence_and_noise() -> None:
    assert frame_energies_db(b"").size == 0
    assert frame_energies_db(silence(0.1)).max() == 0.0
    assert frame_energies_db(white_noise(0.1, 0.1)).min() > 60


def test_trim_keeps_the_speech_and_a_margin() -> None:
    audio = silence(0.5) + white_noise(0.4, 0.2, seed=1) + silence(0.7)
    trimmed = trim_to_speech(audio, margin_seconds=0.05)
    assert len(trimmed) / 2 / RATE == pytest.approx(0.5, abs=0.02)
    assert trim_to_speech(silence(1.0)) == silence(1.0)


def test_voicing_tells_periodic_sound_from_noise() -> None:
    assert voiced_fraction(silence(0.5) + tone(0.6, 120) + silence(0.5)) > 0.8
    assert voiced_fraction(silence(0.5) + tone(0.6, 70) + silence(0.5)) > 0.8
    for level in (0.005, 0.05, 0.3):
        assert voiced_fraction(white_noise(1.0, level, seed=2)) < 0.05
    assert voiced_fraction(silence(0.02)) == 0.0


@pytest.mark.audio
@pytest.mark.skipif(not testspeech.tools_available(), reason="needs espeak-ng and sox")
def test_voicing_of_speech_in_noise(tmp_path: Path) -> None:
    for voice, pitch in (("en-us", 50), ("en-gb-x-rp", 35), ("en-us+f3", 70)):
        speech = testspeech.synthesize("my hand", SpeechParams(voice, 150, pitch, noise=0.02,
                                                               pad_seconds=0.3), tmp_path)
        assert voiced_fraction(speech) > 0.4, voice


def test_noise_floor_is_faint_and_repeatable() -> None:
    quiet = add_noise_floor(silence(0.5))
    assert quiet == add_noise_floor(silence(0.5))
    peak = np.abs(np.frombuffer(quiet, dtype="<i2")).max()
    assert 0 < peak <= 0.003 * 32767 + 1


def _db(pcm: bytes) -> float:
    x = np.frombuffer(pcm, dtype="<i2").astype(float)
    return float(10 * np.log10((x**2).mean() + 1.0))


def test_noise_reduction_removes_steady_noise_and_keeps_the_sound() -> None:
    noise = white_noise(1.5, 0.05, seed=3)
    sound = silence(0.5) + tone(0.5, 150) + silence(0.5)
    noisy = np.frombuffer(noise, dtype="<i2").astype(int) \
        + np.frombuffer(sound, dtype="<i2").astype(int)
    mixed = np.clip(noisy, -32768, 32767).astype("<i2").tobytes()
    cleaned = reduce_noise(mixed)
    assert len(cleaned) == len(mixed)
    pause, middle = slice(0, 2 * 8000), slice(2 * 8800, 2 * 15200)
    assert _db(cleaned[pause]) < _db(mixed[pause]) - 3
    strong = reduce_noise(mixed, over_subtraction=3.0, gain_floor=0.01)
    assert _db(strong[pause]) < _db(mixed[pause]) - 10
    assert abs(_db(strong[middle]) - _db(sound[middle])) < 1.5
    assert abs(_db(cleaned[middle]) - _db(sound[middle])) < 1.5
    assert reduce_noise(mixed, over_subtraction=0.0) != cleaned


def test_noise_reduction_leaves_very_short_audio_alone() -> None:
    short = white_noise(0.05, 0.1, seed=4)
    assert reduce_noise(short) == short
