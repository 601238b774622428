"""Each level's bidding on hand-made hands."""

from __future__ import annotations

import random

from tests.bots.helpers import bid_all, deal_with, variant_profile, view_of
from voice_spades.bots import decide, make_bot
from voice_spades.bots.hand_value import estimate_tricks, nil_danger
from voice_spades.bots.hard import HardBot
from voice_spades.bots.medium import medium_bid
from voice_spades.bots.table import Table, match_value
from voice_spades.engine import Bid, HandState, Match, profile, score_hand

STRONG = "AS KS 10S 2S AH KH 3H AD 4D 5D 2C 3C 4C"
WEAK = "2S 3S 4H 5H 6H 7D 8D 9D 2C 3C 4C 5C 6C"
SAFE_NIL = "2S 3S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C"


def first_bid(level: str, hand_text: str, name: str = "pagat", earlier: list[int] | None = None,
              budget: float = 0.15, **variants: bool) -> Bid:
    """The bid ``level`` makes holding ``hand_text`` after the ``earlier`` bids."""
    rules = variant_profile(name, variants=variants)
    earlier = earlier or []
    seat = len(earlier)
    hand = deal_with(rules, {seat: hand_text}, dealer=3)
    bid_all(hand, earlier)
    bot = make_bot(level, seat, rules, seed=1, time_budget=budget)
    action = decide(bot, view_of(hand, seat))
    assert isinstance(action, Bid)
    assert hand.is_legal(action)
    return action


def test_easy_counts_aces_kings_and_high_spades() -> None:
    """AS KS 10S + AH KH + AD: six."""
    assert first_bid("easy", STRONG) == Bid(6)


def test_easy_never_bids_nil_by_accident() -> None:
    """A hand with nothing to count still bids 1."""
    assert first_bid("easy", WEAK) == Bid(1)


def test_easy_moves_off_a_refused_bid() -> None:
    """No hell: bids 3, 4, 3 forbid a last 3; Easy's count of 3 becomes a legal bid."""
    bid = first_bid("easy", "AS KS QS 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C", "playroom",
                    earlier=[3, 4, 3], no_hell=True)
    assert bid.tricks != 3


def test_medium_counts_a_strong_hand_high() -> None:
    """Top spades with length and two side aces: at least five."""
    assert first_bid("medium", STRONG).tricks >= 5


def test_medium_bids_nil_on_a_safe_hand() -> None:
    """Nothing but small cards: nil."""
    assert first_bid("medium", SAFE_NIL) == Bid(0)


def test_medium_never_nils_with_the_ace_of_spades() -> None:
    """The ace of spades is a sure trick."""
    assert first_bid("medium", "AS 3S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C").tricks >= 1


def test_medium_does_not_nil_when_partner_did() -> None:
    """Partner (two seats earlier) bid nil: no second nil."""
    assert first_bid("medium", SAFE_NIL, earlier=[0, 3]).tricks >= 1


def test_medium_takes_earlier_bids_into_account() -> None:
    """The same hand bids less after the table has already bid most of the tricks."""
    hand = "AS KS 4S 3S AH KH 3H 2H AD 4D 5D 2C 3C"
    low = first_bid("medium", hand, earlier=[1, 1, 1])
    high = first_bid("medium", hand, earlier=[5, 4, 4])
    assert high.tricks < low.tricks


def test_hard_never_nils_with_the_ace_of_spades() -> None:
    """Hard sizes up nil only without the ace of spades."""
    assert first_bid("hard", "AS 3S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C").tricks >= 1


def test_hard_bids_nil_on_a_hand_of_small_cards() -> None:
    """Nothing but small cards: nil scores best."""
    assert first_bid("hard", SAFE_NIL, budget=0.3) == Bid(0)


def test_hard_counts_a_strong_hand_high() -> None:
    """Strong hand: a real bid, well above one."""
    assert first_bid("hard", STRONG).tricks >= 4


def test_hard_and_medium_bid_blind_nil_only_when_far_behind() -> None:
    """Two-player: no blind nil at 0-0."""
    rules = profile("two-player")
    from voice_spades.engine import Match

    match = Match(rules, seed=1)
    for level in ("medium", "hard"):
        seat = match.to_act
        assert seat is not None
        action = decide(make_bot(level, seat, rules, time_budget=0.01), match.view(seat))
        assert action in match.legal_actions()
        assert getattr(action, "declare", None) is False


def test_hard_s_look_ahead_decides_nil_and_the_count_the_number() -> None:
    """On these deals the look-ahead liked a number under the count (262, 389), nil on a
    hand the count bids 3 on (196), or a number on a hand the count bids nil on (12): a
    number bid is the count's when the count bids one, and nil is the look-ahead's."""
    rules = profile("cardgames")
    for index, search, made in ((262, Bid(1), Bid(2)), (389, Bid(1), Bid(2)),
                                (196, Bid(0), Bid(0)), (12, Bid(2), Bid(2))):
        match = Match(rules, seed=0, first_dealer=3)
        match.hand = HandState.deal(rules, 3, random.Random(f"cap/{index}"))
        view = match.view(0)
        bot = HardBot(0, 1, time_budget=30.0, max_samples=40)
        assert bot.bid(view) == made
        assert bot.last_search_bid == search
        count = medium_bid(view)
        assert made == (search if search.is_nil or count.is_nil else count)


def test_hard_values_a_bag_at_a_tenth_of_the_penalty_whatever_the_bags_before() -> None:
    """Bid 3 each; side 0 (seats 0 and 2) takes 8 of its 6: two bags. With 8 bags
    before, the hand's score pays the 100 penalty and with none it does not; over a
    match both cost the same, 20."""
    rules = profile("cardgames")
    bids = [Bid(3), Bid(3), Bid(3), Bid(3)]
    tricks = [5, 1, 3, 4]
    values = []
    for bags in ([0, 0], [8, 0]):
        ours, theirs = score_hand(rules, bids, tricks, [0, 0], bags).sides
        values.append(match_value(ours, rules))
        assert match_value(theirs, rules) == -60  # bid 6, took 5: set
        assert Table(rules, bids, [0, 0], bags).utility(tricks, 0) == values[-1] + 60
    assert values == [62 - 20, 62 - 20]
    assert score_hand(rules, bids, tricks, [0, 0], [8, 0]).sides[0].total == 62 - 100


def test_hard_sizes_up_nil_only_on_hands_medium_finds_safe_enough() -> None:
    """Few tricks (1.25 counted) but honours in every suit: nil danger 3.0, over
    Medium's limit of 2.2. The look-ahead, seeing every hand, made this nil on 63% of
    its deals; Hard bids the count's number, as Medium does."""
    hand_text = "4C 5C 8C KC 6D 7D JD 6H 10H JH 6S 10S JS"
    rules = profile("cardgames")
    hand = deal_with(rules, {2: hand_text}, dealer=3)
    bid_all(hand, [3, 5])
    view = view_of(hand, 2)
    assert 2.2 < nil_danger(view.hand) < 4.0 and estimate_tricks(view.hand, 4) < 2.0
    bot = HardBot(2, 1, time_budget=30.0, max_samples=40)
    assert bot.bid(view) == medium_bid(view) == Bid(1)
    assert bot.last_search_bid is None  # nil was not even sized up
