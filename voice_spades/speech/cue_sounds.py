"""The sound cues, synthesized with numpy when the game starts (no files to ship).

Each cue is mono float32 at :data:`RATE`, under 300 ms, and told apart by ear by its
pitch and shape:

========== ==========================================================================
cue        sound
========== ==========================================================================
your turn  two quick high pings on one note (D6), a doorbell's "ding-ding"
card       a short dry flick of noise with a low thump (60 ms)
trick      a swish of noise sweeping up, then a plucked open fifth (G4 + D5)
spades     a low buzzing crack gliding down from 420 to 110 Hz
nil broken glass: bright inharmonic partials struck twice, quickly dying
made       two warm notes rising a major third (C5 to E5)
set        two hollow, wobbling notes falling a major third (E4 to C4)
match won  a bright four-note arpeggio up to C6, the last one ringing
match lost three slow notes sliding down by semitones (G4, F#4, F4), with vibrato
========== ==========================================================================

:func:`make_cues` scales every cue to one level: its peak :data:`PEAK_BELOW_SPEECH` dB
under the quietest peak of the narrator's sentences and its loudness (RMS while it
sounds) no higher than the speech's (:data:`SPEECH_PEAK_DBFS`, :data:`SPEECH_RMS_DBFS`,
measured from espeak-ng through pyttsx3; ``tests/speech/test_cue_sounds.py`` measures
them again), then by the player's volume. ``make_cues(across=True)`` makes each cue as
heard from across the table (:func:`from_across`), for the seat that shares the centre
with the player (the partner at four).
"""

from __future__ import annotations

from enum import Enum

import numpy as np
import numpy.typing as npt

Samples = npt.NDArray[np.float32]

RATE = 48_000
MAX_SECONDS = 0.3
SPEECH_PEAK_DBFS = -5.0
"""At or under the quietest peak of espeak-ng sentences as pyttsx3 writes them (game
sentences at 200 and 400 words a minute peak between -1.3 and -4.8 dBFS)."""
SPEECH_RMS_DBFS = -20.0
"""The loudness of espeak-ng speech while it sounds (measured -19.5 to -21.8 dBFS)."""
PEAK_BELOW_SPEECH = 3.0
"""dB a cue's peak stays under :data:`SPEECH_PEAK_DBFS` at full volume."""
ACROSS_CUTOFF = 1000.0
"""Hz above which a cue from across the table is muffled (12 dB an octave, as a far
sound loses its brightness)."""
ACROSS_ECHO = (0.04, 0.5)
"""Seconds after and level of the echo a cue from across the table has: 40 ms is past
the 5-10 ms within which a click and its echo fuse into one, so the cue is heard as a
double tap, "over there", where the player's own is one dry tap."""


class Cue(Enum):
    """What a sound cue tells."""

    YOUR_TURN = "your_turn"
    CARD = "card"
    TRICK = "trick"
    SPADES_BROKEN = "spades_broken"
    NIL_BROKEN = "nil_broken"
    CONTRACT_MADE = "contract_made"
    CONTRACT_SET = "contract_set"
    MATCH_WON = "match_won"
    MATCH_LOST = "match_lost"


def _time(seconds: float) -> npt.NDArray[np.float64]:
    return np.arange(int(seconds * RATE)) / RATE


def _decay(seconds: float, tau: float, attack: float = 0.003) -> npt.NDArray[np.float64]:
    """An envelope: a short linear attack, then an exponential decay of time constant tau."""
    t = _time(seconds)
    env = np.exp(-t / tau)
    rise = max(1, int(attack * RATE))
    env[:rise] *= np.linspace(0.0, 1.0, rise)
    fade = min(len(env), int(0.005 * RATE))  # no click at the end
    env[len(env) - fade:] *= np.linspace(1.0, 0.0, fade)
    return env


def _partials(freq: float | npt.NDArray[np.float64], seconds: float,
              weights: dict[float, float]) -> npt.NDArray[np.float64]:
    """A sum of partials (ratio -> weight) of a frequency that may glide over time."""
    freqs = np.broadcast_to(np.asarray(freq, dtype=np.float64), _time(seconds).shape)
    phase = 2 * np.pi * np.cumsum(freqs) / RATE
    return sum((w * np.sin(r * phase) for r, w in weights.items()),
               start=np.zeros(len(freqs)))


def _noise(seconds: float, low: float, high: float, seed: int) -> npt.NDArray[np.float64]:
    """Band-limited noise (a fixed seed: every start sounds the same)."""
    n = int(seconds * RATE)
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    freqs = np.fft.rfftfreq(n, 1 / RATE)
    spectrum[(freqs < low) | (freqs > high)] = 0
    out = np.fft.irfft(spectrum, n)
    return np.asarray(out / (np.abs(out).max() or 1.0), dtype=np.float64)


def _at(parts: list[tuple[float, npt.NDArray[np.float64]]],
        seconds: float) -> npt.NDArray[np.float64]:
    """Sounds placed at start times (seconds) in a clip of ``seconds``."""
    out = np.zeros(int(seconds * RATE))
    for start, sound in parts:
        i = int(start * RATE)
        n = min(len(sound), len(out) - i)
        out[i:i + n] += sound[:n]
    return out


BELL = {1.0: 1.0, 2.76: 0.3, 5.4: 0.1}
WARM = {1.0: 1.0, 3.0: 1 / 9, 5.0: 1 / 25}
HOLLOW = {1.0: 1.0, 3.0: 1 / 3, 5.0: 1 / 5, 7.0: 1 / 7}
BUZZ = {float(k): 1 / k for k in range(1, 8)}


def _your_turn() -> npt.NDArray[np.float64]:
    ping = _partials(1174.7, 0.09, BELL) * _decay(0.09, 0.03)
    return _at([(0.0, ping), (0.11, ping)], 0.2)


def _card() -> npt.NDArray[np.float64]:
    flick = _noise(0.035, 2500, 7000, seed=1) * _decay(0.035, 0.008, attack=0.001)
    thump = _partials(180.0, 0.06, {1.0: 1.0}) * _decay(0.06, 0.015, attack=0.001)
    return _at([(0.0, flick), (0.0, 0.6 * thump)], 0.06)


def _trick() -> npt.NDArray[np.float64]:
    t = _time(0.09)
    swish = _noise(0.09, 800, 6000, seed=2) * np.sin(np.pi * t / 0.09) ** 2
    pluck = (_partials(392.0, 0.15, WARM) + _partials(587.3, 0.15, WARM)) * _decay(0.15, 0.05)
    return _at([(0.0, 0.5 * swish), (0.08, 0.6 * pluck)], 0.23)


def _spades_broken() -> npt.NDArray[np.float64]:
    seconds = 0.22
    glide = 420.0 * (110.0 / 420.0) ** (_time(seconds) / seconds)
    crack = _noise(0.02, 300, 4000, seed=3) * _decay(0.02, 0.006, attack=0.0005)
    return _at([(0.0, _partials(glide, seconds, BUZZ) * _decay(seconds, 0.09)),
                (0.0, 0.8 * crack)], seconds)


def _nil_broken() -> npt.NDArray[np.float64]:
    shards = {1.0: 1.0, 1.57: 0.8, 2.23: 0.6, 2.96: 0.45}
    hit = _partials(2100.0, 0.16, shards) * _decay(0.16, 0.035, attack=0.0005)
    second = _partials(2600.0, 0.12, shards) * _decay(0.12, 0.025, attack=0.0005)
    return _at([(0.0, hit), (0.07, 0.7 * second)], 0.25)


def _two_notes(low: float, high: float, timbre: dict[float, float],
               first: float, second: float) -> npt.NDArray[np.float64]:
    a = _partials(low, first, timbre) * _decay(first, first / 2)
    b = _partials(high, second, timbre) * _decay(second, second / 2.5)
    return _at([(0.0, a), (first, b)], first + second)


def _contract_made() -> npt.NDArray[np.float64]:
    return _two_notes(523.3, 659.3, WARM, 0.1, 0.16)


def _contract_set() -> npt.NDArray[np.float64]:
    notes = _two_notes(329.6, 261.6, HOLLOW, 0.12, 0.16)
    wobble = 1.0 - 0.35 * (0.5 + 0.5 * np.sin(2 * np.pi * 18.0 * _time(0.28)))
    return notes * wobble


def _match_won() -> npt.NDArray[np.float64]:
    notes = [523.3, 659.3, 784.0, 1046.5]
    parts = [(0.055 * i, _partials(f, 0.065 if i < 3 else 0.125, BELL)
              * _decay(0.065 if i < 3 else 0.125, 0.05 if i < 3 else 0.06))
             for i, f in enumerate(notes)]
    return _at(parts, 0.29)


def _match_lost() -> npt.NDArray[np.float64]:
    parts = []
    for i, f in enumerate((392.0, 370.0, 349.2)):
        t = _time(0.1)
        vibrato = f * (1 + 0.012 * np.sin(2 * np.pi * 7.0 * t))
        parts.append((0.095 * i, _partials(vibrato, 0.1, BUZZ) * _decay(0.1, 0.06, 0.01)))
    return _at(parts, 0.29)


_MAKERS = {
    Cue.YOUR_TURN: _your_turn, Cue.CARD: _card, Cue.TRICK: _trick,
    Cue.SPADES_BROKEN: _spades_broken, Cue.NIL_BROKEN: _nil_broken,
    Cue.CONTRACT_MADE: _contract_made, Cue.CONTRACT_SET: _contract_set,
    Cue.MATCH_WON: _match_won, Cue.MATCH_LOST: _match_lost,
}


def from_across(sound: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``sound`` as heard from across the table: muffled above :data:`ACROSS_CUTOFF`
    (two one-pole low-passes, causal: nothing sounds before the cue's start) and
    followed by an echo (:data:`ACROSS_ECHO`); it lasts that much longer."""
    delay, echo = ACROSS_ECHO
    lag = int(delay * RATE)
    n = len(sound) + lag
    spectrum = np.fft.rfft(sound, 2 * n)  # padded: the filter does not wrap around
    freqs = np.fft.rfftfreq(2 * n, 1 / RATE)
    muffled = np.fft.irfft(spectrum / (1 + 1j * freqs / ACROSS_CUTOFF) ** 2, 2 * n)[:n]
    out = muffled.copy()
    out[lag:] += echo * muffled[:n - lag]
    return out


def db(value: float) -> float:
    """A level as a ratio (of full scale) from dB."""
    return float(10 ** (value / 20))


def level(samples: npt.NDArray[np.floating]) -> tuple[float, float]:
    """Peak and loudness (RMS where the sound is within 40 dB of its peak), in dBFS."""
    x = np.abs(np.asarray(samples, dtype=np.float64))
    peak = float(x.max(initial=0.0))
    if peak == 0.0:
        return -np.inf, -np.inf
    sounding = x[x > peak * 0.01]
    return 20 * float(np.log10(peak)), 10 * float(np.log10(np.mean(sounding ** 2)))


def volume_gain(volume: int) -> float:
    """The gain for a volume of 0-100 (a square law: 50 is about 12 dB down)."""
    v = max(0, min(100, int(volume))) / 100
    return v * v


def make_cues(volume: int = 100, *, across: bool = False) -> dict[Cue, Samples]:
    """Every cue at :data:`RATE`, scaled to the speech's level and then by ``volume``;
    ``across``: as heard from across the table (:func:`from_across`), as loud."""
    peak_limit = db(SPEECH_PEAK_DBFS - PEAK_BELOW_SPEECH)
    rms_limit = db(SPEECH_RMS_DBFS)
    cues = {}
    for cue, make in _MAKERS.items():
        raw = from_across(make()) if across else make()
        peak, loud = level(raw)
        gain = min(peak_limit / db(peak), rms_limit / db(loud)) * volume_gain(volume)
        cues[cue] = (raw * gain).astype(np.float32)
    return cues
