"""Whole matches driven through the Session by scripted intents, for every profile."""

from __future__ import annotations

import random

import pytest

from tests.session.fakes import RecordingOutput, make_session
from voice_spades.commands import (
    Ask,
    Confirm,
    JumpToSuit,
    MarkCard,
    Move,
    MoveCursor,
    PlayCurrent,
    Query,
    TypeDigit,
)
from voice_spades.engine import Bid, BlindNilChoice, Card, DrawChoice, Exchange, Phase
from voice_spades.session import Session


def play_turn(session: Session, out: RecordingOutput, rng: random.Random) -> None:
    """Take one of the human's turns the way a player would: by keys."""
    view = session.view
    action = rng.choice(view.legal)
    before = len(out.lines)
    if isinstance(action, Bid):
        for digit in str(action.tricks):
            session.handle(TypeDigit(int(digit)))
        session.handle(PlayCurrent())
        if action.is_nil:  # 0 then Enter asks "Bid nil?", as the nil key does
            assert session.question_text == "Bid nil?"
            session.handle(Confirm(True))
        assert out.last("bid.made").text.startswith("You bid")
    elif isinstance(action, Card):
        session.handle(Ask(Query.TABLE))
        session.handle(JumpToSuit(action.suit))
        while session.cursor_card != action:
            session.handle(MoveCursor(Move.NEXT_CARD))
        session.handle(PlayCurrent())
        played = [line for line in out.lines[before:]
                  if line.message_id in ("card.played", "card.led", "trick.won_last")]
        ends_the_hand = len(view.hand_cards) == 1 and \
            len(view.trick) == session.match.rules.players - 1
        if ends_the_hand and not played:  # the forced last card: the trick's result only
            assert out.last("trick.won") in out.lines[before:], out.texts[before:]
        else:
            assert played and played[0].text.startswith("You"), out.texts[before:]
    elif isinstance(action, DrawChoice):
        assert session.question_pending
        session.handle(Confirm(action.keep))
    elif isinstance(action, BlindNilChoice):
        assert session.question_pending
        session.handle(Confirm(action.declare))
    else:
        assert isinstance(action, Exchange)
        session.handle(PlayCurrent())
    assert "error.illegal" not in out.ids[before:], out.texts[before:]


def play_match(session: Session, out: RecordingOutput, seed: int, max_turns: int = 3000) -> None:
    rng = random.Random(seed)
    session.start()
    for _ in range(max_turns):
        session.play_bots()
        if session.match.is_over:
            return
        play_turn(session, out, rng)
    pytest.fail("the match did not end")


CASES = [("pagat", None), ("classic-fr", None), ("cardgames", None), ("playroom", 3),
         ("playroom", 4), ("playroom", 5), ("playroom", 6)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_whole_match_can_be_played_by_intents(name: str, players: int | None) -> None:
    session, out = make_session(name, players=players, target=100, seed=11)
    play_match(session, out, seed=5)
    assert session.match.is_over
    # Issue 48: one short line per side (per player at five or six) with its score; a
    # new hand said with its cards, the first one after the welcome.
    assert {"hand.dealt_first", "bid.made", "bidding.complete", "card.led",
            "card.played", "trick.won", "score.side"} <= set(out.ids)
    assert not {"hand.started", "score.totals"} & set(out.ids)  # said only when verbose
    hands = session.match.view(0).hand_number
    assert out.ids.count("score.side") == hands * len(session.match.rules.sides)
    assert out.ids[-1] == "prompt.match_over"
    assert any(i in out.ids for i in ("match.won", "match.won_side", "match.lost"))
    assert "prompt.bid_any" in out.ids and any(i.startswith("prompt.") for i in out.ids)


def test_playroom_no_hell_and_quicksand_play_to_the_end() -> None:
    session, out = make_session("playroom", players=4, target=100, seed=2, no_hell=True,
                                quicksand=True)
    play_match(session, out, seed=9)
    assert session.match.is_over


def test_suicide_bids_are_explained_in_the_prompt() -> None:
    session, out = make_session("playroom", players=4, seed=2, suicide=True)
    session.start()
    rng = random.Random(3)
    for _ in range(40):
        session.play_bots()
        play_turn(session, out, rng)
    prompts = [t for i, t in zip(out.ids, out.texts, strict=True) if i == "prompt.bid"]
    assert prompts and all("Suicide" in t for t in prompts)


def test_two_player_match_with_blind_nil_and_exchange() -> None:
    session, out = make_session("two-player", target=150, seed=4)
    session.start()
    rng = random.Random(1)
    # Hand 1: declare blind nil at once, draw, then give back two cards.
    session.play_bots()
    assert session.view.phase is Phase.BLIND_NIL
    assert session.question_text is not None and "Blind nil" in session.question_text
    session.handle(Confirm(True))
    assert out.last("blind_nil.declared").text == "You declared blind nil!"
    while session.view.phase in (Phase.BLIND_NIL, Phase.DRAW):
        session.play_bots()
        if session.view.phase is Phase.DRAW and session.view.is_my_turn:
            assert out.last().message_id == "prompt.draw"
            assert out.last().text.startswith("You see the ")
            session.handle(Confirm(rng.random() < 0.5))
    session.play_bots()
    assert session.view.phase is Phase.EXCHANGE and session.view.is_my_turn
    assert out.last("prompt.exchange").text.startswith("Blind nil exchange: mark up to 3")
    first = session.cursor_card
    session.handle(MarkCard())
    session.handle(MoveCursor(Move.NEXT_SUIT))
    second = session.cursor_card
    session.handle(MarkCard())
    session.handle(MoveCursor(Move.NEXT_CARD))
    session.handle(MarkCard())
    session.handle(MarkCard())  # unmark the third again
    assert out.last().message_id == "mark.off"
    assert session.context().marked == (first, second)
    session.handle(PlayCurrent())
    exchanged = out.last("exchange.you").text
    assert exchanged.startswith("You gave back") and "received" in exchanged
    assert first not in session.view.hand_cards and second not in session.view.hand_cards
    # The rest of the match, by keys.
    for _ in range(3000):
        session.play_bots()
        if session.match.is_over:
            break
        play_turn(session, out, rng)
    assert session.match.is_over
    # Issue 10: a nil's result is said in its side's result line ("You: bid blind nil,
    # took 0; blind nil made, plus 200.").
    assert any("blind nil made" in t or "blind nil failed" in t for t in out.texts
               if t.startswith("You: bid blind nil"))
