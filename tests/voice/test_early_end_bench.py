"""The through-microphone bench's model of the early end's thread: a pause's decode
takes its CPU time of the virtual clock, and a decode of a pause after which speech
went on delays the next one."""

from __future__ import annotations

import time

from tests.voice.synthetic import silence, voice
from tests.voice.test_listener import FakeRecognizer
from voice_spades.bench.endpoint_ear import Ear
from voice_spades.voice.audio.vad import VadSettings
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.testing.prompts import prompt_table


class BusyRecognizer(FakeRecognizer):
    """Hears "bid three" after ``seconds`` of CPU time."""

    name = "busy"

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def decode(self, audio: bytes) -> Recognition:
        end = time.thread_time() + self.seconds
        while time.thread_time() < end:
            pass
        return Recognition("bid three", 0.95, (("bid three", 0.95),), 1.0, self.seconds)


class ParallelRecognizer(BusyRecognizer):
    """A :class:`BusyRecognizer` that would also wait ``waits`` seconds per decode for
    a process of its own beside it."""

    def __init__(self, seconds: float, waits: float) -> None:
        super().__init__(seconds)
        self.waits = waits
        self.parallel_wait_seconds = 0.0

    def decode(self, audio: bytes) -> Recognition:
        self.parallel_wait_seconds += self.waits
        return super().decode(audio)


def ear(seconds: float, waits: float | None = None) -> tuple[Ear, list[float]]:
    """An ear whose pause decodes take ``seconds`` (and wait ``waits`` for a process
    beside them), and when its pauses were offered."""
    _, table = prompt_table("bid three", 1)
    recognizer = BusyRecognizer(seconds) if waits is None else ParallelRecognizer(seconds, waits)
    listening = Ear(recognizer, table, lambda pcm: pcm, True)  # type: ignore[arg-type,return-value]
    offered: list[float] = []
    pause = listening.microphone.on_pause
    assert pause is not None

    def noted(pcm: bytes, number: int) -> None:
        offered.append(listening.now)
        pause(pcm, number)

    listening.microphone.on_pause = noted
    return listening, offered


def test_an_utterance_ends_when_its_decode_is_done_if_that_is_after_the_early_pause() -> None:
    s = VadSettings()
    listening, offered = ear(0.15)
    listening.hear(silence(1.0) + voice(0.6) + silence(1.0))
    (at, _, early, waited), = listening.decided
    assert early and waited == 0.0 and len(offered) == 1
    assert s.early_quiet_seconds - s.decode_quiet_seconds < 0.15
    assert offered[0] + 0.15 <= at < offered[0] + 0.15 + 0.05


def test_a_decode_of_a_pause_after_which_speech_went_on_delays_the_next() -> None:
    listening, offered = ear(0.3)
    listening.hear(silence(1.0) + voice(0.6) + silence(0.14) + voice(0.1) + silence(1.0))
    (at, _, early, _), = listening.decided
    assert early and len(offered) == 2
    first_done = offered[0] + 0.3
    assert offered[1] < first_done  # the second pause waited for the stale decode
    assert first_done + 0.3 <= at < first_done + 0.3 + 0.05


def test_a_decode_takes_its_wait_for_a_process_beside_it_too() -> None:
    listening, offered = ear(0.05, waits=0.1)
    listening.hear(silence(1.0) + voice(0.6) + silence(1.0))
    (at, _, early, _), = listening.decided
    assert early and len(offered) == 1
    assert offered[0] + 0.15 <= at < offered[0] + 0.15 + 0.05
