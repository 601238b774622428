"""The session's lines through the speech adapter (AnnouncerOutput): printed, spoken, cut."""

from __future__ import annotations

import io

from tests.session.fakes import RecordingSpeaker, fast_bots
from voice_spades.commands import Ask, Query
from voice_spades.engine import Match, profile
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.narration import Line, LineKind
from voice_spades.session import Pacer, Ports, Session
from voice_spades.speech import Announcer, Priority
from voice_spades.speech.output import AnnouncerOutput, batch_utterances


def output() -> tuple[AnnouncerOutput, RecordingSpeaker, io.StringIO]:
    speaker = RecordingSpeaker()
    stream = io.StringIO()
    return AnnouncerOutput(Announcer(speaker, stream=stream), rate=200), speaker, stream


def test_a_batch_of_answers_cuts_at_once_and_keeps_its_own_lines() -> None:
    lines = [Line("answer.table", "On the table: East, ace of hearts.", seat=3),
             Line("error.illegal", "You cannot play that: follow hearts.", Priority.HIGH)]
    first, second = batch_utterances(lines)
    assert first.priority is Priority.HIGH and first.text.startswith("On the table")
    assert second.priority is Priority.NORMAL and second.text.startswith("You cannot")
    assert first.kind is second.kind is LineKind.ANSWER and first.seat == 3


def test_a_batch_of_game_events_waits_its_turn_even_with_a_prompt() -> None:
    # A prompt used to make its batch HIGH, which cut and dropped the events still
    # queued ("Partner North bid 6." wiped by the bid prompt, issue 10).
    lines = [Line("card.played", "East played the ace of hearts.", tag="trick:1:2", seat=3,
                  kind=LineKind.EVENT),
             Line("session.stats", "Wins 1, losses 0."),
             Line("prompt.follow", "Your play: follow hearts.", Priority.HIGH,
                  kind=LineKind.PROMPT)]
    played, stats, prompt = batch_utterances(lines)
    assert [u.priority for u in (played, stats, prompt)] == [Priority.NORMAL] * 3
    assert (played.kind, stats.kind, prompt.kind) == (LineKind.EVENT, LineKind.EVENT,
                                                      LineKind.PROMPT)
    assert played.tag == "trick:1:2" and played.seat == 3


def test_every_line_is_printed_and_spoken() -> None:
    out, speaker, stream = output()
    out.emit([Line("a", "One."), Line("b", "Two.", Priority.HIGH)])
    assert stream.getvalue() == "One.\nTwo.\n"
    assert [u.text for u in speaker.said] == ["One.", "Two."]
    out.repeat_last()
    assert speaker.said[-1].text == "Two." and speaker.said[-1].priority is Priority.HIGH
    assert out.recent(5) == ["One.", "Two."]
    out.cancel("trick:1:1")
    out.silence()
    assert speaker.calls == ["cancel:trick:1:1", "stop"]
    assert out.change_rate(1) and speaker.calls[-1] == "rate:225"
    speaker.speaking = True
    assert out.is_busy() and not out.wait_idle(0.01)


def test_text_only_output_is_never_busy_and_has_no_rate() -> None:
    stream = io.StringIO()
    out = AnnouncerOutput(Announcer(stream=stream))
    out.emit([Line("a", "Hello.")])
    assert stream.getvalue() == "Hello.\n"
    assert not out.is_busy() and not out.change_rate(1) and not out.speaking


def test_a_key_press_cuts_the_sentence_at_once() -> None:
    out, speaker, _ = output()
    session = Session(Match(profile("pagat"), 3), Ports(out, pacer=Pacer(out.is_busy, min_gap=0)),
                      bot_factory=fast_bots)
    session.start()
    speaker.speaking = True
    KeyboardInput(session, load_keymap()).press("c")
    assert speaker.calls[-1] == "stop"  # before the key is even handled
    session.handle(Ask(Query.TABLE))
    assert speaker.said[-1].text == "No cards on the table yet: bidding."


def test_the_turn_prompt_comes_after_the_moves_before_it() -> None:
    out, speaker, _ = output()
    session = Session(Match(profile("pagat"), 3), Ports(out, pacer=Pacer(out.is_busy, min_gap=0)),
                      bot_factory=fast_bots)
    session.start()
    session.play_bots()
    *_, move, prompt = speaker.said
    assert prompt.text.startswith("Your bid") and prompt.priority is Priority.NORMAL
    assert prompt.kind is LineKind.PROMPT
    # The move used to be HIGH, cutting and dropping earlier events still queued.
    assert move.text.startswith("East bid") and move.priority is Priority.NORMAL
    assert move.kind is LineKind.EVENT
