"""Hard never makes the plays a human partner would call blunders."""

from __future__ import annotations

from tests.bots.helpers import bid_all, deal_with, play_cards, view_of
from voice_spades.bots import decide, make_bot
from voice_spades.engine import Card, HandState, Suit, profile


def hard_card(hand: HandState, seat: int, seed: int = 0) -> Card:
    """Hard's card for ``seat`` in this position."""
    action = decide(make_bot("hard", seat, hand.rules, seed=seed, time_budget=0.05),
                    view_of(hand, seat))
    assert isinstance(action, Card)
    assert hand.is_legal(action)
    return action


def test_does_not_ruff_partners_winner_when_last() -> None:
    """Partner's ace of hearts holds the trick; last to play, void in hearts: no spade."""
    rules = profile("pagat")
    hand = deal_with(rules, {0: "5H", 1: "AH", 2: "7H", 3: "2S 9S 4C QD"}, dealer=3,
                     avoid={3: "H"})
    bid_all(hand, [3, 3, 3, 3])
    play_cards(hand, "5H AH 7H")
    for seed in range(3):
        card = hard_card(hand, 3, seed)
        assert card.suit != Suit.SPADES
        assert card == min((c for c in hand.hand_of(3) if c.suit == card.suit),
                           key=lambda c: c.rank)


def test_does_not_overtake_partners_ace_in_third_seat() -> None:
    """Partner led the ace; nobody has shown out of hearts: no ruff, no waste."""
    rules = profile("pagat")
    hand = deal_with(rules, {0: "AH", 1: "3H", 2: "2S 9S 4C QD"}, dealer=3,
                     avoid={2: "H"})
    bid_all(hand, [3, 3, 3, 3])
    play_cards(hand, "AH 3H")
    for seed in range(3):
        assert hard_card(hand, 2, seed).suit != Suit.SPADES


def test_covers_partners_nil() -> None:
    """Partner bid nil and is winning with the king: take it over with the ace."""
    rules = profile("pagat")
    hand = deal_with(rules, {0: "5H", 1: "KH", 2: "3H", 3: "AH 4H"}, dealer=3)
    bid_all(hand, [4, 0, 4, 4])
    play_cards(hand, "5H KH 3H")
    for seed in range(3):
        assert hard_card(hand, 3, seed) == Card.parse("AH")


def test_throws_the_lowest_card_on_a_lost_trick() -> None:
    """The ace of hearts is led and we cannot beat it: the 3, not the king or the 9."""
    rules = profile("pagat")
    hand = deal_with(rules, {0: "AH", 1: "KH 9H 3H 4C 5C"}, dealer=3, avoid={1: "S"})
    bid_all(hand, [3, 4, 3, 2])
    play_cards(hand, "AH")
    for seed in range(3):
        assert hard_card(hand, 1, seed) == Card.parse("3H")
