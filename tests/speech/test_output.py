"""The session's lines through the speech adapter (AnnouncerOutput): printed, spoken, cut."""

from __future__ import annotations

import io

from tests.session.fakes import RecordingSpeaker, fast_bots
from voice_spades.commands import Ask, Query
from voice_spades.engine import Match, profile
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.narration import Line
from voice_spades.session import Pacer, Ports, Session
from voice_spades.speech import Announcer, Priority
from voice_spades.speech.output import AnnouncerOutput, batch_utterances


def output() -> tuple[AnnouncerOutput, RecordingSpeaker, io.StringIO]:
    speaker = RecordingSpeaker()
    stream = io.StringIO()
    return AnnouncerOutput(Announcer(speaker, stream=stream), rate=200), speaker, stream


def test_a_batch_ending_in_a_prompt_cuts_stale_speech_but_keeps_itself() -> None:
    lines = [Line("card.played", "East played the ace of hearts.", tag="trick:1:2", seat=3),
             Line("prompt.follow", "Your play: follow hearts.", Priority.HIGH)]
    first, second = batch_utterances(lines)
    assert first.priority is Priority.HIGH and first.text.startswith("East played")
    assert second.priority is Priority.NORMAL and second.text.startswith("Your play")
    plain = batch_utterances(lines[:1])
    assert plain[0].priority is Priority.NORMAL and plain[0].tag == "trick:1:2"
    assert plain[0].seat == 3


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


def test_the_turn_prompt_comes_with_the_moves_before_it() -> None:
    out, speaker, _ = output()
    session = Session(Match(profile("pagat"), 3), Ports(out, pacer=Pacer(out.is_busy, min_gap=0)),
                      bot_factory=fast_bots)
    session.start()
    session.play_bots()
    *_, move, prompt = speaker.said
    assert prompt.text.startswith("Your bid") and prompt.priority is Priority.NORMAL
    assert move.text.startswith("East bid") and move.priority is Priority.HIGH
