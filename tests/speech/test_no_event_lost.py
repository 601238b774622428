"""A key cuts the sentence and is answered at once; the game's events still waiting are
said after it, in order; only Escape skips them, and history keeps them (issue 10)."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.session.fakes import make_session
from tests.speech.timed_speaker import TimedSpeaker
from voice_spades.commands import Ask, Query
from voice_spades.engine import Match, TrickWon, profile
from voice_spades.errors import SetupError
from voice_spades.narration import Line, LineKind, Narrator, Phrasebook, Priority, Verbosity
from voice_spades.speech import Announcer, synth_speaker
from voice_spades.speech.message import Utterance
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.record import Outcome


@pytest.fixture
def speaker() -> Iterator[TimedSpeaker]:
    timed = TimedSpeaker(seconds_per_word=0.05)
    yield timed
    timed.close()


def event(text: str, tag: str | None = None) -> Line:
    return Line("card.played", text, tag=tag, kind=LineKind.EVENT)


EVENTS = [event("Partner North played the ace of spades."), event("North won the trick."),
          event("Hand 1 over. Scores: you 120, them 80."), event("Hand 2. West dealt.")]


def test_a_key_cuts_an_event_which_is_said_again_whole_after_the_answer(
        speaker: TimedSpeaker) -> None:
    out = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    out.emit(EVENTS)
    first = speaker.wait_for_text(EVENTS[0].text)
    time.sleep(0.1)
    out.interrupt()
    out.emit([Line("answer.last_trick", "No trick has been completed yet this hand.")])
    assert out.wait_idle(10)
    assert speaker.plays[0] == (first, False)
    assert speaker.whole() == ["No trick has been completed yet this hand.",
                               *(line.text for line in EVENTS)]
    record = out.record(10)
    assert [said.outcome for said in record] == [Outcome.SPOKEN] * 5
    assert record[0].cuts == 1 and record[0].kind is LineKind.EVENT


def test_the_session_keeps_the_events_when_a_key_is_pressed(speaker: TimedSpeaker) -> None:
    # interrupt_speech used to stop the speaker, dropping every event still queued.
    out = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    session, _ = make_session(output=None)
    session.ports.output = out
    out.emit(EVENTS)
    speaker.wait_for_text(EVENTS[0].text)
    session.interrupt_speech()
    session.handle(Ask(Query.SCORES))
    assert out.wait_idle(10)
    heard = speaker.whole()
    assert heard[0].startswith("Scores")
    assert heard[1:] == [line.text for line in EVENTS]


def test_a_later_answer_replaces_an_earlier_one_but_never_an_event(
        speaker: TimedSpeaker) -> None:
    out = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    out.emit(EVENTS[:2])
    speaker.wait_for_text(EVENTS[0].text)
    for card in ("9 of spades", "jack of spades", "king of spades", "2 of hearts",
                 "5 of hearts"):  # Right pressed five times
        out.interrupt()
        out.emit([Line("answer.cursor", card)])
    assert out.wait_idle(10)
    answers = [text for text in speaker.whole() if "played" not in text and "won" not in text]
    assert answers == ["5 of hearts"]
    assert speaker.whole()[-2:] == [EVENTS[0].text, EVENTS[1].text]


def test_a_prompt_waits_for_the_events_before_it(speaker: TimedSpeaker) -> None:
    # A prompt used to make its batch urgent: "Partner North bid 6." was wiped by it.
    out = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    out.emit([Line("help.keys", "F1: help. " * 10)])
    out.emit([Line("bid.made", "Partner North bid 6.", kind=LineKind.EVENT),
              Line("prompt.bid", "Your bid.", Priority.HIGH, kind=LineKind.PROMPT)])
    assert out.wait_idle(10)
    assert speaker.whole() == ["F1: help. " * 10, "Partner North bid 6.", "Your bid."]


def test_escape_skips_the_waiting_events_and_history_keeps_them(
        speaker: TimedSpeaker) -> None:
    out = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    out.emit(EVENTS)
    speaker.wait_for_text(EVENTS[1].text)
    out.interrupt()  # Escape is a key: it cuts first, then silences
    out.silence()
    assert out.wait_idle(5)
    time.sleep(0.1)
    assert speaker.whole() == [EVENTS[0].text]
    assert out.recent(4) == [line.text for line in EVENTS]
    assert [said.outcome for said in out.record(4)] == [Outcome.SPOKEN] + [Outcome.SKIPPED] * 3


def test_after_a_key_with_no_answer_speech_goes_on(
        speaker: TimedSpeaker, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(synth_speaker, "HOLD", 0.3)
    out = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    out.emit(EVENTS[:2])
    speaker.wait_for_text(EVENTS[0].text)
    started = time.monotonic()
    out.interrupt()
    assert speaker.playing is None and out.is_busy()  # held for the answer, still busy
    assert out.wait_idle(10)
    assert time.monotonic() - started > 0.3
    assert speaker.whole() == [line.text for line in EVENTS[:2]]


def test_text_only_output_is_unchanged_by_keys() -> None:
    stream = io.StringIO()
    out = AnnouncerOutput(Announcer(stream=stream))
    out.emit(EVENTS[:1])
    out.interrupt()
    out.silence()
    out.emit([Line("answer.scores", "Scores.")])
    assert stream.getvalue().splitlines() == [EVENTS[0].text, "Scores."]
    assert not out.is_busy() and out.wait_idle(0)
    assert [said.outcome for said in out.record(2)] == [Outcome.PRINTED] * 2


@pytest.mark.parametrize("verbosity", list(Verbosity))
def test_a_trick_summary_names_every_card_it_folds(verbosity: Verbosity) -> None:
    # Stale card plays of a finished trick may be dropped only because of this.
    match = Match(profile("pagat"), 5)
    while True:
        events = match.apply(match.legal_actions()[0])
        won = next((e for e in events if isinstance(e, TrickWon)), None)
        if won is not None:
            break
    words = Phrasebook(match.rules, 0, verbosity)
    summary = Narrator(words).narrate(won, behind=True)[0]
    assert summary.kind is LineKind.EVENT
    for _seat, card in won.trick.plays:
        assert words.card(card) in summary.text, (card, summary.text)


class DyingSpeaker(TimedSpeaker):
    """Its audio device goes away at the second sentence."""

    def _deliver(self, u: Utterance, wav: Path, cancel: threading.Event) -> bool:
        if self.plays:
            raise SetupError("speech.device_lost")
        return super()._deliver(u, wav, cancel)


def test_a_speaker_that_dies_never_keeps_the_bots_waiting() -> None:
    speaker = DyingSpeaker(seconds_per_word=0.01)
    out = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    try:
        out.emit(EVENTS)
        assert out.wait_idle(5)
        assert not out.is_busy()  # so the Pacer lets the bots go on
        assert [said.outcome for said in out.record(4)] == [Outcome.SPOKEN] + \
            [Outcome.FAILED] * 3
    finally:
        speaker.close()
