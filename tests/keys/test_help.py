"""Help by phase: the keys for now first, a few at a time, stepped by the help key; every
key one key away; two-player keys only in two-player games."""

from __future__ import annotations

from tests.session.fakes import make_session
from voice_spades.commands import Ask, Confirm, PlayCurrent, Query, TypeDigit
from voice_spades.engine import Phase
from voice_spades.keys import decode, help_text, key_help, key_label, load_keymap, parse_key
from voice_spades.keys.help import PAGE_SIZE, now_items, phase_help
from voice_spades.keys.keymap import Keymap
from voice_spades.session import InputHooks, Session

KEYMAP = load_keymap()


def with_help(session: Session, keymap: Keymap = KEYMAP) -> Session:
    session.hooks = InputHooks(help_text=lambda: help_text(keymap), key_help=key_help(keymap))
    return session


def test_f1_says_the_keys_for_this_phase_first_a_few_at_a_time() -> None:
    session, out = make_session()
    with_help(session)
    session.start()
    session.play_bots()
    assert session.view.phase is Phase.BID and session.view.is_my_turn
    session.handle(Ask(Query.HELP))
    first = out.last().text
    assert first.startswith("Keys now, 1 of ")
    assert "0 to 9 type a bid" in first and "N bid nil" in first
    assert first.endswith("F1 or Down arrow for more, Up arrow back.")
    assert first.count(";") == PAGE_SIZE - 1
    session.handle(Ask(Query.HELP))
    assert out.last().text.startswith("Keys now, 2 of ") and out.last().text != first
    session.handle(Ask(Query.SCORES))  # another key: the help starts over
    session.handle(Ask(Query.HELP))
    assert out.last().text == first
    session.handle(TypeDigit(3))
    session.handle(PlayCurrent())
    session.play_bots()
    session.handle(Ask(Query.HELP))
    play = out.last().text
    assert "Enter play the card under the cursor" in play and "Left arrow previous card" in play


def test_the_pages_wrap_round_and_the_last_one_points_at_every_key() -> None:
    session, _ = make_session()
    session.start()
    context = session.context()
    items = now_items(KEYMAP, context)
    pages = -(-len(items) // PAGE_SIZE)
    last = phase_help(KEYMAP, context, pages - 1)
    assert last.endswith("F1 or Down arrow starts over, Up arrow back; question mark lists "
                         "every key.")
    assert phase_help(KEYMAP, context, pages) == phase_help(KEYMAP, context, 0)
    assert len(items) == len(set(items))


def test_two_player_keys_only_in_two_player_games() -> None:
    four, _ = make_session()
    four.start()
    everything = key_help(KEYMAP)(four.context(), None)
    assert everything.startswith("Keys: ") and "keep the card shown" not in everything
    assert "mark a card" not in " ".join(now_items(KEYMAP, four.context()))
    two, _ = make_session("two-player", seed=4)
    two.start()
    two.play_bots()
    assert "keep the card shown" in key_help(KEYMAP)(two.context(), None)


def test_a_question_puts_the_answer_keys_first() -> None:
    session, out = make_session()
    with_help(session)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(0))
    session.handle(PlayCurrent())  # "Bid nil? Yes or no?"
    session.handle(Ask(Query.HELP))
    said = out.last().text
    assert said.startswith("Keys now, 1 of ") and "Y yes; N no; Enter yes; at a choice" in said
    session.handle(Confirm(False))


def test_shift_f1_and_question_mark_give_every_key() -> None:
    assert KEYMAP.action_for("shift+f1") == "all_keys" and KEYMAP.action_for("?") == "all_keys"
    assert KEYMAP.action_for("f1") == "help" and KEYMAP.action_for("a") == "hint"
    assert KEYMAP.action_for("u") == "current_card"
    session, out = make_session()
    with_help(session)
    session.start()
    session.handle(Ask(Query.ALL_KEYS))
    assert out.last().text == help_text(KEYMAP, 4)


def test_a_terminal_s_shift_f1_is_read_and_named() -> None:
    assert decode(b"\x1b[1;2P\x1bOP\x1b[15;2~\x1b[1;5P") == ["shift+f1", "f1", "shift+f5", "f1"]
    assert parse_key("Shift+F1") == "shift+f1" and key_label("shift+f1") == "Shift F1"
