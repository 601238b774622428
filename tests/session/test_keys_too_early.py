"""A key read before the prompt or question it would answer was said never plays, bids or
answers: nothing is done, the player is told once, and the prompt stands."""

from __future__ import annotations

import time

from tests.session.fakes import make_session
from voice_spades.engine import Phase
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.session import Session

TOO_EARLY = "{} came before this was asked, so it did nothing. Press it again to answer."


def settle(session: Session) -> None:
    while session.step():
        pass


def test_a_bid_typed_before_the_prompt_is_not_made_and_the_prompt_stands() -> None:
    session, out = make_session()
    session.start()
    session.play_bots()
    keyboard = KeyboardInput(session, load_keymap())
    prompted = session.asked.asked_at
    assert out.last().message_id.startswith("prompt.bid") and prompted > 0
    keyboard.press("3", read_at=prompted - 0.04)  # 40 ms before the prompt was printed
    keyboard.press("enter", read_at=prompted - 0.01)
    keyboard.press("h", read_at=prompted - 0.01)  # not an answer: it is answered
    settle(session)
    assert out.texts[-2:] == [TOO_EARLY.format("3"), out.last("answer.hand").text]
    assert session.view.phase is Phase.BID and session.view.is_my_turn
    assert session.context().typed_bid == "" and not any("You bid" in t for t in out.texts)
    keyboard.press("3")
    keyboard.press("enter")
    settle(session)
    assert "You bid 3." in out.texts


def test_a_yes_read_before_its_question_does_not_answer_it() -> None:
    session, out = make_session()
    session.start()
    session.play_bots()
    keyboard = KeyboardInput(session, load_keymap())
    before = session.asked.asked_at
    keyboard.press("n")
    settle(session)
    assert out.last().text == "Bid nil? Yes or no?" and session.asked.asked_at > before
    keyboard.press("y", read_at=session.asked.asked_at - 0.001)
    settle(session)
    assert out.last().text == TOO_EARLY.format("Y") and session.question_pending
    keyboard.press("y")
    settle(session)
    assert "You bid nil." in out.texts


def test_enter_pressed_while_the_bots_play_never_plays_on_the_players_turn() -> None:
    """Keys queued while the bots play (the session takes none until they are done), each
    read before the play prompt: none plays a card."""
    session, out = make_session(seed=3)
    keyboard = KeyboardInput(session, load_keymap())
    session.start()
    session.play_bots()
    keyboard.press("3")
    keyboard.press("enter")
    session.step()
    session.step()  # the bid is made; the bots are to act
    pressed = 0
    while session.match.to_act not in (None, 0):  # Enter read before each bot's move
        keyboard.press("enter", time.perf_counter())  # the last move ends with the prompt
        pressed += 1
        session.bot_move()
    settle(session)
    assert pressed >= 2 and session.view.phase is Phase.PLAY and session.view.is_my_turn
    assert out.ids[-2:] == ["prompt.follow", "error.key_too_early"]  # the prompt stands...
    assert not any(t.startswith(("You played", "You led")) for t in out.texts)
    assert out.texts.count(TOO_EARLY.format("Enter")) == 1  # ...told once, not 3 times
    keyboard.press("enter", time.perf_counter())  # read after the prompt: it plays
    settle(session)
    assert any(t.startswith("You played") for t in out.texts)
