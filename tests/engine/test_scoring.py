"""Scoring: every worked example of RULES.md, and each profile's nil and bag rules."""

from __future__ import annotations

import pytest

from voice_spades.engine import Bid, RuleOptions, SideScore, profile, score_hand


def side0(rules: RuleOptions, bids: list[int], tricks: list[int], score: int = 0,
          bags: int = 0, blind: tuple[int, ...] = ()) -> SideScore:
    sides = len(rules.sides)
    bid_objs = [Bid(b, blind=i in blind) for i, b in enumerate(bids)]
    return score_hand(rules, bid_objs, tricks, [score] + [0] * (sides - 1),
                      [bags] + [0] * (sides - 1)).sides[0]


@pytest.mark.parametrize(("taken", "change", "score_after", "bags_after"), [
    (7, 52, 389, 9), (8, 53 - 100, 290, 0), (9, 54 - 100, 291, 1)])
def test_vector_2_pagat_bags_carry_over(taken: int, change: int, score_after: int,
                                        bags_after: int) -> None:
    # South bids 3, North 2 (contract 5); South takes them all.
    result = side0(profile("pagat"), [3, 4, 2, 4], [taken, 13 - taken, 0, 0], 337, 7)
    assert (result.total, result.score_after, result.bags_after) == \
        (change, score_after, bags_after)


def test_vector_3_classic_fr_bags_wrap_at_ten() -> None:
    rules = profile("classic-fr")
    result = side0(rules, [3, 4, 2, 4], [4, 6, 3, 0])
    assert (result.total, result.new_bags) == (52, 2)
    carried = side0(rules, [3, 4, 2, 4], [4, 6, 3, 0], bags=9)
    assert (carried.total, carried.bags_after, carried.bag_penalty) == (52 - 100, 1, -100)


@pytest.mark.parametrize(("bid", "taken", "points"), [(4, 6, 42), (5, 4, -50)])
def test_vector_5_playroom_contracts(bid: int, taken: int, points: int) -> None:
    rules = profile("playroom", players=3)
    assert side0(rules, [bid, 3, 3], [taken, 17 - taken, 0]).total == points


@pytest.mark.parametrize(("you", "partner", "points"), [(0, 3, 60), (1, 5, -58), (1, 3, -139)])
def test_vector_6_playroom_nil_beside_partner_four(you: int, partner: int, points: int) -> None:
    rules = profile("playroom", players=4)
    rest = 13 - you - partner
    assert side0(rules, [0, 4, 4, 4], [you, rest, partner, 0]).total == points


@pytest.mark.parametrize(("bid", "taken", "points"), [(2, 3, 21), (1, 1, 30), (2, 2, 40)])
def test_vector_7_playroom_exact_bid_bonus(bid: int, taken: int, points: int) -> None:
    three = profile("playroom", players=3)
    assert side0(three, [bid, 5, 5], [taken, 17 - taken, 0]).total == points
    # Partnership (Decision): the bonus applies to the side's contract. North bids nil
    # and makes it, so the side's score is the contract's points plus 100.
    four = profile("playroom", players=4)
    assert side0(four, [bid, 5, 0, 5], [taken, 13 - taken, 0, 0]).total == points + 100


def test_exact_bonus_not_for_five_or_six_players() -> None:
    for players in (5, 6):
        rules = profile("playroom", players=players)
        bids = [1] * players
        tricks = [1] * (players - 1) + [rules.hand_size - players + 1]
        assert side0(rules, bids, tricks).total == 10


def test_vector_8_playroom_big_contract_four_players() -> None:
    rules = profile("playroom", players=4)
    assert side0(rules, [6, 1, 4, 1], [7, 1, 4, 1]).total == 121


@pytest.mark.parametrize(("players", "bid", "bonus"), [(3, 12, 20), (5, 8, 10), (6, 8, 20),
                                                       (6, 6, 0)])
def test_big_contract_threshold_by_player_count(players: int, bid: int, bonus: int) -> None:
    rules = profile("playroom", players=players)
    tricks = [bid] + [0] * (players - 2) + [rules.hand_size - bid]
    assert side0(rules, [bid] + [1] * (players - 1), tricks).big_bonus == bonus


@pytest.mark.parametrize(("bid", "taken", "points"), [(7, 9, 50), (6, 4, -20), (5, 5, 50)])
def test_vector_10_quicksand(bid: int, taken: int, points: int) -> None:
    rules = profile("playroom", players=3, quicksand=True)
    result = side0(rules, [bid, 1, 1], [taken, 17 - taken, 0], bags=8)
    assert result.total == points
    assert result.new_bags == 0 and result.bags_after == 8


def test_quicksand_counts_no_bags_even_for_a_failed_nil() -> None:
    rules = profile("playroom", players=3, quicksand=True)
    result = side0(rules, [0, 5, 5], [3, 7, 7])
    assert (result.total, result.new_bags) == (-100, 0)


@pytest.mark.parametrize(("bid", "blind", "taken", "points"), [
    (0, True, 0, 200), (0, True, 1, -200 + 1), (0, False, 0, 100), (0, False, 2, -100 + 2)])
def test_vector_11_two_player_nil_and_blind_nil(bid: int, blind: bool, taken: int,
                                                points: int) -> None:
    rules = profile("two-player")
    result = side0(rules, [bid, 5], [taken, 13 - taken], blind=(0,) if blind else ())
    assert result.total == points


def test_two_player_contract_scoring() -> None:
    rules = profile("two-player")
    assert side0(rules, [5, 5], [7, 6]).total == 52
    assert side0(rules, [5, 5], [4, 9]).total == -50


# Failed nil, per profile: South nil takes 2, North bids 4 and takes 3.
@pytest.mark.parametrize(("name", "points", "bags"), [
    ("pagat", -100 - 40 + 2, 2),         # tricks don't help partner; bags worth 1 each
    ("classic-fr", -100 - 40, 2),        # bags counted, no points
    ("cardgames", -100 + 40 + 1, 1),     # tricks count for partner: 5 of 4, 1 bag
    ("playroom", -100 - 40 + 2, 2),
])
def test_failed_nil_tricks_per_profile(name: str, points: int, bags: int) -> None:
    result = side0(profile(name), [0, 4, 4, 4], [2, 8, 3, 0])
    assert (result.total, result.new_bags) == (points, bags)


def test_double_nil_each_scored_on_its_own() -> None:
    rules = profile("playroom", players=4)
    made = side0(rules, [0, 4, 0, 4], [0, 7, 0, 6])
    assert (made.total, made.made) == (200, None)
    one_failed = side0(rules, [0, 4, 0, 4], [1, 6, 0, 6])
    assert one_failed.total == 100 - 100 + 1


def test_nil_is_apart_from_partner_contract_pagat() -> None:
    result = side0(profile("pagat"), [0, 4, 4, 4], [0, 5, 5, 3])
    assert (result.nil_points, result.contract_points, result.bag_points) == (100, 40, 1)
    assert result.total == 141


def test_set_contract_earns_nothing_for_tricks() -> None:
    result = side0(profile("pagat"), [4, 4, 4, 4], [2, 6, 1, 4])
    assert (result.total, result.made, result.new_bags) == (-80, False, 0)


def test_bag_penalty_every_tenth_and_twentieth_bag() -> None:
    result = side0(profile("pagat"), [1, 1, 1, 1], [11, 1, 1, 0], bags=9)
    # contract 2, took 12: 10 bags -> 19 in all: one penalty, 9 carried
    assert (result.total, result.bags_after) == (20 + 10 - 100, 9)


def test_boston_is_flagged_not_scored() -> None:
    rules = profile("pagat")
    score = score_hand(rules, [Bid(b) for b in (6, 3, 7, 3)], [7, 0, 6, 0], [0, 0], [0, 0])
    assert score.boston == 0
    assert score.sides[0].total == 130
    assert score_hand(rules, [Bid(b) for b in (6, 3, 6, 3)], [7, 0, 5, 1], [0, 0],
                      [0, 0]).boston is None


def test_parts_add_up_to_total() -> None:
    result = side0(profile("playroom", players=4), [0, 1, 10, 1], [1, 1, 11, 0], bags=9)
    assert result.total == (result.contract_points + result.bag_points + result.nil_points
                            + result.exact_bonus + result.big_bonus + result.bag_penalty)
