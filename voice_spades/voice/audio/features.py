"""Signal measurements on 16 kHz mono int16 PCM used around the decoders.

All functions are pure numpy: removing low-frequency rumble, frame energies,
trimming an utterance to its speech, a voicing measure that tells speech from
noise, removing steady background noise, and the faint noise floor added before
decoding.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

SAMPLE_RATE = 16000
FRAME = 160  # 10 ms


def samples(pcm: bytes) -> NDArray[np.float64]:
    """Return the PCM samples as float64 (an odd trailing byte is ignored)."""
    usable = len(pcm) - (len(pcm) % 2)
    return np.frombuffer(pcm[:usable], dtype="<i2").astype(np.float64)


HIGH_PASS_HZ = 120.0
"""Below this, sound is rumble (traffic, air conditioning, handling noise), not
words: the recognizer's acoustic model starts at 130 Hz, and brown noise keeps most
of its energy here, where it hid the ends of phrases from the trimming."""


def high_pass(pcm: bytes, cutoff_hz: float = HIGH_PASS_HZ) -> bytes:
    """Remove what lies below ``cutoff_hz`` (half of it and below entirely, a smooth
    raised-cosine slope in between), on the whole clip at once through the FFT."""
    x = samples(pcm)
    if len(x) < 2:
        return pcm
    spectrum = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(len(x), 1.0 / SAMPLE_RATE)
    low = cutoff_hz / 2
    slope = np.clip((freqs - low) / (cutoff_hz - low), 0.0, 1.0)
    gain = 0.5 - 0.5 * np.cos(np.pi * slope)
    out = np.fft.irfft(spectrum * gain, n=len(x))
    return np.clip(np.round(out), -32768, 32767).astype("<i2").tobytes()


def frame_energies_db(pcm: bytes, frame: int = FRAME) -> NDArray[np.float64]:
    """Return the energy of each 10 ms frame in dB (full scale is about 90 dB)."""
    x = samples(pcm)
    count = len(x) // frame
    if count == 0:
        return np.zeros(0)
    frames = x[: count * frame].reshape(count, frame)
    result: NDArray[np.float64] = 10.0 * np.log10((frames**2).mean(axis=1) + 1.0)
    return result


def speech_threshold_db(energies: NDArray[np.float64], min_rise_db: float = 6.0,
                        rise_fraction: float = 0.25) -> float:
    """Return the energy above which a frame counts as speech.

    The noise floor is the 10th percentile of the frame energies; speech must
    rise above it by ``min_rise_db`` or ``rise_fraction`` of the dynamic range.
    """
    floor = float(np.percentile(energies, 10))
    peak = float(energies.max())
    return floor + max(min_rise_db, rise_fraction * (peak - floor))


def trim_to_speech(pcm: bytes, margin_seconds: float = 0.05) -> bytes:
    """Cut leading and trailing non-speech, keeping ``margin_seconds`` on each side.

    Long silence around a command makes the grammar decoder let silence eat
    word onsets; a short margin keeps weak onsets such as "h" or "f".
    """
    energies = frame_energies_db(pcm)
    if len(energies) < 3:
        return pcm
    loud = np.nonzero(energies > speech_threshold_db(energies))[0]
    if len(loud) == 0:
        return pcm
    margin = round(margin_seconds * SAMPLE_RATE / FRAME)
    first = max(0, int(loud[0]) - margin)
    last = min(len(energies), int(loud[-1]) + 1 + margin)
    return pcm[first * FRAME * 2 : last * FRAME * 2]


def voiced_fraction(pcm: bytes, min_pitch_hz: float = 60.0, max_pitch_hz: float = 500.0,
                    periodicity: float = 0.5) -> float:
    """Return the share of loud 40 ms frames that are periodic (voiced).

    Every allowed phrase has vowels, so speech scores well above 0.3 while
    white noise, hiss and clicks score near 0. The autocorrelation is divided
    by the window's own autocorrelation so low voices are not under-counted.
    """
    x = samples(pcm)
    length, hop = 640, FRAME
    if len(x) < length:
        return 0.0
    count = 1 + (len(x) - length) // hop
    index = np.arange(length)[None, :] + hop * np.arange(count)[:, None]
    frames = x[index]
    frames = frames - frames.mean(axis=1, keepdims=True)
    energies = 10.0 * np.log10((frames**2).mean(axis=1) + 1.0)
    loud = energies > speech_threshold_db(energies, rise_fraction=0.3)
    if not loud.any():
        return 0.0
    window = np.hanning(length)
    nfft = 2048
    spectra = np.abs(np.fft.rfft(frames[loud] * window, n=nfft, axis=1)) ** 2
    autocorr = np.fft.irfft(spectra, axis=1)[:, :length]
    window_ac = np.fft.irfft(np.abs(np.fft.rfft(window, n=nfft)) ** 2)[:length]
    normalized = autocorr / np.maximum(autocorr[:, :1], 1e-9)
    normalized = normalized / np.maximum(window_ac / window_ac[0], 1e-3)
    low_lag = int(SAMPLE_RATE / max_pitch_hz)
    high_lag = int(SAMPLE_RATE / min_pitch_hz)
    peaks = normalized[:, low_lag:high_lag].max(axis=1)
    return float((peaks > periodicity).mean())


def add_noise_floor(pcm: bytes, level: float = 0.003, seed: int = 12345) -> bytes:
    """Mix in faint white noise (peak ``level`` of full scale), the same every call.

    Digitally silent stretches (synthesized or gated audio) give the acoustic
    model features it never saw in training and derail the search; a room
    never sounds like that, so a fixed faint floor does no harm to real audio.
    """
    x = samples(pcm)
    rng = np.random.default_rng(seed)
    noisy = x + rng.uniform(-level, level, size=x.shape) * 32767.0
    return np.clip(noisy, -32768, 32767).astype("<i2").tobytes()


def reduce_noise(pcm: bytes, over_subtraction: float = 1.0, gain_floor: float = 0.2) -> bytes:
    """Remove steady background noise (fan, hiss) by spectral subtraction.

    The noise spectrum is the mean of the quietest 15% of 32 ms frames (the
    pauses around a command); each frame keeps ``1 - over_subtraction *
    noise / power`` of its power per frequency, never less than
    ``gain_floor``, so speech between the noise bins survives and no
    "musical" dropouts appear. Audio shorter than two frames is returned as is.
    """
    x = samples(pcm)
    size, hop = 512, FRAME
    if len(x) < 2 * size:
        return pcm
    window = np.hanning(size)
    count = 1 + (len(x) - size) // hop
    index = np.arange(size)[None, :] + hop * np.arange(count)[:, None]
    spectra = np.fft.rfft(x[index] * window, axis=1)
    power = np.abs(spectra) ** 2
    energy = power.sum(axis=1)
    noise = power[energy <= np.percentile(energy, 15)].mean(axis=0)
    gain = np.maximum(1.0 - over_subtraction * noise / np.maximum(power, 1e-9), gain_floor)
    frames = np.fft.irfft(spectra * np.sqrt(gain), n=size, axis=1) * window
    out = np.zeros(len(x))
    weight = np.zeros(len(x))
    for i in range(count):
        out[i * hop:i * hop + size] += frames[i]
        weight[i * hop:i * hop + size] += window**2
    # The unframed tail (under one hop) keeps its original samples.
    covered = weight > 1e-3
    out[covered] /= weight[covered]
    out[~covered] = x[~covered]
    return np.clip(np.round(out), -32768, 32767).astype("<i2").tobytes()
