"""Bidding: order, contracts, ranges and every legality rule."""

from __future__ import annotations

import random

from tests.engine.helpers import bid_all, deal_with, raises_saying, said
from voice_spades.engine import Bid, BiddingComplete, BidMade, HandState, Phase, profile
from voice_spades.errors import IllegalActionError

SOUTH, WEST, NORTH, EAST = range(4)


def test_vector_1_bidding_starts_left_of_dealer_and_sums_partners() -> None:
    hand = deal_with(profile("pagat"), [], dealer=SOUTH)
    assert hand.to_act == WEST
    events = []
    for tricks in (3, 1, 4, 4):  # West, North, East, South
        events += hand.apply(Bid(tricks))
    made = [(e.seat, e.bid.tricks) for e in events if isinstance(e, BidMade)]
    assert made == [(WEST, 3), (NORTH, 1), (EAST, 4), (SOUTH, 4)]
    assert hand.contracts() == (5, 7)
    done = events[-1]
    assert isinstance(done, BiddingComplete) and done.contracts == (5, 7)
    assert hand.phase is Phase.PLAY and hand.to_act == WEST


def test_bids_range_up_to_hand_size() -> None:
    for players, top in ((3, 17), (4, 13), (5, 10), (6, 8)):
        hand = HandState.deal(profile("playroom", players=players), 0, random.Random(1))
        assert [b.tricks for b in hand.legal_bids()] == list(range(top + 1))
        with raises_saying(IllegalActionError, f"Bids go from 0 \\(nil\\) to {top}"):
            hand.apply(Bid(top + 1))


def test_each_player_bids_once_in_turn() -> None:
    hand = deal_with(profile("pagat"), [], dealer=EAST)
    assert hand.to_act == SOUTH
    assert said(hand.refusal(Bid(3), WEST)) == "Waiting for South, not West."
    hand.apply(Bid(3))
    assert hand.to_act == WEST and said(hand.refusal(Bid(3), SOUTH)) == \
        "Waiting for West, not South."


def test_vector_9_no_hell_refuses_the_bid_making_thirteen() -> None:
    rules = profile("playroom", players=4, no_hell=True)
    hand = deal_with(rules, [], dealer=EAST)
    bid_all(hand, [3, 4, 3])
    legal = [b.tricks for b in hand.legal_bids()]
    assert 3 not in legal and {2, 4, 0, 13} <= set(legal)
    with raises_saying(IllegalActionError, "No hell: the bids may not add up to 13, so "
                                                 "you may not bid 3"):
        hand.apply(Bid(3))
    hand.apply(Bid(4))


def test_no_hell_only_limits_the_last_bidder() -> None:
    hand = deal_with(profile("playroom", players=3, no_hell=True), [], dealer=2)
    bid_all(hand, [10])
    assert len(hand.legal_bids()) == 18
    bid_all(hand, [5])
    assert 2 not in [b.tricks for b in hand.legal_bids()]


def test_suicide_one_partner_nil_other_at_least_four() -> None:
    rules = profile("playroom", players=4, suicide=True)
    hand = deal_with(rules, [], dealer=EAST)
    assert [b.tricks for b in hand.legal_bids()] == [0, *range(4, 14)]
    with raises_saying(IllegalActionError, "Suicide"):
        hand.apply(Bid(2))
    bid_all(hand, [5, 0])        # South 5, West nil
    assert [b.tricks for b in hand.legal_bids()] == [0]   # North must bid nil
    with raises_saying(IllegalActionError, "your partner bid 5, so you must bid nil"):
        hand.apply(Bid(4))
    bid_all(hand, [0])
    assert [b.tricks for b in hand.legal_bids()] == [0, *range(4, 14)]  # East: partner nil
    bid_all(hand, [0])           # both West and East nil: double nil allowed
    assert hand.phase is Phase.PLAY


def test_blind_nil_only_before_looking_and_only_two_player() -> None:
    hand = deal_with(profile("pagat"), [])
    with raises_saying(IllegalActionError, "Blind nil is not played with these rules"):
        hand.apply(Bid(0, blind=True))
    two = HandState.deal(profile("two-player"), 0, random.Random(2))
    assert two.phase is Phase.BLIND_NIL
    with raises_saying(IllegalActionError, "This is not the time to bid"):
        two.apply(Bid(0, blind=True))


def test_nil_is_always_allowed_and_is_zero() -> None:
    hand = deal_with(profile("classic-fr"), [])
    assert Bid(0) in hand.legal_bids()
    hand.apply(Bid(0))
    assert hand.bids[SOUTH] == Bid(0) and hand.bids[SOUTH].is_nil


def test_double_nil_can_be_switched_off() -> None:
    rules = profile("pagat").with_options(double_nil=False)
    hand = deal_with(rules, [], dealer=EAST)
    bid_all(hand, [0, 3])
    with raises_saying(IllegalActionError, "only one nil per side"):
        hand.apply(Bid(0))


def test_bidding_out_of_phase_is_refused() -> None:
    hand = deal_with(profile("pagat"), [])
    bid_all(hand, [3, 3, 3, 3])
    with raises_saying(IllegalActionError, "This is not the time to bid: it is time to "
                                                 "play a card"):
        hand.apply(Bid(3))
