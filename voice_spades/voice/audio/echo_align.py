"""Lining up what the game played with what the microphone heard.

Echo cancellation subtracts the game's own sound from the microphone's, so it must
know which played sample each recorded sample heard. Output and input are two
PortAudio streams on one clock (``Pa_GetStreamTime``: ``time.monotonic`` on Linux):
the output says when each block reaches the speakers (its DAC time), the input when
each block was recorded (its ADC time). Those times are close but not exact (driver
buffers, a virtual device that queues audio, converters), so the remaining delay is
measured from the sound itself and compensated:

* :class:`ReferenceTimeline` keeps the last seconds of what was played, at 16 kHz,
  placed by DAC time; the output's audio callback hands it blocks (cheaply: the
  resampling is done later, by the reader).
* :class:`DelayEstimator` compares a few seconds of the microphone with the timeline
  (a phase-transform cross-correlation, which peaks where the direct sound arrives)
  and reports the lag once two measures agree.

Everything here is computation on arrays: no audio device is needed.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

RATE = 16000
Floats = npt.NDArray[np.float32]

SILENT = 1e-4
"""A played block whose peak stays below this (-80 dBFS) is silence."""
GAP = 0.02
"""A block that starts this much later than the previous one ended leaves a gap of
silence (the output was idle or lost blocks)."""
RESTART = 1.0
"""A block that starts this much earlier than the previous one ended means the
output started again: the timeline is anchored anew. (Between blocks the timeline
counts samples: a device whose time jitters or drifts a little moves nothing.)"""


class OutputClock:
    """Follows an output's blocks by their DAC times: it counts frames, and says when a
    block comes so late after the last that the output sent nothing meanwhile (the
    speakers were silent that long) or so early that the output started again."""

    def __init__(self) -> None:
        self.anchor: float | None = None
        self.rate = 0
        self.frames = 0

    def advance(self, dac: float, rate: int, frames: int) -> int | None:
        """A block of ``frames`` at ``rate`` heard from ``dac``: the frames of silence
        that came before it, or None when the output started again (counting anew)."""
        expected = None if self.anchor is None or rate != self.rate \
            else self.anchor + self.frames / rate
        if expected is None or dac < expected - RESTART:
            self.anchor, self.rate, self.frames = dac, rate, frames
            return None
        missing = round((dac - expected) * rate) if dac > expected + GAP else 0
        self.frames += missing + frames
        return missing


class ReferenceTimeline:
    """What the game played, by the time it reached the loudspeakers, at 16 kHz.

    :meth:`add` is called from the output's audio callback (any rate, mono float32);
    :meth:`read` from the microphone's thread. Times are seconds on the streams' clock.
    """

    def __init__(self, keep_seconds: float = 8.0) -> None:
        self.keep = int(keep_seconds * RATE)
        self._lock = threading.Lock()
        self._inbox: deque[tuple[Floats, int, float]] = deque()
        self._buffer = np.zeros(self.keep, dtype=np.float32)
        self._written = 0
        """Samples (16 kHz) placed on the timeline since its anchor."""
        self._anchor: float | None = None
        """The time of timeline sample 0."""
        self._clock = OutputClock()
        self._resampler: object | None = None
        self.last_sound: float | None = None
        """The time the last audible played sample reached the speakers."""
        self.last_block: float | None = None
        """When the newest block handed over reaches the speakers."""

    # ----- the output's side -----------------------------------------------------
    def add(self, block: Floats, samplerate: int, dac_time: float) -> None:
        """A block sent to the loudspeakers, first frame heard at ``dac_time``
        (the audio callback calls this: it only queues the block)."""
        with self._lock:
            self._inbox.append((np.array(block, dtype=np.float32, copy=True),
                                int(samplerate), float(dac_time)))
            self.last_block = float(dac_time) + len(block) / max(1, samplerate)
            if len(self._inbox) > 4096:  # nobody reads: keep only the newest
                self._inbox.popleft()

    # ----- the microphone's side ---------------------------------------------------
    @property
    def anchor(self) -> float | None:
        """The time of the first sample kept (None before any block)."""
        self._drain()
        with self._lock:
            return self._anchor

    def read(self, start: float, count: int) -> Floats:
        """``count`` samples played from time ``start`` on (silence where nothing was)."""
        self._drain()
        out = np.zeros(count, dtype=np.float32)
        with self._lock:
            if self._anchor is None:
                return out
            first = round((start - self._anchor) * RATE)
            lo = max(first, self._written - self.keep, 0)
            hi = min(first + count, self._written)
            if hi <= lo:
                return out
            index = np.arange(lo, hi) % self.keep
            out[lo - first:hi - first] = self._buffer[index]
        return out

    def sounding(self, now: float, within: float) -> bool:
        """True if something audible was played less than ``within`` seconds before
        ``now`` (or is about to be)."""
        self._drain()
        return self.last_sound is not None and self.last_sound >= now - within

    def _drain(self) -> None:
        with self._lock:
            blocks = list(self._inbox)
            self._inbox.clear()
            for block, rate, dac in blocks:
                self._place(block, rate, dac)

    def _place(self, block: Floats, rate: int, dac: float) -> None:
        missing = self._clock.advance(dac, rate, len(block))
        if missing is None:
            self._start(rate, dac)
        elif missing:
            quiet = round(missing * RATE / rate)
            kept = min(quiet, self.keep)
            self._put(np.zeros(kept, dtype=np.float32), skip=quiet - kept)
        self._put(self._resample(block))
        if len(block) and float(np.max(np.abs(block))) >= SILENT:
            self.last_sound = dac + len(block) / rate

    def _start(self, rate: int, dac: float) -> None:
        self._anchor = dac
        self._written = 0
        self._buffer[:] = 0.0
        self._resampler = None
        if rate % RATE == 0 and rate > RATE:
            self._resampler = Decimator(rate // RATE)
        elif rate != RATE:
            import soxr

            # "QQ" holds nothing back: a filter that keeps the newest samples a few
            # milliseconds would leave the canceller without the reference it needs.
            self._resampler = soxr.ResampleStream(rate, RATE, 1, dtype="float32",
                                                  quality="QQ")

    def _resample(self, block: Floats) -> Floats:
        if self._resampler is None:
            return block
        if isinstance(self._resampler, Decimator):
            return self._resampler.feed(block)
        out = self._resampler.resample_chunk(block, last=False)  # type: ignore[attr-defined]
        return np.asarray(out, dtype=np.float32).reshape(-1)

    def _put(self, samples: Floats, skip: int = 0) -> None:
        if skip:
            self._written += skip
            self._buffer[:] = 0.0
        if len(samples) == 0:
            return
        index = np.arange(self._written, self._written + len(samples)) % self.keep
        self._buffer[index] = samples
        self._written += len(samples)


class Decimator:
    """Brings audio down by a whole factor (48 kHz to 16 kHz: 3) through a low-pass
    filter that holds nothing back: every input sample counts at once (the filter's
    half-millisecond delay is part of the delay measured)."""

    def __init__(self, factor: int, taps_per_phase: int = 16) -> None:
        self.factor = factor
        n = factor * taps_per_phase
        k = np.arange(n) - (n - 1) / 2
        cutoff = 0.45 / factor  # of the input rate: 7.2 kHz at 48 kHz
        taps = 2 * cutoff * np.sinc(2 * cutoff * k) * np.blackman(n)
        self._taps = (taps / taps.sum())[::-1].astype(np.float64)
        self._history = np.zeros(n - 1)
        self._phase = 0

    def feed(self, block: Floats) -> Floats:
        """The 16 kHz samples that ``block`` completes."""
        data = np.concatenate([self._history, np.asarray(block, dtype=np.float64)])
        n = len(self._taps)
        ends = np.arange(n - 1 + self._phase, len(data), self.factor)
        out = np.array([data[e - n + 1:e + 1] @ self._taps for e in ends])
        if len(ends):
            self._phase = int(ends[-1] + self.factor - len(data))
        else:
            self._phase -= len(block)
        self._history = data[len(data) - (n - 1):]
        return out.astype(np.float32)


MOVED = 0.02
"""Seconds by which a measure must differ from the accepted delay to count as a move."""


@dataclass(frozen=True, slots=True)
class DelayMeasure:
    """One delay measurement: the echo's lag behind the played sound, in seconds (the
    direct sound's arrival), and how clearly the correlation peaked (peak over the
    spread of the rest: above ~6 is a clear peak)."""

    lag: float
    clarity: float


class DelayEstimator:
    """Measures how late the microphone hears what the timeline says was played.

    Feed it every microphone frame with its time (:meth:`feed`); every ``every``
    seconds, when the last ``window`` seconds held both played sound and recorded
    sound, it correlates them over lags from ``min_lag`` to ``max_lag``. A lag is
    accepted (:attr:`delay`) once two measures in a row agree within ``agree``.
    """

    def __init__(self, window: float = 2.0, every: float = 1.0, min_lag: float = -1.5,
                 max_lag: float = 1.5, agree: float = 0.003,
                 min_clarity: float = 6.0) -> None:
        self.window = window
        self.every = every
        self.min_lag = min_lag
        self.max_lag = max_lag
        self.agree = agree
        self.min_clarity = min_clarity
        self._mic: deque[Floats] = deque(maxlen=max(1, int(window * RATE / 320) + 1))
        self._mic_end: float | None = None
        self._since = 0.0
        self._last: DelayMeasure | None = None
        self.delay: float | None = None
        """The accepted lag in seconds (None until two measures agreed)."""
        self.measures: list[DelayMeasure] = []
        """Every measure taken (for benchmarks and tests)."""

    def feed(self, frame: Floats, start: float, timeline: ReferenceTimeline) -> bool:
        """Take one microphone frame recorded from ``start``; True when the accepted
        delay changed."""
        self._mic.append(frame)
        self._mic_end = start + len(frame) / RATE
        self._since += len(frame) / RATE
        if self._since < self.every:
            return False
        mic = np.concatenate(self._mic)
        if len(mic) < int(self.window * RATE * 0.9):
            return False
        self._since = 0.0
        measure = self.measure(mic, self._mic_end - len(mic) / RATE, timeline)
        if measure is None:
            return False
        self.measures.append(measure)
        if self.delay is not None and abs(measure.lag - self.delay) > MOVED \
                and measure.clarity < 2 * self.min_clarity:
            return False  # moving an accepted delay far takes a clear peak
        previous, self._last = self._last, measure
        if previous is None or abs(previous.lag - measure.lag) > self.agree:
            return False
        lag = (previous.lag + measure.lag) / 2
        if self.delay is not None and abs(lag - self.delay) <= self.agree / 2:
            return False
        self.delay = lag
        return True

    def measure(self, mic: Floats, start: float,
                timeline: ReferenceTimeline) -> DelayMeasure | None:
        """The lag of ``mic`` (recorded from ``start``) behind the timeline, or None when
        either side is too quiet or the correlation has no clear peak."""
        span = round((self.max_lag - self.min_lag) * RATE)
        ref = timeline.read(start - self.max_lag, len(mic) + span)
        if _rms(ref) < 1e-4 or _rms(mic) < 1e-5:
            return None
        lags = gcc_phat(mic, ref, span)
        peak = int(np.argmax(lags))
        spread = float(np.std(lags)) or 1e-12
        clarity = float(lags[peak] - float(np.median(lags))) / spread
        if clarity < self.min_clarity:
            return None
        return DelayMeasure(self.max_lag - peak / RATE, clarity)


def gcc_phat(mic: Floats, ref: Floats, span: int) -> npt.NDArray[np.float64]:
    """Phase-transform cross-correlation: entry ``m`` (0..``span``) scores ``mic``
    against ``ref[m:m + len(mic)]``; speech band only (200 Hz to 4 kHz)."""
    n = 1 << int(np.ceil(np.log2(len(ref) + len(mic))))
    a = np.fft.rfft(mic.astype(np.float64), n)
    b = np.fft.rfft(ref.astype(np.float64), n)
    cross = np.conj(a) * b
    cross /= np.abs(cross) + 1e-12
    freqs = np.fft.rfftfreq(n, 1.0 / RATE)
    cross[(freqs < 200) | (freqs > 4000)] = 0.0
    corr = np.fft.irfft(cross, n)
    return np.asarray(corr[:span + 1], dtype=np.float64)


def _rms(x: Floats) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if len(x) else 0.0
