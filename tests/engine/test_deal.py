"""Dealing, the two-player draw, blind nil and its exchange, and rotation."""

from __future__ import annotations

import random

from tests.engine.helpers import raises_saying
from voice_spades.engine import (
    CARDS,
    Bid,
    BlindNilChoice,
    Card,
    CardDrawn,
    CardsExchanged,
    DrawChoice,
    DrawFinished,
    Exchange,
    HandDealt,
    HandState,
    Match,
    MatchEnd,
    Phase,
    profile,
)
from voice_spades.errors import IllegalActionError

C = Card.parse


def test_cards_dealt_one_at_a_time_from_dealers_left() -> None:
    rules = profile("pagat")
    deck = list(CARDS)
    rng = random.Random(4)
    hand = HandState.deal(rules, 2, random.Random(4))
    rng.shuffle(deck)
    # seat 3 (left of dealer 2) gets the 1st, 5th, 9th... card
    assert hand.hand_of(3) == sorted(deck[0::4], key=lambda c: c.index)
    assert hand.hand_of(0) == sorted(deck[1::4], key=lambda c: c.index)
    assert hand.first_player == 3 and hand.to_act == 3


def test_same_seed_same_deal_and_different_seed_differs() -> None:
    a = Match(profile("pagat"), seed=11)
    b = Match(profile("pagat"), seed=11)
    c = Match(profile("pagat"), seed=12)
    assert a.hand.hands == b.hand.hands and a.first_dealer == b.first_dealer
    assert a.hand.hands != c.hand.hands


def test_dealer_moves_clockwise_every_hand() -> None:
    # The first legal bid is nil: every side sinks 200 points a hand, so the match is
    # kept from ending at minus the target (this test is about the deal, not the end).
    match = Match(profile("cardgames", ending=MatchEnd.TARGET), seed=5, first_dealer=1)
    dealers = []
    for _ in range(5):
        dealers.append(match.hand.dealer)
        assert match.hand.first_player == (match.hand.dealer + 1) % 4
        while match.hand.phase is not Phase.OVER and match.hands_played == len(dealers) - 1:
            match.apply(match.legal_actions()[0])
    assert dealers == [1, 2, 3, 0, 1]


def test_opening_events_carry_each_hand() -> None:
    match = Match(profile("playroom", players=5), seed=1)
    dealt = next(e for e in match.opening_events() if isinstance(e, HandDealt))
    assert [len(h) for h in dealt.hands] == [10] * 5


def stock(*codes: str) -> list[Card]:
    """A stock starting with ``codes``, the rest of the deck after them in order."""
    head = [C(code) for code in codes]
    return head + [c for c in CARDS if c not in head]


def start_draw(top: list[Card], blind: tuple[bool, bool] = (False, False)) -> HandState:
    hand = HandState.from_stock(profile("two-player"), 0, top)
    assert hand.phase is Phase.BLIND_NIL and hand.to_act == 0
    hand.apply(BlindNilChoice(blind[0]))
    assert hand.to_act == 1
    hand.apply(BlindNilChoice(blind[1]))
    assert hand.phase is Phase.DRAW and hand.to_act == 0
    return hand


def test_draw_keep_puts_next_card_face_down_in_discards() -> None:
    hand = start_draw(stock("AS", "KH", "2C", "3C"))
    assert hand.draw_top() == C("AS")
    event = hand.apply(DrawChoice(True))[0]
    assert isinstance(event, CardDrawn) and event.received == C("AS") and event.kept
    assert hand.hand_of(0) == [C("AS")] and hand.discards == [C("KH").index]
    assert hand.seen_discards[0] == 0  # the face-down card was not seen
    assert hand.to_act == 1 and hand.draw_top() == C("2C")
    event = hand.apply(DrawChoice(False))[0]
    assert isinstance(event, CardDrawn) and event.received == C("3C") and not event.kept
    assert hand.hand_of(1) == [C("3C")] and hand.seen_discards[1] == C("2C").bit


def test_draw_runs_until_stock_is_gone_then_second_player_bids_and_leads() -> None:
    hand = start_draw(stock())
    events = []
    while hand.phase is Phase.DRAW:
        events += hand.apply(DrawChoice(len(events) % 3 == 0))
    assert [m.bit_count() for m in hand.hands] == [13, 13] and len(hand.discards) == 26
    assert isinstance(events[-1], DrawFinished)
    assert hand.phase is Phase.BID and hand.to_act == 1
    hand.apply(Bid(4))
    hand.apply(Bid(5))
    assert hand.phase is Phase.PLAY and hand.to_act == 1


def test_roles_swap_next_hand() -> None:
    match = Match(profile("two-player"), seed=3)
    first = match.hand.dealer
    while match.hands_played == 0:
        match.apply(match.legal_actions()[0])
    assert match.hand.dealer == 1 - first and match.hand.to_act == 1 - first


def test_blind_nil_then_exchange_up_to_three_from_discards() -> None:
    hand = start_draw(stock(), blind=(False, True))
    assert hand.bids == [None, Bid(0, blind=True)]
    while hand.phase is Phase.DRAW:
        hand.apply(DrawChoice(True))
    assert hand.phase is Phase.EXCHANGE and hand.to_act == 1
    give = tuple(hand.hand_of(1)[-3:])
    with raises_saying(IllegalActionError, "at most 3 cards"):
        hand.apply(Exchange(tuple(hand.hand_of(1)[:4])))
    with raises_saying(IllegalActionError, "You don't hold"):
        hand.apply(Exchange((hand.hand_of(0)[0],)))
    discards_before = set(hand.discards)
    event = hand.apply(Exchange(give))[0]
    assert isinstance(event, CardsExchanged) and event.given == give
    assert len(event.received) == 3 and {c.index for c in event.received} <= discards_before
    assert hand.hands[1].bit_count() == 13 and not any(hand.hands[1] & c.bit for c in give)
    assert len(hand.discards) == 26
    # North's blind nil stands as its bid; South (the first drawer) still bids.
    assert hand.phase is Phase.BID and hand.to_act == 0
    hand.apply(Bid(5))
    assert hand.phase is Phase.PLAY and hand.to_act == 1


def test_exchange_is_deterministic_from_the_hand_seed() -> None:
    def run() -> tuple[Card, ...]:
        hand = HandState.from_stock(profile("two-player"), 0, stock(), chance_seed=99)
        hand.apply(BlindNilChoice(True))
        hand.apply(BlindNilChoice(False))
        while hand.phase is Phase.DRAW:
            hand.apply(DrawChoice(False))
        event = hand.apply(Exchange(tuple(hand.hand_of(0)[:2])))[0]
        assert isinstance(event, CardsExchanged)
        return event.received
    assert run() == run()


def test_exchange_legal_actions_count() -> None:
    hand = start_draw(stock(), blind=(True, False))
    while hand.phase is Phase.DRAW:
        hand.apply(DrawChoice(True))
    assert len(hand.legal_actions()) == 1 + 13 + 78 + 286


def test_draw_refuses_other_actions() -> None:
    hand = start_draw(stock())
    with raises_saying(IllegalActionError, "not the time to play a card: the cards are "
                                                 "being drawn"):
        hand.apply(C("AS"))
    with raises_saying(IllegalActionError, "before the draw"):
        hand.apply(BlindNilChoice(True))
