"""The early end's pause in a reverberant room: after the last word the room rings on
above the quiet bar for a few hundred ms, and a frame far under the utterance's
loudest counts as a pause for the early end (the hangover still waits for quiet)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from tests.voice.synthetic import mix, noise, silence, voice
from voice_spades.voice.audio.vad import (
    SAMPLE_RATE,
    VadSettings,
    VoiceActivityDetector,
    energy_db,
)

FLOOR_RMS = 30.0
"""The room's own noise (about 30 dB)."""


def ringing(seconds: float, start_rms: float, rt60: float, seed: int = 3) -> bytes:
    """A reverberant tail: noise falling 60 dB every ``rt60`` seconds."""
    t = np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, start_rms, len(t)) * 10 ** (-3 * t / rt60)
    return np.clip(x, -32768, 32767).astype("<i2").tobytes()


def in_room(*parts: bytes) -> bytes:
    """``parts`` one after the other, over the room's noise."""
    pcm = b"".join(parts)
    return mix(pcm, noise(len(pcm) / 2 / SAMPLE_RATE, FLOOR_RMS))


def offered_after(settings: VadSettings, pcm: bytes) -> list[float]:
    """When (seconds from the start) the detector offered its pauses."""
    vad = VoiceActivityDetector(settings)
    at: list[float] = []
    fed = 0
    frame = settings.frame_bytes

    def note(_: bytes, __: int) -> None:
        at.append(fed / 2 / SAMPLE_RATE)

    vad.on_pause = note
    for start in range(0, len(pcm), frame):
        fed = start + frame
        vad.feed(pcm[start:start + frame])
    return at


def test_the_tail_of_a_large_room_counts_as_a_pause_for_the_early_end() -> None:
    word_end = 0.5 + 0.6
    audio = in_room(silence(0.5), voice(0.6), ringing(0.8, 1500.0, 0.8), silence(1.0))
    tail = np.frombuffer(audio, dtype="<i2")[round(word_end * SAMPLE_RATE):]
    frame = VadSettings().frame_bytes // 2
    levels = [energy_db(tail[i:i + frame].tobytes()) for i in range(0, len(tail), frame)]
    assert levels[10] > energy_db(noise(0.02, FLOOR_RMS)) + 10  # it rings 200 ms on
    s = VadSettings()
    by_peak = offered_after(s, audio)
    by_quiet = offered_after(replace(s, pause_below_peak_db=0.0), audio)
    assert len(by_peak) == 1 and len(by_quiet) == 1
    assert by_peak[0] - word_end < 0.35
    assert by_quiet[0] - by_peak[0] > 0.15


def test_the_pause_so_counted_ends_the_utterance_early_but_the_hangover_waits_for_quiet(
        ) -> None:
    audio = in_room(silence(0.5), voice(0.6), ringing(0.8, 1500.0, 0.8), silence(1.0))
    s = VadSettings()
    vad = VoiceActivityDetector(s)
    offered: list[tuple[bytes, int]] = []
    vad.on_pause = lambda pcm, number: offered.append((pcm, number))
    cut = round((0.5 + 0.6 + 0.4) * SAMPLE_RATE) * 2
    assert vad.feed(audio[:cut]) == []
    (pcm, number), = offered
    vad.feed(audio[cut:cut + s.frame_bytes * 5])
    assert vad.end_at_pause(number) == pcm and not vad.in_speech
    # without an early end the utterance goes on until the room is quiet
    plain = VoiceActivityDetector(s)
    (whole,) = plain.feed(audio)
    assert len(whole) > len(pcm) + 0.1 * 2 * SAMPLE_RATE


def test_a_weak_steady_sound_inside_a_phrase_is_no_pause_until_quiet() -> None:
    # an "s" 22 dB under the vowels holds its level: the phrase goes on
    audio = in_room(silence(0.5), voice(0.6), noise(0.3, 200.0, seed=5), silence(1.0))
    s = VadSettings()
    (at,) = offered_after(s, audio)
    assert at >= 0.5 + 0.6 + 0.3 + s.offer_quiet_seconds - 0.01


def at_levels(levels: Sequence[float], seed: int = 9) -> bytes:
    """Noise, 20 ms at each of ``levels`` (dB, as :func:`energy_db` measures)."""
    rng = np.random.default_rng(seed)
    frame = round(0.02 * SAMPLE_RATE)
    x = np.concatenate([rng.normal(0.0, 10 ** (db / 20), frame) for db in levels])
    return bytes(np.clip(x, -32768, 32767).astype("<i2").tobytes())


def test_a_sound_rising_out_of_the_dip_ends_the_pause() -> None:
    # the end of "clubs": the vowel's tail dips, then the "s" comes (a recording's
    # levels, against its loudest)
    tail = [level - 9 for level in (55, 57, 49, 50, 56, 59, 58, 53, 52, 50, 48)]
    audio = in_room(silence(0.5), voice(0.6), at_levels(tail), silence(1.0))
    s = VadSettings()
    (at,) = offered_after(s, audio)
    assert at >= 0.5 + 0.6 + 0.02 * len(tail) - 0.01
    (early,) = offered_after(replace(s, pause_rise_db=99.0), audio)
    assert early < 0.5 + 0.6 + 0.02 * 6  # without the rule the "s" would be cut


def test_speech_coming_back_ends_the_pause() -> None:
    s = VadSettings()
    vad = VoiceActivityDetector(s)
    offered: list[int] = []
    vad.on_pause = lambda pcm, number: offered.append(number)
    vad.feed(in_room(silence(0.5), voice(0.6), ringing(0.45, 1500.0, 0.8)))
    assert offered and vad.paused_at(offered[-1])
    vad.feed(in_room(voice(0.3)))  # the next word
    assert not vad.paused_at(offered[-1]) and vad.in_speech
