"""The screen-reader speaker's queue rules, over a stand-in for a Windows reader (NVDA,
JAWS cannot run here; see screen_reader_fakes). The real Linux path, Speech
Dispatcher through prism with audio, is tests/speech/test_speechd.py."""

from __future__ import annotations

import threading
import time

import pytest

from tests.speech.screen_reader_fakes import FakeReader, features
from voice_spades.errors import SetupError
from voice_spades.narration.lines import LineKind
from voice_spades.speech import reader_pacing
from voice_spades.speech.base import Interruptible, Speaker
from voice_spades.speech.message import Priority, Utterance
from voice_spades.speech.reader_pacing import estimated_seconds
from voice_spades.speech.record import Outcome
from voice_spades.speech.screen_reader import ScreenReaderSpeaker


def event(text: str, tag: str | None = None) -> Utterance:
    return Utterance(text, Priority.NORMAL, tag, kind=LineKind.EVENT)


def answer(text: str, priority: Priority = Priority.HIGH) -> Utterance:
    return Utterance(text, priority, kind=LineKind.ANSWER)


class Outcomes:
    def __init__(self, speaker: ScreenReaderSpeaker) -> None:
        self.seen: list[tuple[str, Outcome]] = []
        self._lock = threading.Lock()
        speaker.on_outcome(self.add)

    def add(self, u: Utterance, outcome: Outcome) -> None:
        with self._lock:
            self.seen.append((u.text, outcome))

    def of(self, text: str) -> list[Outcome]:
        with self._lock:
            return [o for t, o in self.seen if t == text]


LONG = "North leads the king of clubs and East follows with the four of clubs. " * 2


def test_it_is_a_speaker_that_can_be_interrupted() -> None:
    speaker = ScreenReaderSpeaker(FakeReader(), "NVDA")
    try:
        assert isinstance(speaker, Speaker)
        assert isinstance(speaker, Interruptible)
    finally:
        speaker.close()


def test_lines_go_to_the_reader_one_at_a_time_in_order_and_to_braille() -> None:
    reader = FakeReader()
    speaker = ScreenReaderSpeaker(reader, "NVDA")
    outcomes = Outcomes(speaker)
    lines = [f"Seat {n} plays the {n} of hearts." for n in range(2, 8)]
    for line in lines:
        speaker.say(event(line))
    assert speaker.wait_idle(10)
    reader.wait_quiet()
    speaker.close()
    assert reader.heard == lines
    assert reader.max_queued == 1  # never stacked in the reader's own queue
    assert reader.brailled == lines  # NVDA has braille: output() speaks and brailles
    assert all(outcomes.of(line) == [Outcome.SPOKEN] for line in lines)
    assert reader.threads == {"ScreenReaderSpeaker"}  # prism is called from one thread


def test_a_key_cuts_the_line_and_the_event_is_said_again_after_the_answer() -> None:
    reader = FakeReader(seconds_per_char=0.01)
    speaker = ScreenReaderSpeaker(reader, "NVDA")
    outcomes = Outcomes(speaker)
    speaker.say(event(LONG))
    speaker.say(event("Spades are broken."))
    time.sleep(0.3)
    pressed = time.monotonic()
    speaker.interrupt()
    assert time.monotonic() - pressed < 0.1  # the reader was told at once
    assert reader.cut == [LONG]
    speaker.say(answer("You hold the ace of spades."))
    assert speaker.wait_idle(15)
    reader.wait_quiet()
    speaker.close()
    assert reader.heard == ["You hold the ace of spades.", LONG, "Spades are broken."]
    assert outcomes.of(LONG) == [Outcome.CUT, Outcome.SPOKEN]


def test_an_answer_cuts_an_answer_and_a_low_line_cuts_nothing() -> None:
    reader = FakeReader(seconds_per_char=0.01)
    speaker = ScreenReaderSpeaker(reader, "NVDA")
    outcomes = Outcomes(speaker)
    speaker.say(answer(LONG))
    time.sleep(0.2)
    speaker.say(answer("Low hint.", Priority.LOW))
    time.sleep(0.1)
    assert reader.stops == 0  # the low line did not cut the one playing
    speaker.say(answer("Your turn."))
    assert speaker.wait_idle(10)
    reader.wait_quiet()
    speaker.close()
    assert reader.heard == ["Your turn.", "Low hint."]  # the low line waited its turn
    assert outcomes.of(LONG) == [Outcome.INTERRUPTED]
    assert outcomes.of("Low hint.") == [Outcome.SPOKEN]


def test_stop_skips_everything_queued() -> None:
    reader = FakeReader(seconds_per_char=0.01)
    speaker = ScreenReaderSpeaker(reader, "NVDA")
    outcomes = Outcomes(speaker)
    for text in (LONG, "One.", "Two."):
        speaker.say(event(text))
    time.sleep(0.2)
    speaker.stop()
    assert speaker.wait_idle(2)
    speaker.close()
    assert reader.heard == []
    assert [outcomes.of(t) for t in (LONG, "One.", "Two.")] == [[Outcome.SKIPPED]] * 3


def test_a_reader_that_cannot_say_it_speaks_is_paced_by_the_estimate() -> None:
    # JAWS through prism: no is_speaking, no braille call the game can use.
    reader = FakeReader("JAWS", feats=features(speaking=False, braille=False))
    speaker = ScreenReaderSpeaker(reader, "JAWS")
    lines = ["North bids four.", "East bids two."]
    started = time.monotonic()
    for line in lines:
        speaker.say(event(line))
    assert speaker.wait_idle(10)
    took = time.monotonic() - started
    reader.wait_quiet()
    speaker.close()
    assert reader.heard == lines and reader.brailled == []
    expected = sum(estimated_seconds(line, reader_pacing.ASSUMED_WPM) for line in lines)
    assert expected <= took < expected + 0.5


def test_a_reader_that_goes_away_is_said_once_and_speech_stops() -> None:
    reader = FakeReader(fail_after=1)
    speaker = ScreenReaderSpeaker(reader, "NVDA")
    outcomes = Outcomes(speaker)
    speaker.say(event("One."))
    speaker.say(event("Two."))
    assert speaker.wait_idle(5)
    with pytest.raises(SetupError) as raised:
        speaker.say(event("Three."))
    assert raised.value.message.id == "speech_choice.reader_lost"
    assert raised.value.message.fields["reader"] == "NVDA"
    assert outcomes.of("Two.") == [Outcome.FAILED]
    speaker.close()


def test_rate_moves_relative_to_the_readers_own_where_it_can() -> None:
    reader = FakeReader("Speech Dispatcher", feats=features(speaking=False, rate=True))
    reader.rate = 0.6
    speaker = ScreenReaderSpeaker(reader, "Speech Dispatcher")
    speaker.set_rate(200)  # the game's default rate: the reader's own
    time.sleep(0.1)
    assert reader.rate == pytest.approx(0.6)
    speaker.set_rate(300)
    time.sleep(0.1)
    assert reader_pacing.speechd_wpm(reader.rate) == pytest.approx(
        1.5 * reader_pacing.speechd_wpm(0.6))
    speaker.close()
    nvda = FakeReader()  # no rate in prism's NVDA backend: nothing changes
    other = ScreenReaderSpeaker(nvda, "NVDA")
    other.set_rate(400)
    time.sleep(0.1)
    assert nvda.rate == 0.5
    other.close()


def test_speaking_callbacks_bracket_the_lines() -> None:
    reader = FakeReader()
    speaker = ScreenReaderSpeaker(reader, "NVDA")
    changes: list[bool] = []
    speaker.on_speaking_changed(changes.append)
    speaker.say(event("One."))
    speaker.say(event("Two."))
    assert speaker.wait_idle(5)
    deadline = time.monotonic() + 2
    while changes != [True, False] and time.monotonic() < deadline:
        time.sleep(0.01)
    speaker.close()
    assert changes == [True, False]
