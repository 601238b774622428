"""Enter and the card under the cursor with a real speech queue (timed, no synthesizer):
a prompt cut off by a key is not taken as heard; a question said whole is, even while
the game events go on after it."""

from __future__ import annotations

import io
import time

from tests.session.fakes import fast_bots
from tests.speech.timed_speaker import TimedSpeaker
from voice_spades.commands import Confirm, PlayCurrent, TypeDigit
from voice_spades.engine import Match, Phase, profile
from voice_spades.session import GameSettings, Pacer, Ports, Session
from voice_spades.speech import Announcer
from voice_spades.speech.output import AnnouncerOutput


def wait_until(condition, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_enter_plays_only_a_card_heard_named_whole() -> None:
    speaker = TimedSpeaker(seconds_per_word=0.08, longest=1.5)
    output = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    session = Session(Match(profile("pagat"), 3), Ports(output, pacer=Pacer(output.is_busy)),
                      settings=GameSettings(rules="pagat", seed=3), bot_factory=fast_bots)
    try:
        session.start()
        session.play_bots()
        session.handle(TypeDigit(3))
        session.handle(PlayCurrent())
        session.play_bots()  # the bots' events, then the play prompt, all queued
        assert session.view.phase is Phase.PLAY and session.view.is_my_turn
        card = session.cursor_card
        assert output.is_busy()
        session.interrupt_speech()  # Enter before the prompt naming the card was said
        session.handle(PlayCurrent())
        assert card in session.view.hand_cards, "Enter played a card not heard"
        question = output.recent(1)[0]
        assert question.startswith("Play the ")
        speaker.wait_for_text(question)
        wait_until(lambda: question in speaker.whole())
        assert output.is_busy(), "the events should still be going on"
        session.interrupt_speech()  # Enter again, while the events go on after it
        session.handle(Confirm(True))
        assert card not in session.view.hand_cards
    finally:
        output.close()
