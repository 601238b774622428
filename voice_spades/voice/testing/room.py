"""A simulated room: the narrator on loudspeakers and a player, heard by one microphone.

The room bench (``voice-spades bench voice --room``) needs what a microphone on a
table would record while the game talks: the narration as it leaves the
loudspeakers, reflected by the room (an image-source impulse response from
pyroomacoustics, for a small, a medium and a large room), delayed and attenuated,
plus the player's command (through the same room, from where the player sits) at a
chosen loudness against the echo, plus background noise.

:class:`RoomLoop` does that as a stream, block by block: it is handed what the
game's output plays (the output's reference tap) and returns what the microphone
hears, with the player's clips scheduled at given times. Offline functions
(:func:`render_echo`, :func:`active_rms`) serve the tests.

Arrays in, arrays out: no audio device here.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from voice_spades.voice.audio.echo_align import Decimator, OutputClock

RATE = 16000
Floats = npt.NDArray[np.float32]

ECHO_DBFS = -30.0
"""How loud the narrator's echo is at the microphone (RMS of its speech, dBFS): a
laptop's speakers at a comfortable level, a hand's width from its microphone."""
NOISES = {"quiet": ("white", 0.0005), "fan": ("white", 0.01), "rumble": ("brown", 0.03)}
"""Background noises by name: colour and peak level (fraction of full scale)."""
LEAK = 0.999
"""Brown noise's integrator keeps this much of its value per sample."""


@dataclass(frozen=True, slots=True)
class Room:
    """A shoebox room: size (m), reverberation time (s), where the loudspeaker, the
    microphone and the player are (m)."""

    name: str
    size: tuple[float, float, float]
    rt60: float
    speaker: tuple[float, float, float]
    microphone: tuple[float, float, float]
    player: tuple[float, float, float]


ROOMS = {
    "small": Room("small", (3.0, 3.0, 2.5), 0.25, (1.0, 1.0, 1.0), (1.3, 1.1, 0.9),
                  (1.8, 1.6, 1.2)),
    "medium": Room("medium", (5.0, 4.0, 2.7), 0.45, (2.0, 2.0, 1.0), (2.3, 2.1, 0.9),
                   (2.9, 2.7, 1.2)),
    "large": Room("large", (8.0, 6.0, 3.0), 0.8, (3.0, 3.0, 1.0), (3.3, 3.1, 0.9),
                  (4.0, 3.7, 1.2)),
}
"""The rooms of the bench: a study, a living room, a big hall."""


@cache
def impulse_responses(name: str) -> tuple[Floats, Floats]:
    """The room's impulse responses from the loudspeaker and from the player to the
    microphone, each of unit energy, cut where their tail has decayed by 50 dB."""
    import pyroomacoustics as pra  # type: ignore[import-untyped]

    room = ROOMS[name]
    absorption, order = pra.inverse_sabine(room.rt60, list(room.size))
    responses = []
    for source in (room.speaker, room.player):
        shoebox = pra.ShoeBox(list(room.size), fs=RATE, materials=pra.Material(absorption),
                              max_order=order)
        shoebox.add_source(list(source))
        shoebox.add_microphone(list(room.microphone))
        shoebox.compute_rir()
        responses.append(_trim(np.asarray(shoebox.rir[0][0], dtype=np.float64)))
    return responses[0], responses[1]


def convolve(x: npt.NDArray[Any], h: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """The full linear convolution of ``x`` and ``h`` (through the FFT)."""
    size = len(x) + len(h) - 1
    if size <= 0:
        return np.zeros(0)
    n = 1 << int(np.ceil(np.log2(size)))
    out = np.fft.irfft(np.fft.rfft(x, n) * np.fft.rfft(h, n), n)[:size]
    return np.asarray(out, dtype=np.float64)


def _trim(rir: npt.NDArray[np.float64], drop_db: float = 50.0) -> Floats:
    energy = np.cumsum(rir[::-1] ** 2)[::-1]  # energy still to come (Schroeder)
    keep = int(np.searchsorted(-energy, -energy[0] * 10 ** (-drop_db / 10)))
    cut = rir[:max(keep, 1)]
    return _f32(cut / np.sqrt(np.sum(cut ** 2)))


def active_rms(x: Floats, frame: int = 320) -> float:
    """The RMS of the frames within 30 dB of the loudest: the level of the speech in a
    clip, not of its pauses."""
    count = len(x) // frame
    if count == 0:
        return 0.0
    power = np.mean(np.square(x[:count * frame].reshape(count, frame), dtype=np.float64),
                    axis=1)
    loud = power[power >= power.max() * 1e-3]
    return float(np.sqrt(loud.mean())) if len(loud) else 0.0


def speech_span(x: Floats, frame: int = 320) -> tuple[float, float]:
    """Where the speech of a clip starts and ends, in seconds (frames within 35 dB of
    the loudest)."""
    count = len(x) // frame
    if count == 0:
        return 0.0, 0.0
    power = np.mean(np.square(x[:count * frame].reshape(count, frame), dtype=np.float64),
                    axis=1)
    loud = np.nonzero(power >= power.max() * 10 ** -3.5)[0]
    return loud[0] * frame / RATE, (loud[-1] + 1) * frame / RATE


def gain_for(x: Floats, dbfs: float) -> float:
    """The gain that brings the speech of ``x`` to ``dbfs`` RMS."""
    level = active_rms(x)
    return 10 ** (dbfs / 20) / level if level > 0 else 0.0


def render_echo(narration: Floats, room: str, delay: float = 0.0,
                dbfs: float = ECHO_DBFS) -> Floats:
    """The narration as the microphone hears it (whole clip, offline)."""
    echo = convolve(narration, impulse_responses(room)[0])[:len(narration)]
    shift = round(delay * RATE)
    placed = _f32(np.concatenate([np.zeros(shift), echo])[:len(narration)])
    return _f32(placed * gain_for(placed, dbfs))


class StreamingConvolver:
    """Convolves a stream with a long impulse response, block by block, in real time:
    uniformly partitioned overlap-save (the response cut into ``block``-sample parts,
    each applied in the frequency domain to the spectra of the last inputs). Output
    lags input by ``block`` samples at most; each call returns as many samples as it
    was given."""

    def __init__(self, response: Floats, block: int = 160) -> None:
        self.block = block
        parts = -(-len(response) // block)
        padded = np.zeros(parts * block)
        padded[:len(response)] = response
        pieces = padded.reshape(parts, block)
        self._filters = np.fft.rfft(np.concatenate([pieces, np.zeros_like(pieces)], axis=1),
                                    axis=1)
        self._spectra = np.zeros_like(self._filters)
        self._previous = np.zeros(block)
        self._pending = np.zeros(0)
        self._ready = np.zeros(block)

    def feed(self, samples: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        """The next ``len(samples)`` samples of the convolution."""
        data = np.concatenate([self._pending, np.asarray(samples, dtype=np.float64)])
        out = [self._ready]
        b = self.block
        whole = len(data) // b * b
        for start in range(0, whole, b):
            chunk = data[start:start + b]
            self._spectra = np.roll(self._spectra, 1, axis=0)
            self._spectra[0] = np.fft.rfft(np.concatenate([self._previous, chunk]))
            self._previous = chunk
            mixed = np.einsum("kf,kf->f", self._spectra, self._filters)
            out.append(np.fft.irfft(mixed, 2 * b)[b:])
        self._pending = data[whole:]
        flat = np.concatenate(out)
        n = len(samples)
        self._ready = flat[n:]
        return np.asarray(flat[:n], dtype=np.float64)


class Noise:
    """Endless background noise of one of :data:`NOISES`, block by block."""

    def __init__(self, name: str, seed: int) -> None:
        self.color, self.level = NOISES[name]
        self._rng = np.random.default_rng(seed)
        self._state = 0.0
        # Brown noise: a leaky integrator of white steps (its standard deviation is
        # about 12.9 steps), scaled so that its peaks come near the level.
        self._scale = self.level / (3.5 * 12.9)

    def block(self, count: int) -> Floats:
        """The next ``count`` samples."""
        if count <= 0:
            return np.zeros(0, dtype=np.float32)
        if self.color == "white":
            return _f32(self._rng.uniform(-self.level, self.level, count))
        steps = self._rng.uniform(-1.0, 1.0, count)
        powers = LEAK ** np.arange(1, count + 1)
        out = powers * self._state + powers * np.cumsum(steps / powers)
        self._state = float(out[-1])
        return _f32(out * self._scale)


@dataclass(slots=True)
class Scheduled:
    """A clip the player says, from ``at`` (the output clock's time)."""

    samples: Floats
    at: float
    position: int = 0
    written_start: float | None = None
    """When its first sample went to the microphone (wall clock), once it has."""
    written_end: float | None = None
    """When its last sample did."""


class RoomLoop:
    """Streams what the microphone hears, from what the output plays (see the module doc).

    :meth:`add_reference` takes the output's blocks (any rate, with their DAC time);
    :meth:`next_block` returns the microphone's next block (16 kHz int16 bytes) for the
    oldest block not yet used, or None when none is waiting. ``echo_gain`` scales the
    echo (unit-energy impulse response); :meth:`say` schedules the player's clip,
    already scaled.
    """

    def __init__(self, room: str, echo_gain: float, noise: str = "quiet",
                 seed: int = 1, extra_delay: float = 0.0) -> None:
        self.echo_rir, self.player_rir = impulse_responses(room)
        self.echo_gain = echo_gain
        self.noise = Noise(noise, seed)
        self.extra_delay = extra_delay
        self._queue: deque[tuple[Floats, int, float]] = deque()
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._lock_work = threading.Lock()
        self._output = OutputClock()
        self._resampler: Any = None
        self._rate = 0
        self._echo = StreamingConvolver(self._delayed(self.echo_rir))
        self._clips: list[Scheduled] = []
        self._clock: float | None = None

    # ----- configuration (any thread) ------------------------------------------------
    def set_room(self, room: str, echo_gain: float, noise: str, seed: int) -> None:
        """Move to another room (the echo still ringing is dropped)."""
        with self._lock_work:
            self.echo_rir, self.player_rir = impulse_responses(room)
            self.echo_gain = echo_gain
            self.noise = Noise(noise, seed)
            self._echo = StreamingConvolver(self._delayed(self.echo_rir))

    def say(self, samples: Floats, at: float) -> Scheduled:
        """The player says ``samples`` (16 kHz, dry) from time ``at``, through the room."""
        wet = convolve(samples, self.player_rir)[:len(samples)].astype(np.float32)
        clip = Scheduled(wet, at)
        with self._lock_work:
            self._clips.append(clip)
        return clip

    # ----- the stream ---------------------------------------------------------------
    def add_reference(self, block: Floats, samplerate: int, dac_time: float) -> None:
        """The output's reference listener (called from its audio callback)."""
        with self._ready:
            self._queue.append((np.array(block, dtype=np.float32), samplerate, dac_time))
            self._ready.notify_all()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for an output block; True when one waits."""
        with self._ready:
            return bool(self._queue) or self._ready.wait_for(lambda: bool(self._queue),
                                                             timeout)

    def next_block(self, timeout: float = 0.5,
                   now: float | None = None) -> bytes | None:
        """What the microphone hears next: for every output block waiting (at least
        one; None if none came within ``timeout`` seconds). ``now`` (default: the
        monotonic clock) stamps the clips' written times. Taking all that waits keeps
        up with real time on a busy machine."""
        import time

        with self._ready:
            if not self._queue and not self._ready.wait_for(lambda: bool(self._queue),
                                                            timeout):
                return None
            blocks = list(self._queue)
            self._queue.clear()
        with self._lock_work:
            parts = []
            for block, rate, dac in blocks:
                parts += self._gap(dac, rate, len(block))
                parts.append(self._resample(block, rate))
            played = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
            out = self._echo.feed(played) * self.echo_gain
            out += self.noise.block(len(out))
            stamp = time.monotonic() if now is None else now
            self._mix_clips(out, blocks[0][2], stamp)
        return np.clip(np.round(out * 32767.0), -32768, 32767).astype("<i2").tobytes()

    def _gap(self, dac: float, rate: int, frames: int) -> list[Floats]:
        """Silence for the time the output sent nothing (it stalled; the canceller's
        timeline counts it the same way), so the air carries what the speakers did."""
        missing = self._output.advance(dac, rate, frames)
        if not missing:
            return []
        return [np.zeros(min(round(missing * RATE / rate), 5 * RATE), dtype=np.float32)]

    def _resample(self, block: Floats, rate: int) -> Floats:
        if rate == RATE:
            return block
        if self._resampler is None or rate != self._rate:
            self._rate = rate
            if rate % RATE == 0:
                self._resampler = Decimator(rate // RATE)
            else:
                import soxr

                self._resampler = soxr.ResampleStream(rate, RATE, 1, dtype="float32",
                                                      quality="QQ")
        if isinstance(self._resampler, Decimator):
            return self._resampler.feed(block)
        out = self._resampler.resample_chunk(block, last=False)
        return np.asarray(out, dtype=np.float32).reshape(-1)

    def _delayed(self, rir: Floats) -> Floats:
        return _f32(np.concatenate([np.zeros(round(self.extra_delay * RATE)), rir]))

    def _mix_clips(self, out: npt.NDArray[np.float64], dac: float, stamp: float) -> None:
        n = len(out)
        for clip in self._clips:
            first = 0
            if clip.position == 0:
                start = round((clip.at - dac) * RATE)
                if start >= n:
                    continue
                first = max(start, 0)
            take = min(n - first, len(clip.samples) - clip.position)
            out[first:first + take] += clip.samples[clip.position:clip.position + take]
            if clip.position == 0:
                clip.written_start = stamp + first / RATE
            clip.position += take
            if clip.position >= len(clip.samples):
                clip.written_end = stamp + (first + take) / RATE
        self._clips = [c for c in self._clips if c.position < len(c.samples)]


def _f32(x: npt.ArrayLike) -> Floats:
    return np.asarray(x, dtype=np.float32)
