"""The early end decodes a pause while the quiet goes on: a decode started at the
very short pause is used when the pause is long enough, and discarded when speech
resumes first."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import pytest

from tests.voice.synthetic import silence, voice
from tests.voice.test_listener import FakeRecognizer
from voice_spades.voice.audio.microphone import Microphone
from voice_spades.voice.audio.vad import VadSettings, VoiceActivityDetector
from voice_spades.voice.early_end import EarlyEnd
from voice_spades.voice.recognizers.base import Recognition

S = VadSettings()
REST = S.early_quiet_seconds - S.decode_quiet_seconds
"""The quiet still needed after a pause is offered for it to end the utterance."""


def test_the_pause_is_offered_before_the_utterance_may_end_there() -> None:
    assert 0 < S.decode_quiet_seconds < S.early_quiet_seconds
    assert S.tail_seconds == S.decode_quiet_seconds  # the hangover delivers what was decoded
    vad = VoiceActivityDetector(S)
    offered: list[tuple[bytes, int]] = []
    vad.on_pause = lambda pcm, number: offered.append((pcm, number))
    assert vad.feed(silence(0.5) + voice(0.6) + silence(S.decode_quiet_seconds)) == []
    (pcm, number), = offered
    assert vad.end_at_pause(number) is None and vad.paused_at(number)  # too soon: it waits
    assert vad.feed(silence(REST / 2)) == [] and vad.in_speech
    assert vad.feed(silence(REST / 2)) == [pcm] and not vad.in_speech


@pytest.mark.parametrize("decode_quiet", [0.06, 0.1, 0.0])
def test_the_hangover_delivers_the_utterance_offered_at_its_pause(decode_quiet: float) -> None:
    # One setting: the quiet kept at the end follows the quiet a pause is offered at
    # (the early length when pauses are not decoded sooner).
    settings = VadSettings(decode_quiet_seconds=decode_quiet)
    assert settings.tail_seconds == settings.offer_quiet_seconds
    vad = VoiceActivityDetector(settings)
    offered: list[bytes] = []
    vad.on_pause = lambda pcm, number: offered.append(pcm)
    done = vad.feed(silence(0.5) + voice(0.6) + silence(1.0))
    assert done == offered and len(offered) == 1


def test_speech_resuming_before_the_pause_is_long_enough_keeps_the_utterance() -> None:
    vad = VoiceActivityDetector(S)
    offered: list[tuple[bytes, int]] = []
    vad.on_pause = lambda pcm, number: offered.append((pcm, number))
    vad.feed(silence(0.5) + voice(0.6) + silence(S.decode_quiet_seconds))
    pcm, number = offered[-1]
    assert vad.end_at_pause(number) is None
    assert vad.feed(voice(0.3) + silence(REST + S.decode_quiet_seconds)) == []
    assert not vad.paused_at(number) and vad.end_at_pause(number) is None
    done = vad.feed(silence(1.0))
    assert len(done) == 1 and done[0].startswith(pcm) and len(done[0]) > len(pcm)


def test_the_microphone_delivers_an_utterance_ended_early_when_the_pause_is_long_enough(
        ) -> None:
    microphone = Microphone()
    got: list[bytes] = []
    pauses: list[tuple[bytes, int]] = []
    microphone.on_utterance = got.append
    microphone.on_pause = lambda pcm, number: pauses.append((pcm, number))
    microphone.process(silence(0.5) + voice(0.6) + silence(S.decode_quiet_seconds))
    assert microphone.end_early(pauses[-1][1]) and got == []
    microphone.process(silence(REST))
    assert got == [pauses[-1][0]]
    microphone.process(silence(0.5) + voice(0.6) + silence(S.decode_quiet_seconds))
    stale = pauses[-1]
    assert microphone.end_early(stale[1])
    microphone.process(voice(0.3))  # speech went on before the pause was long enough
    assert not microphone.end_early(stale[1]) and len(got) == 1
    microphone.process(silence(1.0))
    assert len(got) == 2 and got[1].startswith(stale[0]) and len(got[1]) > len(stale[0])


class HeldRecognizer(FakeRecognizer):
    """Hears ``text``; each decode waits for :attr:`release` (a decode that is slow)."""

    name = "held"

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.started = threading.Event()
        self.release = threading.Event()
        self.decoded: list[bytes] = []

    def decode(self, audio: bytes) -> Recognition:
        self.started.set()
        assert self.release.wait(5.0)
        self.decoded.append(audio)
        return Recognition(self.text, 0.95, ((self.text, 0.95),), 1.0, 0.01)


def until(condition: object, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.005)
    return False


def listening(text: str, phrases: Sequence[str] = ("bid three", "bid four")
              ) -> tuple[HeldRecognizer, Microphone, EarlyEnd, list[bytes], list[bytes]]:
    recognizer = HeldRecognizer(text)
    microphone = Microphone()
    early = EarlyEnd(recognizer, microphone, lambda: phrases)
    got: list[bytes] = []
    offered: list[bytes] = []
    microphone.on_utterance = got.append
    decide = microphone.on_pause
    assert decide is not None

    def pause(pcm: bytes, number: int) -> None:
        offered.append(pcm)
        decide(pcm, number)

    microphone.on_pause = pause
    return recognizer, microphone, early, got, offered


def test_a_decode_still_running_when_the_pause_is_long_enough_ends_it_when_done() -> None:
    recognizer, microphone, early, got, offered = listening("bid three")
    try:
        microphone.process(silence(0.5) + voice(0.6) + silence(S.decode_quiet_seconds))
        assert recognizer.started.wait(5.0)  # decoding while the quiet goes on
        microphone.process(silence(REST))
        assert got == []  # the pause is long enough, the answer not in yet
        recognizer.release.set()
        assert until(lambda: bool(got))
        assert got == offered[-1:] and early.ended == 1
        heard = early.heard(got[0])  # the listener is given the pause's result
        assert heard is not None and heard.text == "bid three"
        assert recognizer.decoded == got
    finally:
        early.close()


def test_a_decode_done_before_the_pause_is_long_enough_ends_it_at_that_length() -> None:
    recognizer, microphone, early, got, offered = listening("bid three")
    recognizer.release.set()
    try:
        microphone.process(silence(0.5) + voice(0.6) + silence(S.decode_quiet_seconds))
        assert until(lambda: early.ended == 1) and got == []
        microphone.process(silence(REST))
        assert got == offered[-1:] and recognizer.decoded == got
    finally:
        early.close()


def test_a_decode_of_a_pause_after_which_speech_resumed_is_discarded() -> None:
    recognizer, microphone, early, got, offered = listening("bid three")
    try:
        microphone.process(silence(0.5) + voice(0.6) + silence(S.decode_quiet_seconds))
        assert recognizer.started.wait(5.0)
        microphone.process(voice(0.4))  # "bid three ... of hearts"
        recognizer.release.set()
        assert until(lambda: len(recognizer.decoded) == 1)
        assert early.heard(offered[0]) is not None  # done: its result is kept, unused
        assert got == [] and early.ended == 0
        microphone.process(silence(1.0))
        assert until(lambda: bool(got))
        assert len(got) == 1 and len(got[0]) > len(offered[0])
    finally:
        early.close()
