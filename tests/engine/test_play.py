"""Trick play: following suit, breaking spades, winners, leads and plain-word refusals."""

from __future__ import annotations

import pytest

from tests.engine.helpers import bid_all, cards, deal_with, raises_saying, said
from voice_spades.engine import (
    Card,
    FirstLead,
    HandState,
    Message,
    Phase,
    SpadesBroken,
    Suit,
    TrickWon,
    profile,
)
from voice_spades.errors import IllegalActionError

SOUTH, WEST, NORTH, EAST = range(4)
C = Card.parse


def ready(fixed: list[str], dealer: int = EAST, name: str = "pagat",
          avoid: dict[int, str] | None = None) -> HandState:
    """A hand dealt with fixed cards, bids done, South to lead (dealer East)."""
    hand = deal_with(profile(name), fixed, dealer, avoid)
    bid_all(hand, [3, 3, 3, 3])
    return hand


def test_vector_4_two_of_spades_beats_ace_of_hearts_only_when_void() -> None:
    hand = ready(["AH 3C", "2S 4H 3D", "5H", "6H"], avoid={WEST: "H"})  # West holds a heart
    hand.apply(C("AH"))
    with pytest.raises(IllegalActionError) as err:
        hand.apply(C("2S"))
    assert said(err.value) == "You must follow hearts: you hold the 4 of hearts."
    assert err.value.message == Message("refusal.must_follow", suit=Suit.HEARTS,
                                        held=(C("4H"),))
    assert hand.to_act == WEST and hand.hands[WEST] >> C("2S").index & 1  # nothing changed

    void = ready(["AH 3C", "2S 3D", "5H", "6H"], avoid={WEST: "H"})  # West has no heart
    void.apply(C("AH"))
    events = void.apply(C("2S"))
    assert any(isinstance(e, SpadesBroken) for e in events)
    void.apply(C("5H"))
    won = void.apply(C("6H"))[-1]
    assert isinstance(won, TrickWon) and won.winner == WEST and won.winning_card == C("2S")
    assert void.to_act == WEST and void.tricks_won == [0, 1, 0, 0]


def test_follow_suit_message_lists_the_cards() -> None:
    hand = ready(["AH", "4H 9H KH 2S", "5H", "6H"], avoid={WEST: "H"})
    hand.apply(C("AH"))
    with raises_saying(IllegalActionError, "you hold the 4, 9 and king of hearts"):
        hand.apply(C("2S"))


def test_highest_of_suit_led_wins_without_spades() -> None:
    hand = ready(["10D", "KD", "2C", "AD"], avoid={NORTH: "D"})
    for code in ("10D", "KD", "2C", "AD"):
        events = hand.apply(C(code))
    won = events[-1]
    assert isinstance(won, TrickWon) and won.winner == EAST and hand.leader == EAST


def test_highest_spade_wins() -> None:
    hand = ready(["AD", "3S", "KS", "AC"], name="classic-fr",
                 avoid={WEST: "D", NORTH: "D", EAST: "D"})
    hand.apply(C("AD"))
    hand.apply(C("3S"))
    hand.apply(C("KS"))
    won = hand.apply(C("AC"))[-1]
    assert isinstance(won, TrickWon) and won.winner == NORTH


def test_no_spade_lead_before_broken_unless_only_spades() -> None:
    hand = ready(["AS 2D"])
    with raises_saying(IllegalActionError, "You can't lead a spade yet: spades are "
                                                 "not broken"):
        hand.apply(C("AS"))
    assert C("AS") not in hand.legal_actions()
    all_spades = " ".join(f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6",
                                            "5", "4", "3", "2"))
    only = ready([all_spades])
    assert len(only.legal_actions()) == 13
    events = only.apply(C("AS"))
    assert not any(isinstance(e, SpadesBroken) for e in events)
    assert not only.spades_broken


def test_two_player_forced_spade_lead_breaks_spades() -> None:
    rules = profile("two-player")
    hand = HandState.from_stock(rules, 0, [C(code) for code in _draw_stock_giving_north_spades()])
    for _ in range(2):
        hand.apply(_blind_no())
    while hand.phase is Phase.DRAW:
        from voice_spades.engine import DrawChoice
        hand.apply(DrawChoice(True))
    bid_all(hand, [3, 3])
    assert hand.to_act == 1 and hand.hands[1] == hand.hands[1] & (((1 << 13) - 1) << 39)
    events = hand.apply(hand.hand_of(1)[0])
    assert any(isinstance(e, SpadesBroken) for e in events) and hand.spades_broken


def _blind_no():
    from voice_spades.engine import BlindNilChoice
    return BlindNilChoice(False)


def _draw_stock_giving_north_spades() -> list[str]:
    # South (dealer) draws first and keeps the top card; North keeps its top card.
    # Pairs: (South keeps, discarded), (North keeps, discarded)...
    spades = [f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3",
                                "2")]
    others = [c.code for c in deck_without(spades)]
    stock: list[str] = []
    for i in range(13):
        stock += [others.pop(), others.pop(), spades[i], others.pop()]
    return stock


def deck_without(codes: list[str]) -> list[Card]:
    from voice_spades.engine import CARDS
    return [c for c in CARDS if c.code not in codes]


def test_dealers_left_leads_first_and_winner_leads_next() -> None:
    hand = deal_with(profile("pagat"), [], dealer=NORTH)
    bid_all(hand, [2, 2, 2, 2])
    assert hand.to_act == EAST and hand.trick_number == 1


def test_two_of_clubs_first_lead_variant() -> None:
    rules = profile("pagat").with_options(first_lead=FirstLead.TWO_OF_CLUBS)
    hand = deal_with(rules, ["AH", "KH", "2C 3C"], dealer=EAST)
    bid_all(hand, [2, 2, 2, 2])
    assert hand.to_act == NORTH
    assert hand.legal_actions() == [C("2C")]
    with raises_saying(IllegalActionError, "must be the 2 of clubs"):
        hand.apply(C("3C"))


def test_cards_you_do_not_hold_and_wrong_phase() -> None:
    hand = deal_with(profile("pagat"), ["AH"], dealer=EAST)
    with raises_saying(IllegalActionError, "not the time to play a card: it is time "
                                           "to bid"):
        hand.apply(C("AH"))
    bid_all(hand, [1, 1, 1, 1])
    missing = next(c for c in (C("2C"), C("3C"), C("2D")) if not hand.hands[0] & c.bit)
    spoken = f"{missing.rank} of {missing.suit.name.lower()}"
    assert said(hand.refusal(missing)) == f"You don't hold the {spoken}."
    with raises_saying(IllegalActionError, f"You don't hold the {spoken}"):
        hand.apply(missing)


def test_thirteen_tricks_end_the_hand() -> None:
    hand = ready([])
    while hand.phase is Phase.PLAY:
        hand.apply(hand.legal_actions()[0])
    assert sum(hand.tricks_won) == 13 and len(hand.completed) == 13
    assert hand.is_over and hand.legal_actions() == []
    with raises_saying(IllegalActionError, "The hand is over"):
        hand.apply(C("AS"))


def test_legal_cards_follow_suit_or_anything_when_void() -> None:
    hand = ready(["2H 3H", "4H AD KD QD JD"], avoid={WEST: "H"})
    hand.apply(C("2H"))
    assert hand.legal_actions() == [C("4H")]
    hand2 = ready(["2H 3H", "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D AS"])
    hand2.apply(C("2H"))
    assert len(hand2.legal_actions()) == 13


def test_helper_cards_builds_card_lists() -> None:
    assert cards("AS 10H") == [C("AS"), C("10H")]
