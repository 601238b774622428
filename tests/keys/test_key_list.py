"""Every key (?) is a list stepped a key at a time, an item a short line, with the keys
that step F1's pages; at a two-way choice F1 says its two answers first."""

from __future__ import annotations

from tests.session.fakes import RecordingOutput, make_session
from voice_spades.commands import Confirm
from voice_spades.engine import Phase
from voice_spades.keys import KeyboardInput, help_text, key_help, key_lister, load_keymap
from voice_spades.keys.help import key_list
from voice_spades.session import InputHooks, Session

KEYMAP = load_keymap()


def keyed(session: Session) -> KeyboardInput:
    session.hooks = InputHooks(help_text=lambda: help_text(KEYMAP), key_help=key_help(KEYMAP),
                               key_list=key_lister(KEYMAP))
    return KeyboardInput(session, KEYMAP)


def press(session: Session, keyboard: KeyboardInput, key: str) -> str:
    """Press ``key``; the last line said."""
    keyboard.press(key)
    while session.step():
        pass
    out = session.output
    assert isinstance(out, RecordingOutput)
    return out.last().text


def every_item(session: Session) -> list[str]:
    """The items of the list, stepped until it wraps round; each is in the one long line
    of every key (the answer keys after "When asked a question")."""
    context, whole = session.context(), help_text(KEYMAP, 4)
    items: list[str] = []
    while (line := key_list(KEYMAP, context, len(items))[0]) and not (
            items and line.startswith("1 of ")):
        item = line.split(": ", 1)[1].removesuffix(".").removeprefix("at a question, ")
        assert item in whole, item
        items.append(item)
    return items


def test_question_mark_steps_every_key_one_line_at_a_time() -> None:
    session, out = make_session()
    keyboard = keyed(session)
    session.start()
    session.play_bots()
    count = len(every_item(session))
    press(session, keyboard, "?")
    intro, first = out.texts[-2:]
    assert intro == (f"Every key, {count}, one at a time: question mark, Down arrow or period "
                     "for the next, Up arrow or comma back, Escape to leave.")
    assert first == f"1 of {count}: B your bid, or the bids in play."
    assert press(session, keyboard, "?") == f"2 of {count}: C cards on the table."
    assert press(session, keyboard, "down") == f"3 of {count}: F suit led."
    assert press(session, keyboard, ".").startswith(f"4 of {count}: V or I ")
    assert press(session, keyboard, "up") == f"3 of {count}: F suit led."
    assert press(session, keyboard, ",") == f"2 of {count}: C cards on the table."
    press(session, keyboard, "left")
    last = press(session, keyboard, "left")  # wraps round to the last item
    assert last == f"{count} of {count}: at a question, Escape silence, or cancel."
    cursor = session.cursor_card
    assert press(session, keyboard, "escape") == "Help closed."
    press(session, keyboard, "right")  # the arrows move the cursor again
    assert session.cursor_card != cursor and out.last().message_id != "help.keys"


def test_every_item_is_a_line_a_braille_display_shows_whole() -> None:
    session, _ = make_session()
    session.start()
    context = session.context()
    items = {key_list(KEYMAP, context, index)[0] for index in range(100)}
    assert len(items) == len(every_item(session)) > 40
    assert max(len(item) for item in items) <= 80  # an 80-cell display, no panning


def test_another_key_leaves_the_list_and_does_its_job() -> None:
    session, out = make_session(seed=3)
    keyboard = keyed(session)
    session.start()
    session.play_bots()
    press(session, keyboard, "?")
    press(session, keyboard, "h")
    assert out.last().message_id == "answer.hand"
    press(session, keyboard, "down")  # no list open: Down goes to the next suit
    assert out.last().message_id != "help.keys"
    press(session, keyboard, "?")
    press(session, keyboard, "3")
    press(session, keyboard, "enter")  # the bid is made; the bots play up to a new prompt
    session.play_bots()
    assert session.view.phase is Phase.PLAY
    assert session.game.turn.help.open is None  # a new prompt closed the list


def test_f1_pages_step_with_the_same_keys() -> None:
    session, _ = make_session()
    keyboard = keyed(session)
    session.start()
    session.play_bots()
    first = press(session, keyboard, "f1")
    assert first.startswith("Keys now, 1 of ")
    assert press(session, keyboard, "down").startswith("Keys now, 2 of ")
    assert press(session, keyboard, "f1").startswith("Keys now, 3 of ")
    assert press(session, keyboard, ",").startswith("Keys now, 2 of ")
    assert press(session, keyboard, "up") == first


def test_f1_at_a_two_way_choice_says_its_two_answers_first() -> None:
    session, _ = make_session("two-player", seed=4)
    keyboard = keyed(session)
    session.start()
    session.play_bots()
    assert session.view.phase is Phase.BLIND_NIL
    assert press(session, keyboard, "f1").startswith(
        "Keys now, 1 of 9: Y blind nil; N no blind nil: see your cards; Enter the question "
        "again; ")
    session.handle(Confirm(False))
    session.play_bots()
    assert session.view.phase is Phase.DRAW
    assert press(session, keyboard, "f1").startswith(
        "Keys now, 1 of 9: K keep the card shown; D discard the card shown; Enter the "
        "question again; ")
