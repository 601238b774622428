"""Synthetic test audio, 16 kHz mono int16: silence, noise and speech-like bursts."""

from __future__ import annotations

import numpy as np

from voice_spades.voice.audio.vad import SAMPLE_RATE

RNG_SEED = 7


def silence(seconds: float) -> bytes:
    return bytes(2 * round(seconds * SAMPLE_RATE))


def noise(seconds: float, rms: float, seed: int = RNG_SEED) -> bytes:
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, rms, round(seconds * SAMPLE_RATE))
    return np.clip(x, -32768, 32767).astype("<i2").tobytes()


def voice(seconds: float, peak: float = 8000.0) -> bytes:
    """A speech-like burst: a 140 Hz buzz with harmonics, its loudness wobbling at 4 Hz
    like syllables, faded in and out."""
    t = np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    buzz = np.zeros_like(t)
    for k in range(1, 6):
        buzz += np.sin(2 * np.pi * 140 * k * t) / k
    syllables = 0.6 + 0.4 * np.sin(2 * np.pi * 4 * t)
    fade = np.minimum(1.0, np.minimum(t, t[-1] - t) / 0.03)
    x = peak * buzz / 2.3 * syllables * fade
    return bytes(x.astype("<i2").tobytes())


def mix(*parts: bytes) -> bytes:
    """Add equally long signals."""
    arrays = [np.frombuffer(p, dtype="<i2").astype(np.int32) for p in parts]
    return np.clip(sum(arrays), -32768, 32767).astype("<i2").tobytes()
