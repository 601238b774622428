"""Keys reach the session as intents, resolved when their turn comes."""

from __future__ import annotations

import io
import threading

from tests.session.fakes import make_session
from voice_spades.keys import KeyboardInput, load_keymap


def test_keys_are_resolved_with_the_question_state_of_their_turn() -> None:
    session, out = make_session()
    session.start()
    session.play_bots()
    keyboard = KeyboardInput(session, load_keymap())
    cuts = out.interrupted
    keyboard.press("n")  # nil: asks "Bid nil?"
    keyboard.press("n")  # typed ahead: by its turn the question is pending, so "no"
    assert out.interrupted == cuts + 2  # each key cut the speech at once (keeping events)
    while session.step():
        pass
    assert out.texts[-2:] == ["Bid nil? Yes or no?", "Cancelled."]
    keyboard.press("n")
    keyboard.press("y")
    while session.step():
        pass
    assert "You bid nil." in out.texts


def test_unknown_keys_and_words_get_a_message() -> None:
    session, out = make_session()
    session.play_bots()
    keyboard = KeyboardInput(session, load_keymap())
    keyboard.press("j")  # Z is now the target key (issue 10)
    keyboard.press_token("frobnicate")
    keyboard.press_token("scores")
    while session.step():
        pass
    assert out.texts[-3:] == ["J does nothing here. Press F1 for the keys.",
                              "frobnicate does nothing here. Press F1 for the keys.",
                              out.last("answer.scores").text]


def test_lines_are_read_when_the_game_waits_and_the_end_saves_and_quits() -> None:
    session, out = make_session()
    session.start()
    keyboard = KeyboardInput(session, load_keymap())
    reader = threading.Thread(target=keyboard.run_lines,
                              args=(io.StringIO("h  # my hand\n4 enter\n"),))
    reader.start()
    session.run()
    reader.join(5)
    assert "You bid 4." in out.texts
    assert out.last().text == "Input ended. Game saved. Goodbye."
    assert out.ids.index("answer.hand") < out.texts.index("You bid 4.")
