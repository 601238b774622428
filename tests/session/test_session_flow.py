"""The session's answers to each kind of intent, with a recording output."""

from __future__ import annotations

import threading
import time

from tests.session.fakes import make_session
from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    JumpToSuit,
    Move,
    MoveCursor,
    NotUnderstood,
    PlayCurrent,
    Propose,
    Query,
    StartBid,
    TypeDigit,
)
from voice_spades.engine import NIL, Bid, Card, Phase, Suit
from voice_spades.narration import Verbosity
from voice_spades.session import InputEnded, KeyPress, Pacer


def at_human_bid(name: str = "pagat", **kw: object):  # type: ignore[no-untyped-def]
    session, out = make_session(name, **kw)  # type: ignore[arg-type]
    session.start()
    session.play_bots()
    assert session.view.phase is Phase.BID and session.view.is_my_turn
    return session, out


def at_human_play(name: str = "pagat", **kw: object):  # type: ignore[no-untyped-def]
    session, out = at_human_bid(name, **kw)
    session.handle(TypeDigit(3))
    session.handle(PlayCurrent())
    session.play_bots()
    assert session.view.phase is Phase.PLAY and session.view.is_my_turn
    return session, out


def test_the_start_greets_deals_and_prompts() -> None:
    session, out = make_session()
    session.start()
    assert out.ids[:2] == ["session.welcome", "hand.dealt_first"]
    assert out.texts[0] == "Voice Spades, pagat. F1 for help."
    assert out.texts[1].startswith("Spades ")
    session.play_bots()
    assert out.last().text == "Your bid."


def test_an_illegal_play_is_explained_and_changes_nothing() -> None:
    session, out = at_human_play()
    view = session.view
    illegal = next(c for c in view.hand_cards if c not in view.legal)
    saved = session.match.to_json()
    session.handle(Act(illegal))
    assert out.last().message_id == "error.illegal"
    assert out.last().text.startswith(("You must follow", "You can't lead a spade"))
    assert session.match.to_json() == saved
    session.handle(Act(Card.parse("2C") if Card.parse("2C") not in view.hand_cards
                       else Card.parse("3C")))
    assert "don't hold" in out.last().text or out.last().message_id != "error.illegal"


def test_acting_out_of_turn_says_whose_turn_it_is() -> None:
    session, out = make_session()
    session.start()
    assert session.match.to_act != 0
    session.handle(Act(Bid(3)))
    assert out.last().message_id == "error.not_your_turn"
    assert "turn to bid" in out.last().text
    session.handle(TypeDigit(4))
    assert out.last().message_id == "bid.not_now"


def test_typed_bids_need_enter_and_reset_when_too_big() -> None:
    session, out = at_human_bid()
    session.handle(TypeDigit(1))
    assert out.last().text == "1. Press Enter to bid."
    session.handle(TypeDigit(2))
    assert out.last().text.startswith("12.")
    session.handle(TypeDigit(5))  # 125 is no bid: start again from 5
    assert out.last().text.startswith("5.")
    session.handle(Cancel())
    assert out.last().text == "Cancelled."
    session.handle(TypeDigit(7))
    session.handle(StartBid())  # B: the prompt again, and a fresh start
    assert out.last().text == "Your bid." and session.context().typed_bid == ""
    session.handle(PlayCurrent())
    assert out.last().message_id == "bid.nothing_typed"
    session.handle(TypeDigit(0))
    assert out.last().text.startswith("nil.")
    session.handle(PlayCurrent())  # nil is asked about, as the nil key asks (issue 10)
    assert out.last().text == "Bid nil? Yes or no?"
    session.handle(Confirm(True))
    assert out.last("bid.made").text == "You bid nil."


def test_no_hell_refusal_is_in_the_prompt_and_in_the_error() -> None:
    for seed in range(40):
        session, out = make_session("playroom", players=4, seed=seed, no_hell=True)
        session.start()
        session.play_bots()
        if session.view.bids.count(None) == 1:
            break
    else:
        raise AssertionError("no deal where the human bids last")
    prompt = out.last("prompt.bid").text
    assert "No hell" in prompt
    forbidden = 13 - sum(b.tricks for b in session.view.bids if b is not None)
    for digit in str(forbidden):
        session.handle(TypeDigit(int(digit)))
    session.handle(PlayCurrent())
    assert out.last().message_id == "error.illegal" and "No hell" in out.last().text
    assert session.view.is_my_turn


def test_propose_asks_and_waits_for_yes_or_no() -> None:
    session, out = at_human_bid()
    session.handle(Propose(Act(NIL), "Bid nil?"))
    assert out.last().text == "Bid nil? Yes or no?"
    assert session.question_pending and session.context().question == "Bid nil?"
    session.handle(Ask(Query.HAND))  # questions wait while you look around
    assert session.question_pending
    session.handle(Confirm(False))
    assert out.last().text == "Cancelled." and session.view.is_my_turn
    session.handle(Propose(Act(NIL), "Bid nil?"))
    session.handle(Cancel())
    assert not session.question_pending
    session.handle(Confirm(True))
    assert out.last().text == "There is no question to answer."
    session.handle(Propose(Act(NIL), "Bid nil?"))
    session.handle(Confirm(True))
    assert "You bid nil." in out.texts


def test_propose_of_an_illegal_action_is_refused_without_asking() -> None:
    session, out = at_human_play()
    illegal = next(c for c in session.view.hand_cards if c not in session.view.legal)
    session.handle(Propose(Act(illegal), "Play it?"))
    assert out.last().message_id == "error.illegal"
    assert not session.question_pending


def test_not_understood_asks_to_say_again() -> None:
    session, out = make_session()
    session.handle(NotUnderstood("blorp"))
    assert out.last().text == "Sorry, say again."
    session.verbosity = Verbosity.VERBOSE
    session.handle(NotUnderstood("blorp"))
    assert "blorp" in out.last().text


def test_cursor_moves_by_suit_and_card_and_plays_with_enter() -> None:
    session, out = at_human_play()
    hand = session.view.hand_cards
    session.handle(MoveCursor(Move.HIGHEST))
    top = session.cursor_card
    assert top is not None and top == max(c for c in hand if c.suit == top.suit)
    session.handle(MoveCursor(Move.LOWEST))
    assert session.cursor_card == min(c for c in hand if c.suit == top.suit)
    session.handle(MoveCursor(Move.NEXT_SUIT))
    assert session.cursor_card is not None and session.cursor_card.suit != top.suit
    legal = [a for a in session.view.legal if isinstance(a, Card)]
    target = legal[0]
    session.handle(JumpToSuit(target.suit))
    assert out.last().message_id == "answer.suit"
    while session.cursor_card != target:
        session.handle(MoveCursor(Move.NEXT_CARD))
    assert ", not playable" not in out.last().text
    session.handle(PlayCurrent())
    assert target not in session.view.hand_cards


def test_every_query_answers_whoever_is_to_act() -> None:
    session, out = make_session()
    session.start()
    for query in Query:
        before = len(out.lines)
        session.handle(Ask(query, Suit.HEARTS if query is Query.SUIT else None))
        assert len(out.lines) == before + 1, query
        assert out.last().text
    assert session.match.to_act != 0


def test_commands_repeat_verbosity_new_game_and_quit() -> None:
    session, out = at_human_bid()
    session.handle(Command(Control.REPEAT))
    assert out.texts[-1] == out.texts[-2]
    session.handle(Command(Control.VERBOSITY))
    assert out.last().text == "Verbosity verbose."
    session.handle(Command(Control.VERBOSITY))
    assert out.last().text == "Verbosity brief."
    session.handle(Command(Control.FASTER))
    assert out.last().message_id == "session.no_speech"
    old_seed = session.settings.seed
    session.handle(Command(Control.NEW_GAME))
    assert session.question_pending
    session.handle(Confirm(False))
    assert session.settings.seed == old_seed
    session.handle(Command(Control.NEW_GAME))
    session.handle(Confirm(True))
    assert session.settings.seed != old_seed and "New game." in out.texts
    session.handle(Propose(Command(Control.SAVE_AND_QUIT), "Save and quit?"))
    assert out.last().text.startswith("Save and quit?") and session.running
    session.handle(Confirm(False))
    assert session.running
    session.handle(Propose(Command(Control.SAVE_AND_QUIT), "Save and quit?"))
    session.handle(Confirm(True))
    assert out.last().text == "Game saved. Goodbye." and not session.running


def test_context_gives_the_voice_layer_what_it_needs() -> None:
    session, _ = at_human_play()
    context = session.context()
    assert context.view.is_my_turn and context.view.legal
    assert context.cursor == session.cursor_card and context.question is None
    assert not context.over


def test_listeners_hear_of_every_change() -> None:
    session, _ = at_human_bid()
    seen = []
    session.listeners.append(seen.append)
    session.handle(TypeDigit(2))
    assert seen[-1].typed_bid == "2"
    session.handle(PlayCurrent())
    assert not seen[-1].view.is_my_turn


def test_intents_from_another_thread_are_answered_while_running() -> None:
    session, out = make_session()
    session.start()
    runner = threading.Thread(target=session.run)
    runner.start()
    assert session.waiting.wait(5)  # the bots bid, then the human is waited for
    out.changed.clear()
    session.submit(Ask(Query.SCORES))
    assert out.changed.wait(2) and out.last().message_id == "answer.scores"
    session.submit(KeyPress("Z", lambda pending: None))
    deadline = time.monotonic() + 2
    while out.last().message_id != "error.unknown_key" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert out.last().text == "Z does nothing here. Press F1 for the keys."
    session.submit(InputEnded())
    runner.join(5)
    assert not runner.is_alive() and session.stopped.is_set()
    assert out.last().text == "Input ended. Game saved. Goodbye."


def test_bots_wait_for_the_narrator_but_keys_are_answered_at_once() -> None:
    session, out = make_session()
    session.start()
    out.busy = True
    runner = threading.Thread(target=session.run)
    runner.start()
    try:
        time.sleep(0.3)
        moves = session.match.hand.actions[:]
        assert moves == [], "a bot acted while the narrator was still speaking"
        session.submit(Ask(Query.WHOSE_TURN))
        deadline = time.monotonic() + 1
        while out.last().message_id != "turn.other" and time.monotonic() < deadline:
            time.sleep(0.005)
        assert out.last().message_id == "turn.other"
        out.busy = False
        assert session.waiting.wait(5)  # the bots went on once speech was done
        assert session.view.is_my_turn
    finally:
        session.submit(InputEnded())
        runner.join(5)


def test_bots_wait_for_the_narrator_however_long_it_speaks() -> None:
    # They used to stop waiting after 20 s: a long help let a bot's bid go unheard.
    session, out = make_session()
    clock = [0.0]
    session.ports.pacer = Pacer(out.is_busy, min_gap=0.0, clock=lambda: clock[0])
    session.start()
    out.busy = True
    for _ in range(5):
        clock[0] += 600.0
        assert not session.step(0.01)
    assert session.match.hand.actions == []
    session.submit(Ask(Query.SCORES))  # keys are still answered while the bots wait
    assert session.step(0.01) and out.last().message_id == "answer.scores"
    out.busy = False  # speech is done (text only, or the speaker failed: never busy)
    assert session.step(0.01)
    assert len(session.match.hand.actions) == 1


def test_stale_card_plays_are_dropped_and_the_trick_summary_says_who_played_what() -> None:
    session, out = at_human_play()
    assert "trick.won" not in out.ids
    out.busy = True  # the narrator is behind: earlier plays of the trick are still queued
    session.handle(Act(session.view.legal[0]))
    session.play_bots()
    assert out.cancelled[0] == "trick:1:1"
    summary = out.last("trick.won_summary").text
    assert " won the trick with the " in summary and "you " in summary
    assert summary.count(" of ") >= 5  # the winning card and all four plays
