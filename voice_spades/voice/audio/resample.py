"""Sample-rate conversion for microphones that cannot record 16 kHz.

The recognizers take 16 kHz mono int16. Many USB and laptop microphones record
only 44.1 or 48 kHz; the microphone is then opened at its own rate and every block
goes through a :class:`Resampler` (libsoxr, through the ``soxr`` package: a kept
library with wheels for every platform, streaming, and filters good enough for
speech at a fraction of real time).
"""

from __future__ import annotations

import numpy as np

TARGET_RATE = 16000


class Resampler:
    """Streams int16 mono PCM from ``rate`` to 16 kHz, block by block, with no
    clicks between blocks (the filter keeps its state)."""

    def __init__(self, rate: int, target: int = TARGET_RATE) -> None:
        import soxr

        self.rate = rate
        self.target = target
        self._stream = soxr.ResampleStream(rate, target, 1, dtype="int16", quality="HQ")

    def feed(self, pcm: bytes) -> bytes:
        """Convert the next block; returns what is ready (a few ms stay in the filter)."""
        usable = len(pcm) - len(pcm) % 2
        block = np.frombuffer(pcm[:usable], dtype="<i2")
        out = self._stream.resample_chunk(block, last=False)
        return bytes(np.asarray(out, dtype="<i2").tobytes())

    def flush(self) -> bytes:
        """The samples still held in the filter (at the end of the stream)."""
        out = self._stream.resample_chunk(np.zeros(0, dtype="<i2"), last=True)
        return bytes(np.asarray(out, dtype="<i2").tobytes())


def resample(pcm: bytes, rate: int, target: int = TARGET_RATE) -> bytes:
    """A whole clip of int16 mono PCM from ``rate`` to ``target``."""
    if rate == target:
        return pcm
    resampler = Resampler(rate, target)
    return resampler.feed(pcm) + resampler.flush()
