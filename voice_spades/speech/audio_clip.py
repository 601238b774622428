"""Clips for :class:`~voice_spades.speech.audio_out.AudioOut`: samples as float32
stereo at the output's rate, with a pan and a gain applied, and WAV files read as
samples."""

from __future__ import annotations

import math
import wave
from pathlib import Path

import numpy as np
import numpy.typing as npt

Samples = npt.NDArray[np.float32]
"""Float32 samples, -1..1: mono ``(n,)`` or ``(n, channels)``."""


def pan_gains(pan: float) -> tuple[float, float]:
    """Left and right gains for ``pan`` (-1 left .. 0 centre .. +1 right).

    The two channels keep the ratio of the constant-power (sine-cosine) law, so seats
    spread evenly across the field sound evenly spread (a quarter of the way over: 4.8
    dB between the ears; half way: 7.7 dB; at -1 the right channel is silent), and the
    nearer channel stays at full level, so a sound in the centre (the narrator) keeps
    the level it was made at on both.
    """
    pan = max(-1.0, min(1.0, float(pan)))
    angle = (pan + 1.0) * math.pi / 4
    left, right = math.cos(angle), math.sin(angle)
    louder = max(left, right)
    return left / louder, right / louder


def as_float(samples: npt.NDArray[np.generic]) -> Samples:
    """``samples`` as float32 in -1..1 (int16 and int32 are scaled, floats kept)."""
    array = np.asarray(samples)
    if array.dtype == np.int16:
        return (array.astype(np.float32) / 32768.0).astype(np.float32)
    if array.dtype == np.int32:
        return (array.astype(np.float64) / 2147483648.0).astype(np.float32)
    if not np.issubdtype(array.dtype, np.floating):
        raise ValueError(f"samples of type {array.dtype} are not audio")
    return array.astype(np.float32, copy=False)


def resample(samples: npt.NDArray[np.generic], samplerate: int, out_rate: int) -> Samples:
    """Mono ``(n,)`` or stereo ``(n, 2)`` ``samples`` at ``samplerate`` as float32 at
    ``out_rate`` (a one-channel ``(n, 1)`` clip comes back mono)."""
    data = as_float(samples)
    if data.ndim == 2 and data.shape[1] == 1:
        data = data[:, 0]
    if data.ndim not in (1, 2) or (data.ndim == 2 and data.shape[1] != 2):
        raise ValueError(f"audio of shape {data.shape} is neither mono nor stereo")
    if samplerate <= 0:
        raise ValueError(f"sample rate {samplerate} is not a rate")
    if samplerate != out_rate and len(data):
        import soxr  # imported here: only a clip at another rate needs it

        data = np.asarray(soxr.resample(np.ascontiguousarray(data), samplerate, out_rate,
                                        quality="HQ"), dtype=np.float32)
    return data


def prepare(samples: npt.NDArray[np.generic], samplerate: int, out_rate: int, *,
            pan: float = 0.0, gain: float = 1.0) -> Samples:
    """Mono or stereo ``samples`` at ``samplerate`` -> float32 ``(n, 2)`` at ``out_rate``,
    panned and scaled. A stereo clip keeps its channels and is balanced by ``pan``."""
    data = resample(samples, samplerate, out_rate)
    left, right = pan_gains(pan)
    out = np.empty((len(data), 2), dtype=np.float32)
    source = (data, data) if data.ndim == 1 else (data[:, 0], data[:, 1])
    np.multiply(source[0], left * gain, out=out[:, 0])
    np.multiply(source[1], right * gain, out=out[:, 1])
    return out


def read_wav(path: Path) -> tuple[Samples, int]:
    """A 16-bit PCM WAV file (what pyttsx3 writes) as float32 samples and their rate;
    several channels come back as ``(n, channels)``."""
    with wave.open(str(path), "rb") as wav:
        if wav.getsampwidth() != 2:
            raise ValueError(f"{path.name} is not 16-bit audio")
        channels, rate = wav.getnchannels(), wav.getframerate()
        raw = wav.readframes(wav.getnframes())
    data = as_float(np.frombuffer(raw, dtype="<i2"))
    if channels > 1:
        data = data.reshape(-1, channels)
    return data, rate
