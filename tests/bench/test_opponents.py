"""The outside opponents of `bench bots`: legal, repeatable, and playing the rules of
thumb, the sure-trick count and the high bid they are described by."""

from __future__ import annotations

import random

import pytest

from tests.bots.helpers import cards, deal_with, in_match
from voice_spades.bench.opponents import OUTSIDE, make_opponent
from voice_spades.bench.opponents.bidding import count_bid, nil_hand, sure_tricks
from voice_spades.bench.opponents.common import allowed_for, unseen_cards, voids_of
from voice_spades.bench.opponents.high_bidder import HighBidder, high_bid, likely_tricks
from voice_spades.bench.opponents.pimc import _deal
from voice_spades.bench.opponents.rules import RuleBasedPlayer
from voice_spades.bots import decide
from voice_spades.engine import Bid, Card, Match, mask_of, profile

RULES = profile("cardgames")


def _hand_actions(name: str, seed: int) -> list[str]:
    match = Match(RULES, seed=seed)
    bots = [make_opponent(name, s, seed) for s in range(4)]
    out = []
    while not match.hand_scores:
        seat = match.to_act
        assert seat is not None
        action = decide(bots[seat], match.view(seat))
        assert match.is_legal(action)
        out.append(str(action))
        match.apply(action)
    return out


@pytest.mark.parametrize("name", OUTSIDE)
def test_opponents_play_whole_hands_legally_and_repeatably(name: str) -> None:
    assert _hand_actions(name, 3) == _hand_actions(name, 3)


def test_sure_trick_count() -> None:
    # Spades A K x x x: A, K and the fifth spade; side ace; a void with a spare spade.
    hand = mask_of(cards("AS KS 7S 5S 3S AH 9H 8H 4D 3D 2D 7D 6D"))
    assert sure_tricks(hand) == 5.0
    assert not nil_hand(hand)
    assert nil_hand(mask_of(cards("5S 3S 9H 8H 4H 4D 3D 2D 7D 6C 5C 3C 2C")))


def test_count_bid_nil_and_not_on_partners_nil() -> None:
    match = in_match(deal_with(RULES, {0: "5S 3S 9H 8H 4H 4D 3D 2D 7D 6C 5C 3C 2C",
                                       2: "4S 2S 7H 6H 5H 6D 5D 9D 8D 9C 8C 7C 4C"},
                               dealer=3))
    assert count_bid(match.view(0)) == Bid(0)
    match.apply(Bid(0))
    match.apply(Bid(3))
    assert nil_hand(match.view(2).hand)
    assert count_bid(match.view(2)) == Bid(1)


def test_pimc_deals_respect_shown_voids() -> None:
    hand = deal_with(RULES, {0: "AC KC", 1: "2C", 2: "3C 4C", 3: "5C 6C"},
                     avoid={1: "c"}, dealer=3)
    match = in_match(hand)
    for _ in range(4):
        seat = match.to_act
        assert seat is not None
        match.apply(decide(RuleBasedPlayer(seat), match.view(seat)))
    # Play until someone shows out of a suit, then every sampled deal keeps it void.
    for _ in range(16):
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        voids = voids_of(view)
        unseen = unseen_cards(view)
        allowed = allowed_for(view, voids, unseen)
        rng = random.Random(1)
        for _ in range(20):
            hands = _deal(view, allowed, unseen, rng)
            assert hands is not None
            for s in range(4):
                if s != seat:
                    assert hands[s] & ~allowed[s] == 0
                    assert hands[s].bit_count() == view.cards_held[s]
        match.apply(decide(RuleBasedPlayer(seat), view))


def _after(plays: str, fixed: dict[int, str], bids: list[int]) -> Match:
    """A match (dealer 3, so seat 0 leads) after the bids and the plays given."""
    match = in_match(deal_with(RULES, fixed, dealer=3))
    for bid in bids:
        match.apply(Bid(bid))
    for card in cards(plays):
        match.apply(card)
    return match


def test_rules_second_hand_low_third_hand_high() -> None:
    fixed = {0: "5H 2C", 1: "KH 3H 3C", 2: "AH 4H 4C", 3: "6H 5C"}
    second = _after("5H", fixed, [3, 3, 3, 3])
    assert decide(RuleBasedPlayer(1), second.view(1)) == Card.parse("3H")
    third = _after("5H 3H", fixed, [3, 3, 3, 3])
    assert decide(RuleBasedPlayer(2), third.view(2)) == Card.parse("AH")


def test_rules_ducks_when_partner_wins() -> None:
    fixed = {0: "AH 2C", 1: "3H 3C", 2: "KH 4H 4C", 3: "6H 5C"}
    match = _after("AH 3H", fixed, [3, 3, 3, 3])
    assert decide(RuleBasedPlayer(2), match.view(2)) == Card.parse("4H")


def test_rules_nil_bidder_plays_its_highest_losing_card() -> None:
    fixed = {0: "10H 2C", 1: "JH 9H 3H 3C", 2: "4H 4C", 3: "6H 5C"}
    match = _after("10H", fixed, [3, 0, 3, 3])
    assert decide(RuleBasedPlayer(1), match.view(1)) == Card.parse("9H")


def test_high_bidder_adds_likely_tricks_to_the_sure_count() -> None:
    # Sure: AS, KS, AH, KD (guarded), half for QC x x: 4.5, bid 4. Likely: the fourth
    # spade and the queen of clubs' other half: 6.
    hand = mask_of(cards("AS KS 7S 5S AH 9H 8H KD 3D 2D QC 6C 5C"))
    assert sure_tricks(hand) == 4.5
    assert likely_tricks(hand) == 1.5
    match = in_match(deal_with(RULES, {0: "AS KS 7S 5S AH 9H 8H KD 3D 2D QC 6C 5C"},
                               dealer=3))
    assert count_bid(match.view(0)) == Bid(4)
    assert high_bid(match.view(0)) == Bid(6)
    assert decide(HighBidder(0, 1), match.view(0)) == Bid(6)


def test_high_bidder_bids_over_the_count_on_random_deals() -> None:
    """Over 300 deals its bids are never under the sure count's, and its side's
    contract is far higher (6.8 tricks against 5.1 over 3,000 deals)."""
    over = 0
    for seed in range(300):
        match = Match(RULES, seed=seed)
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        high, count = high_bid(view), count_bid(view)
        assert high.tricks >= count.tricks
        over += high.tricks - count.tricks
    assert over / 300 > 0.6
