"""A reflex Enter never makes a two-way choice: at keep or discard, and at blind nil, it
says the question again with the keys that choose; K and D (and the voice phrases)
choose, and Enter still says yes to a yes/no question."""

from __future__ import annotations

from tests.session.fakes import make_session
from voice_spades.commands import Act, Confirm
from voice_spades.engine import DrawChoice, Phase
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.narration.catalog import set_language
from voice_spades.session import Session
from voice_spades.voice.understanding.grammar import build_phrases


def press(keyboard: KeyboardInput, session: Session, *keys: str) -> None:
    for key in keys:
        keyboard.press(key)
    while session.step():
        pass


def test_enter_at_blind_nil_and_at_the_draw_says_the_question_again() -> None:
    session, out = make_session("two-player", seed=4)
    keyboard = KeyboardInput(session, load_keymap())
    session.start()
    session.play_bots()
    assert session.view.phase is Phase.BLIND_NIL and session.view.is_my_turn
    press(keyboard, session, "enter")
    assert out.last().text == ("Blind nil? Decide before you see your cards: yes or no. "
                               "Y for blind nil, N to see your cards.")
    assert session.view.phase is Phase.BLIND_NIL and "blind_nil.declared" not in out.ids
    press(keyboard, session, "n")
    session.play_bots()
    assert session.view.phase is Phase.DRAW and session.view.is_my_turn
    shown, held = session.view.draw_top, session.view.cards_held[0]
    press(keyboard, session, "enter", "enter")
    asked = out.last().text
    assert asked.startswith("You see the ") and asked.endswith(
        ": keep or discard? K keeps it, D discards it.")
    assert session.view.draw_top == shown and session.view.cards_held[0] == held
    press(keyboard, session, "k")
    assert out.last("draw.kept") and session.view.cards_held[0] == held + 1


def test_the_repeated_question_is_in_italian_and_french_too() -> None:
    expected = {"it": "K per tenerla, D per scartarla.",
                "fr": "K pour la garder, D pour la défausser."}
    for language, ending in expected.items():
        set_language(language)
        try:
            session, out = make_session("two-player", seed=4)
            session.start()
            session.play_bots()
            session.handle(Confirm(False))
            session.play_bots()
            session.handle(Confirm(True, reflex=True))
            assert out.last().text.endswith(ending) and session.view.phase is Phase.DRAW
        finally:
            set_language("en")


def test_enter_still_says_yes_to_a_yes_no_question() -> None:
    session, out = make_session()
    keyboard = KeyboardInput(session, load_keymap())
    session.start()
    session.play_bots()
    press(keyboard, session, "n")  # "Bid nil? Yes or no?"
    press(keyboard, session, "enter")
    assert "You bid nil." in out.texts


def test_the_voice_phrases_still_choose_at_the_draw() -> None:
    session, out = make_session("two-player", seed=4)
    session.start()
    session.play_bots()
    session.handle(Confirm(False))
    session.play_bots()
    table = build_phrases(session.view, confirming=True, cursor=None)
    assert table.intent("keep") == Act(DrawChoice(True))
    assert table.intent("discard") == Act(DrawChoice(False))
    assert table.intent("yes") == Confirm(True)  # said, not a reflex: it keeps
    discard = table.intent("discard")
    assert discard is not None
    session.handle(discard)
    assert out.last("draw.discarded")
