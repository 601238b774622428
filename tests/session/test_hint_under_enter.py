"""After the hint (A), Enter does what it advised: the cursor is on the hinted card, or
the hinted bid is made while no digit is typed, and the hint says so."""

from __future__ import annotations

from tests.session.fakes import make_session
from voice_spades.bots.explain import advise
from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Confirm,
    MarkCard,
    Move,
    MoveCursor,
    PlayCurrent,
    Query,
    TypeDigit,
)
from voice_spades.engine import Bid, Card, DrawChoice, Exchange, Phase
from voice_spades.narration.catalog import set_language
from voice_spades.session import Session


def hinted(session: Session) -> object:
    return advise(session.view, session.match.seed).action


def test_after_a_hint_enter_plays_the_hinted_card() -> None:
    session, out = make_session(seed=3)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(3))
    session.handle(PlayCurrent())
    moved = 0
    for _ in range(6):
        session.play_bots()
        assert session.view.phase is Phase.PLAY and session.view.is_my_turn
        session.handle(MoveCursor(Move.NEXT_SUIT))  # the cursor somewhere of its own
        before, advised = session.cursor_card, hinted(session)
        assert isinstance(advised, Card)
        moved += before != advised
        session.handle(Ask(Query.HINT))
        line = out.last()
        assert line.message_id == "hint.play" and line.text.endswith(" Enter plays it.")
        assert session.cursor_card == advised
        session.handle(PlayCurrent())  # named by the hint, so heard: played at once
        assert advised not in session.view.hand_cards
    assert moved >= 2  # the hint moved the cursor, not only found it there


def test_after_a_bid_hint_enter_bids_it_and_digits_or_escape_take_over() -> None:
    session, out = make_session(seed=4)
    session.start()
    session.play_bots()
    advised = hinted(session)
    assert isinstance(advised, Bid) and advised.tricks > 0
    session.handle(Ask(Query.HINT))
    assert out.last().text.endswith(" Enter bids it.")
    session.handle(Cancel())  # Escape drops it: Enter asks for a bid again
    session.handle(PlayCurrent())
    assert out.last().message_id == "bid.nothing_typed" and session.view.phase is Phase.BID
    session.handle(Ask(Query.HINT))
    session.handle(PlayCurrent())
    assert f"You bid {advised.tricks}." in out.texts
    again, out2 = make_session(seed=4)
    again.start()
    again.play_bots()
    again.handle(Ask(Query.HINT))
    typed = 1 if advised.tricks != 1 else 2
    again.handle(TypeDigit(typed))  # a typed bid wins over the hinted one
    again.handle(PlayCurrent())
    assert f"You bid {typed}." in out2.texts


def test_a_nil_hint_is_asked_about_as_a_typed_nil() -> None:
    session, out = make_session(seed=5)
    session.start()
    session.play_bots()
    assert hinted(session) == Bid(0)
    session.handle(Ask(Query.HINT))
    session.handle(PlayCurrent())
    assert out.last().text == "Bid nil? Yes or no?" and session.view.phase is Phase.BID


def test_the_hint_names_the_key_in_italian_and_french() -> None:
    endings = {"it": " Invio la dichiara.", "fr": " Entrée l'annonce."}
    for language, ending in endings.items():
        set_language(language)
        try:
            session, out = make_session(seed=5)
            session.start()
            session.play_bots()
            session.handle(Ask(Query.HINT))
            assert out.last().text.endswith(ending), out.last().text
        finally:
            set_language("en")


def test_an_exchange_hint_marks_the_cards_and_enter_gives_them_back() -> None:
    session, out = make_session("two-player", target=150, seed=4)
    session.start()
    session.play_bots()
    session.handle(Confirm(True))  # blind nil: the exchange follows the draw
    while session.view.phase in (Phase.BLIND_NIL, Phase.DRAW):
        session.play_bots()
        if session.view.phase is Phase.DRAW and session.view.is_my_turn:
            session.handle(Act(DrawChoice(True)))
    session.play_bots()
    assert session.view.phase is Phase.EXCHANGE and session.view.is_my_turn
    session.handle(MarkCard())  # a mark of the player's own, which the hint replaces
    advised = hinted(session)
    assert isinstance(advised, Exchange) and len(advised.cards) == 3
    session.handle(Ask(Query.HINT))
    assert out.last().text.endswith(" They are marked: Enter gives them back.")
    assert session.context().marked == advised.cards
    session.handle(PlayCurrent())
    assert session.view.phase is not Phase.EXCHANGE
    assert not set(advised.cards) & set(session.view.hand_cards)
