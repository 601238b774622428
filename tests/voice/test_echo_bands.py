"""The band-by-band judge of the echo gate: a voice under a louder echo found in the
bands where it is the louder, and echo alone never taken for a voice."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from voice_spades.voice.audio.echo_bands import EDGES_HZ, EchoBands, band_levels
from voice_spades.voice.audio.echo_gate import EchoGate

FRAME = 320
RATE = 16000


def tone(hz: float, amplitude: float, start: int = 0) -> NDArray[np.float64]:
    t = (np.arange(FRAME) + start) / RATE
    return amplitude * np.sin(2 * np.pi * hz * t)


def band_noise(rng: np.random.Generator, low: float, high: float,
               rms: float) -> NDArray[np.float64]:
    spectrum = np.fft.rfft(rng.standard_normal(FRAME * 4))
    freqs = np.fft.rfftfreq(FRAME * 4, 1.0 / RATE)
    spectrum[(freqs < low) | (freqs > high)] = 0
    x = np.fft.irfft(spectrum)[:FRAME]
    return x * rms / float(np.sqrt(np.mean(x ** 2)))


def pcm(x: NDArray[np.float64]) -> NDArray[np.int16]:
    return np.clip(np.round(x), -32768, 32767).astype(np.int16)


def level(x: NDArray[np.float64]) -> float:
    return float(10 * np.log10(np.mean(x.astype(np.float64) ** 2) + 1.0))


def test_a_tone_lands_in_its_own_band() -> None:
    levels = band_levels(pcm(tone(1100.0, 3000.0)))
    assert len(levels) == len(EDGES_HZ) - 1
    assert int(np.argmax(levels)) == EDGES_HZ.index(1000)
    assert levels.max() - np.median(levels) > 30


class Room:
    """Narration (low-band noise in syllables of 160 ms and pauses of 80 ms) played,
    heard back 6 dB louder than a voice (high-band noise); the canceller takes 20 dB of
    the echo off and leaves a voice whole."""

    def __init__(self, seed: int = 1, voice_rms: float = 750.0) -> None:
        self.rng = np.random.default_rng(seed)
        self.count = 0
        self.voice_rms = voice_rms

    def frame(self, voice: bool, echo: bool = True
              ) -> tuple[float, float | None, float, tuple[NDArray[np.int16], ...]]:
        self.count += 1
        loudness = 3000.0 if self.count % 12 < 8 else 300.0
        played = band_noise(self.rng, 150, 1500, loudness) if echo else np.zeros(FRAME)
        heard = played * 0.5
        said = band_noise(self.rng, 2000, 6000, self.voice_rms) if voice else np.zeros(FRAME)
        noise = self.rng.standard_normal(FRAME) * 3.0
        raw = heard + said + noise
        cleaned = heard * 0.1 + said + noise
        return (level(cleaned), level(played) if echo else None, level(raw),
                (pcm(raw), pcm(cleaned), pcm(played) if echo else None))


def test_echo_alone_sounds_like_no_band_and_a_voice_under_it_like_several() -> None:
    room = Room()
    bands = EchoBands()
    for _ in range(120):
        _, _, _, spectra = room.frame(voice=False)
        assert bands.voice_bands(*spectra) == 0 or bands.coupling is None
        bands.learn(echo_only=True)
    assert bands.coupling is not None
    echo_only = [bands.voice_bands(*room.frame(voice=False)[3]) for _ in range(50)]
    assert max(echo_only) <= 1
    with_voice = [bands.voice_bands(*room.frame(voice=True)[3]) for _ in range(10)]
    assert min(with_voice) >= 4


def feed_gate(gate: EchoGate, room: Room) -> list[bool]:
    onsets = []
    for number in range(300):
        voice = 200 <= number < 240
        cleaned_db, played_db, raw_db, spectra = room.frame(voice)
        onsets.append(gate.feed(cleaned_db, played_db, raw_db, spectra))  # type: ignore[arg-type]
    return onsets


def test_the_gate_hears_a_voice_under_louder_echo_only_band_by_band() -> None:
    gate = EchoGate(band_count=3)
    by_bands = feed_gate(gate, Room())
    assert by_bands.index(True) in range(200, 206)
    assert not any(by_bands[:200])
    assert gate.from_bands, "the onset came from the bands alone"
    by_level = feed_gate(EchoGate(band_count=0), Room())
    assert not any(by_level), "the whole frame's level alone should miss it"


def test_a_voice_louder_than_the_echo_is_an_onset_of_the_whole_level() -> None:
    gate = EchoGate(band_count=3)
    onsets = feed_gate(gate, Room(voice_rms=6000.0))
    assert onsets.index(True) in range(200, 206)
    assert not gate.from_bands, "the whole level heard it too: the usual pre-roll"
