"""The features PocketSphinx computes from speech, in numpy: MFCC as the model's
``feat.params`` asks (filter bank, DCT, lifter), then batch CMN and the deltas of
``1s_c_d_dd``.

The decoder's own front end also subtracts noise (``remove_noise``); this one does
not (a decoder given these cepstra with ``process_cep`` heard 10 of 12 phrases as from
the audio, at scores within 5%). A phrase is aligned on these features and the
adaptation statistics are gathered on them, so frames and features always match.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

SAMPLE_RATE = 16000
FRAME_SHIFT = 160
WINDOW = 410
"""0.025625 s at 16 kHz, PocketSphinx's default window."""
FFT_SIZE = 512
CEPSTRA = 13
PRE_EMPHASIS = 0.97

Floats = NDArray[np.float64]


@dataclass(frozen=True)
class FrontEnd:
    """The filter bank of a model's ``feat.params`` (defaults: the bundled English
    model) and the frequency warp the decoders use."""

    lower_hz: float = 130.0
    upper_hz: float = 6800.0
    filters: int = 25
    lifter: int = 22
    warp: float = 1.0

    @classmethod
    def for_model(cls, model: Path, warp: float) -> FrontEnd:
        """The front end of the acoustic model folder ``model`` (its ``feat.params``)."""
        values: dict[str, str] = {}
        params = model / "feat.params"
        if params.exists():
            words = params.read_text(encoding="utf-8").split()
            values = dict(zip(words[::2], words[1::2], strict=False))
        return cls(float(values.get("-lowerf", cls.lower_hz)),
                   float(values.get("-upperf", cls.upper_hz)),
                   int(values.get("-nfilt", cls.filters)),
                   int(values.get("-lifter", cls.lifter)), warp)

    @cached_property
    def filter_bank(self) -> Floats:
        """Triangular filters of unit area, equally spaced in mel between the model's
        edges, their corners rounded to FFT bins, warped as PocketSphinx's
        ``inverse_linear`` warp does."""
        step = SAMPLE_RATE / FFT_SIZE
        low, high = _mel(self.lower_hz / self.warp), _mel(self.upper_hz / self.warp)
        spacing = (high - low) / (self.filters + 1)
        bins = np.arange(FFT_SIZE // 2 + 1) * step
        bank = np.zeros((self.filters, len(bins)))
        for i in range(self.filters):
            left, centre, right = (
                np.floor(self.warp * _mel_inverse(low + (i + j) * spacing) / step + 0.5) * step
                for j in range(3))
            height = 2.0 / (right - left)
            if centre > left:
                rising = (bins >= left) & (bins <= centre)
                bank[i, rising] = (bins[rising] - left) / (centre - left) * height
            if right > centre:
                falling = (bins > centre) & (bins <= right)
                bank[i, falling] = (right - bins[falling]) / (right - centre) * height
        return bank

    def cepstra(self, pcm: bytes) -> NDArray[np.float32]:
        """13 cepstra for each 10 ms frame of 16 kHz mono int16 ``pcm`` (what
        ``Decoder.process_cep`` takes)."""
        x = np.frombuffer(pcm[:len(pcm) - len(pcm) % 2], "<i2").astype(np.float64)
        if len(x) < WINDOW:
            return np.zeros((0, CEPSTRA), np.float32)
        x = np.concatenate([x[:1], x[1:] - PRE_EMPHASIS * x[:-1]])
        count = 1 + (len(x) - WINDOW) // FRAME_SHIFT
        index = np.arange(WINDOW)[None, :] + FRAME_SHIFT * np.arange(count)[:, None]
        window = 0.54 - 0.46 * np.cos(2 * np.pi * np.arange(WINDOW) / (WINDOW - 1))
        power = np.abs(np.fft.rfft(x[index] * window, FFT_SIZE)) ** 2
        log_energies = np.log(np.maximum(power @ self.filter_bank.T, 1e-10))
        n = self.filters
        basis = np.cos(np.pi * np.arange(CEPSTRA)[:, None] * (np.arange(n)[None, :] + 0.5) / n)
        cepstra = log_energies @ basis.T
        cepstra[:, 0] *= np.sqrt(1.0 / n)
        cepstra[:, 1:] *= np.sqrt(2.0 / n)
        lifter = 1 + self.lifter / 2 * np.sin(np.arange(CEPSTRA) * np.pi / self.lifter)
        return (cepstra * lifter).astype(np.float32)


def features(cepstra: NDArray[np.float32]) -> Floats:
    """The decoder's 39 features a frame: cepstra less their mean (batch CMN), their
    deltas over ±2 frames and the deltas of those (``1s_c_d_dd``)."""
    c = cepstra.astype(np.float64)
    c = c - c.mean(axis=0) if len(c) else c
    padded = np.concatenate([np.repeat(c[:1], 3, 0), c, np.repeat(c[-1:], 3, 0)])
    t = np.arange(len(c)) + 3
    delta = padded[t + 2] - padded[t - 2]
    double = (padded[t + 3] - padded[t - 1]) - (padded[t + 1] - padded[t - 3])
    return np.concatenate([c, delta, double], axis=1)


def _mel(hz: float) -> float:
    return float(2595.0 * np.log10(1.0 + hz / 700.0))


def _mel_inverse(mel: float) -> float:
    return float(700.0 * (10.0 ** (mel / 2595.0) - 1.0))
