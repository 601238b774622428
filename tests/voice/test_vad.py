"""Voice activity detection on synthetic audio: silence, noise, speech-like bursts."""

from __future__ import annotations

import numpy as np
import pytest

from tests.voice.synthetic import mix, noise, silence, voice
from voice_spades.voice.audio.vad import (
    SAMPLE_RATE,
    BargeInDetector,
    VadSettings,
    VoiceActivityDetector,
    energy_db,
)


def seconds(pcm: bytes) -> float:
    return len(pcm) / 2 / SAMPLE_RATE


def test_energy_is_zero_for_silence_and_about_90_db_at_full_scale() -> None:
    assert energy_db(silence(0.02)) == 0.0
    t = np.arange(320) / SAMPLE_RATE
    full = (np.sin(2 * np.pi * 1000 * t) * 32767).astype("<i2").tobytes()
    assert 86 < energy_db(full) < 88  # a full-scale sine: 3 dB under full scale
    assert energy_db(b"") == 0.0


def test_rumble_below_120_hz_does_not_count() -> None:
    t = np.arange(320) / SAMPLE_RATE
    for hz, low, high in ((0, 0, 30), (40, 0, 45), (300, 76, 78)):  # each is 77 dB in all
        tone = (np.cos(2 * np.pi * hz * t) * 10000).astype("<i2").tobytes()
        assert low <= energy_db(tone) <= high, hz


def test_silence_and_steady_noise_make_no_utterance() -> None:
    vad = VoiceActivityDetector()
    assert vad.feed(silence(5.0)) == []
    assert vad.feed(noise(10.0, rms=300)) == []
    assert not vad.in_speech


def test_a_word_in_silence_is_one_utterance_with_pre_roll_and_a_short_tail() -> None:
    s = VadSettings()
    vad = VoiceActivityDetector(s)
    utterances = vad.feed(silence(1.0) + voice(0.8) + silence(1.5))
    assert len(utterances) == 1
    cut = utterances[0]
    # pre-roll before the onset, the word, and the kept tail of the hangover
    assert 0.8 + s.tail_seconds <= seconds(cut) <= 0.8 + s.pre_roll_seconds + s.tail_seconds + 0.1
    head = np.frombuffer(cut[:2 * round(0.2 * SAMPLE_RATE)], dtype="<i2")
    assert not head.any()  # the cut starts in the silence before the word


def test_the_end_waits_for_the_hangover() -> None:
    vad = VoiceActivityDetector()
    assert vad.feed(silence(0.5) + voice(0.6) + silence(0.4)) == []
    assert vad.in_speech
    assert len(vad.feed(silence(0.3))) == 1


def test_a_short_pause_does_not_split_a_phrase_but_a_long_one_does() -> None:
    vad = VoiceActivityDetector()
    together = vad.feed(silence(0.5) + voice(0.4) + silence(0.3) + voice(0.5) + silence(1.0))
    assert len(together) == 1
    apart = vad.feed(voice(0.4) + silence(1.0) + voice(0.5) + silence(1.0))
    assert len(apart) == 2


def test_clicks_are_not_words() -> None:
    vad = VoiceActivityDetector()
    clicks = b"".join(silence(0.5) + voice(0.04, peak=20000) for _ in range(6))
    assert vad.feed(clicks + silence(1.0)) == []


def test_sound_far_longer_than_a_command_is_dropped_and_the_next_word_is_heard() -> None:
    vad = VoiceActivityDetector(VadSettings(max_utterance_seconds=3.0))
    assert vad.feed(silence(0.5) + voice(5.0) + silence(1.0)) == []
    assert len(vad.feed(voice(0.6) + silence(1.0))) == 1


def test_the_noise_floor_follows_the_room() -> None:
    room = noise(12.0, rms=600, seed=1)  # about 55 dB
    words = silence(6.0) + voice(0.7, peak=9000) + silence(5.3)
    vad = VoiceActivityDetector()
    assert len(vad.feed(mix(room, words))) == 1
    assert vad.floor.level is not None and 50 < vad.floor.level < 60
    faint = silence(6.0) + voice(0.7, peak=700) + silence(5.3)
    assert VoiceActivityDetector().feed(mix(room, faint)) == []


def test_chunk_sizes_do_not_change_the_cuts() -> None:
    audio = silence(0.7) + voice(0.5) + silence(0.9) + voice(0.9) + silence(1.2)
    whole = VoiceActivityDetector().feed(audio)
    vad = VoiceActivityDetector()
    pieces: list[bytes] = []
    for start in range(0, len(audio), 2 * 137):
        pieces += vad.feed(audio[start:start + 2 * 137])
    assert pieces == whole and len(whole) == 2


def test_flush_ends_the_utterance_in_progress() -> None:
    vad = VoiceActivityDetector()
    vad.feed(silence(0.5) + voice(0.5))
    assert vad.in_speech
    cut = vad.flush()
    assert cut is not None and seconds(cut) >= 0.5
    assert not vad.in_speech
    assert vad.flush() is None


class TestBargeIn:
    def narration(self, detector: BargeInDetector, level: float, secs: float) -> None:
        detector.narration_started()
        for start in range(0, 2 * round(secs * SAMPLE_RATE), 640):
            assert not detector.feed(voice(secs, peak=level)[start:start + 640])
        detector.narration_ended()

    def run(self, detector: BargeInDetector, pcm: bytes) -> bool:
        return any(detector.feed(pcm[i:i + 640]) for i in range(0, len(pcm), 640))

    def test_nothing_counts_before_a_narration_was_heard(self) -> None:
        detector = BargeInDetector()
        detector.narration_started()
        assert detector.reference_db is None
        assert not self.run(detector, voice(0.5, peak=20000))

    def test_only_an_onset_well_above_the_narration_counts(self) -> None:
        detector = BargeInDetector()
        self.narration(detector, 1000, 1.5)
        reference = detector.reference_db
        assert reference is not None
        detector.narration_started()
        assert not self.run(detector, voice(0.5, peak=2000))  # +6 dB: the narration itself
        assert self.run(detector, voice(0.5, peak=8000))      # +18 dB: the player


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_noise_bursts_of_the_room_level_never_start_an_utterance(seed: int) -> None:
    vad = VoiceActivityDetector()
    room = noise(8.0, rms=400, seed=seed)
    assert vad.feed(room) == []
