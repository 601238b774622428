"""The player's voice found band by band under the game's louder echo.

:class:`~voice_spades.voice.audio.echo_gate.EchoGate` judges a frame by its whole
level: a voice said under the narrator's echo (6 dB quieter at the microphone) raises
the frame hardly at all, and the canceller, taking the echo out, lowers it by several
dB, so the frame looks like echo. Across the spectrum it does not: the narrator and
the player say different sounds at different pitches, and in the bands where the
player's voice is the louder the canceller takes almost nothing off (it cannot
predict a voice it never played) and what it leaves stands above the echo expected
there. :class:`EchoBands` counts those bands in each 20 ms frame.

Pure computation on the frame's samples (the microphone's, the canceller's filter
output and what was played): no audio device is needed.
"""

from __future__ import annotations

from collections import deque
from functools import cache

import numpy as np
from numpy.typing import NDArray

from voice_spades.voice.audio.vad import SAMPLE_RATE

EDGES_HZ = (150, 300, 450, 600, 800, 1000, 1250, 1500, 1800, 2150, 2550, 3000, 3500,
            4100, 4800, 5600, 6500, 7600)
"""The bands' edges: 17 bands, some a quarter of an octave wide, over the range of
speech."""
NOTHING = -200.0
"""The level of no sound at all, in dB."""

Levels = NDArray[np.float64]


@cache
def _layout(length: int) -> tuple[NDArray[np.float64], NDArray[np.intp], NDArray[np.float64]]:
    """For frames of ``length`` samples: the window, where each band starts among the
    FFT's bins, and each band's width in bins times the length."""
    freqs = np.fft.rfftfreq(length, 1.0 / SAMPLE_RATE)
    edges = np.searchsorted(freqs, EDGES_HZ)
    return np.hanning(length), edges[:-1], np.maximum(np.diff(edges), 1) * float(length)


def band_levels(pcm: NDArray[np.int16]) -> Levels:
    """The level (dB, as :func:`~voice_spades.voice.audio.vad.energy_db` measures a
    whole frame) of each band of one frame, windowed."""
    window, starts, scale = _layout(len(pcm))
    spectrum = np.abs(np.fft.rfft(pcm * window)) ** 2
    power = np.add.reduceat(spectrum, starts)  # (the last band runs to the top)
    return 10.0 * np.log10(power / scale + 1.0)


class EchoBands:
    """Counts, frame by frame, the bands where the player's voice stands out of what
    is left of the echo: well above the room's noise there, ``margin_db`` above the
    echo expected (what was played there, held over a decaying tail, plus the
    coupling measured while only echo was heard) and hardly lowered by the canceller.

    ``noise_margin_db``: how far above the room's noise a band must stand;
    ``lowered_db``: the most the canceller may have taken off it; ``decay_db``: how
    much the echo expected after a loud frame falls each 20 ms frame (50 dB a second,
    as :data:`~voice_spades.voice.audio.echo_gate.DECAY_DB_PER_SECOND`);
    ``percentile``: which of the echo-alone frames' levels, relative to what was
    played, the coupling is (a high one, so peaks count), over the last ``memory``
    frames once ``learn`` have been heard.
    """

    def __init__(self, *, margin_db: float = 6.0, noise_margin_db: float = 9.0,
                 lowered_db: float = 2.0, decay_db: float = 1.0,
                 percentile: float = 95.0, memory: int = 600, learn: int = 50) -> None:
        self.margin_db = margin_db
        self.noise_margin_db = noise_margin_db
        self.lowered_db = lowered_db
        self.percentile = percentile
        self._decay = decay_db
        self._learn = learn
        bands = len(EDGES_HZ) - 1
        self._held = np.full(bands, NOTHING)
        self.noise: Levels | None = None
        self.coupling: Levels | None = None
        self._excess: deque[Levels] = deque(maxlen=memory)
        self._since = 0
        self._clean = np.full(bands, NOTHING)

    def voice_bands(self, raw: NDArray[np.int16], cleaned: NDArray[np.int16],
                    played: NDArray[np.int16] | None) -> int:
        """How many bands of this frame sound like the player (0 while the coupling is
        still unknown)."""
        self._clean = clean_b = band_levels(cleaned)
        self._held -= self._decay
        if played is not None and np.any(played):
            np.maximum(band_levels(played), self._held, out=self._held)
        np.maximum(self._held, NOTHING, out=self._held)
        if self.noise is None:
            self.noise = clean_b.copy()
        if self.coupling is None:
            return 0
        lowered = band_levels(raw) - clean_b
        above = np.maximum(self.noise + self.noise_margin_db,
                           self._held + self.coupling + self.margin_db)
        voice = (clean_b >= above) & (lowered <= self.lowered_db) & (lowered >= -1.0)
        return int(np.count_nonzero(voice))

    def learn(self, echo_only: bool) -> None:
        """After :meth:`voice_bands`, for a frame that was not the player's: follow the
        room's noise (down at once, up slowly) and, on a frame of echo alone, the
        coupling."""
        clean_b = self._clean
        if self.noise is not None:
            rising = clean_b > self.noise
            self.noise = np.where(rising, self.noise + 0.005 * (clean_b - self.noise),
                                  self.noise + 0.5 * (clean_b - self.noise))
        if not echo_only:
            return
        self._excess.append(clean_b - self._held)
        self._since += 1
        if len(self._excess) >= self._learn and (self.coupling is None or self._since >= 10):
            self._since = 0
            self.coupling = np.percentile(np.array(self._excess), self.percentile, axis=0)
