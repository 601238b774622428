"""A hand's results: for each side its tricks and bid, made or set, each nil, bags, then
its new score, in that order, at every verbosity; in short (one line a side, each fact
once) at normal and brief, every part with its points when verbose and on review."""

from __future__ import annotations

import pytest

from voice_spades.engine import Bid, HandScored, profile, score_hand
from voice_spades.narration import Narrator, Phrasebook, Verbosity
from voice_spades.narration.results import results_text

PAGAT = profile("pagat")


def scored(rules: object, bids: list[Bid], tricks: list[int], before: list[int],
           bags: list[int], number: int = 1) -> HandScored:
    score = score_hand(rules, bids, tricks, before, bags)  # type: ignore[arg-type]
    return HandScored(number, score, tuple(s.score_after for s in score.sides),
                      tuple(s.bags_after for s in score.sides))


def lines(rules: object, event: HandScored, verbosity: Verbosity = Verbosity.NORMAL) -> list[str]:
    narrator = Narrator(Phrasebook(rules, 0, verbosity))  # type: ignore[arg-type]
    return [line.text for line in narrator.narrate(event)]


# The hand: West bid 6 and took 4 (set, minus 60), East bid nil and took none
# (plus 100). It used to be said "West and East: bid 6, took 4, plus 40.", the nil after.
WEST_SET_EAST_NIL = scored(PAGAT, [Bid(3), Bid(6), Bid(4), Bid(0)], [4, 4, 5, 0],
                           [100, 100], [2, 3])


def test_a_set_side_with_a_made_nil_says_both_in_its_own_line() -> None:
    said = lines(PAGAT, WEST_SET_EAST_NIL)
    # Issue 48: one short line a side with its new score; the totals are not said again.
    assert said == ["Us: 9 of 7, made, 2 bags; score 172.",
                    "Them: 4 of 6, set, East made nil; score 140."]


@pytest.mark.parametrize("verbosity", list(Verbosity))
def test_every_verbosity_says_tricks_bid_result_nil_and_bags_in_that_order(
        verbosity: Verbosity) -> None:
    said = lines(PAGAT, WEST_SET_EAST_NIL, verbosity)
    verbose = verbosity is Verbosity.VERBOSE
    them, ours = said[1], said[0]
    numbers = ["6", "4"] if verbose else ["4", "6"]  # "bid 6, took 4", or "4 of 6"
    marks = [("West and East" if verbose else "Them"), *numbers, "set", "East made nil", "140"]
    places = [them.index(mark) for mark in marks]
    assert places == sorted(places), them
    numbers = ["7", "9"] if verbose else ["9", "7"]
    marks = [("You and partner North" if verbose else "Us"), *numbers, "made", "2 bags", "172"]
    places = [ours.index(mark) for mark in marks]
    assert places == sorted(places), ours
    if verbose:
        assert "Scores:" in said[-1] and "140" in said[-1] and "minus 60" in them
    else:
        assert len(said) == 2 and "minus" not in " ".join(said)  # the points: on review
    if verbosity is Verbosity.BRIEF:
        assert len(" ".join(said)) < len(" ".join(lines(PAGAT, WEST_SET_EAST_NIL)))


def test_the_review_of_the_hand_says_every_part_with_its_points() -> None:
    text = results_text(Phrasebook(PAGAT, 0), WEST_SET_EAST_NIL)
    assert text == ("You and partner North: bid 7, took 9, made, plus 70; 2 bags, plus 2. "
                    "West and East: bid 6, took 4, set, minus 60; East made nil, plus 100. "
                    "Scores after it: you and partner North 172 with 4 bags; West and East "
                    "140 with 3 bags.")


def test_a_failed_nil_says_whose_tricks_count_and_that_the_nils_are_bags() -> None:
    # South bids nil and takes 2: the side's contract is North's 4; 12 bags reach the limit.
    event = scored(PAGAT, [Bid(0), Bid(4), Bid(4), Bid(3)], [2, 3, 6, 2], [0, 0], [8, 0])
    said = lines(PAGAT, event)
    assert said[0] == ("Us: partner North took 6 of 4, made, you failed nil, your 2 count as "
                       "bags, 4 bags in all, minus 100 bag penalty; score -156.")
    assert "you failed nil" in lines(PAGAT, event, Verbosity.BRIEF)[0]
    assert lines(PAGAT, event, Verbosity.VERBOSE)[0].startswith(
        "You and partner North: bid 4, took 6, made, plus 40; you failed nil, minus 100; "
        "4 bags, plus 4; minus 100 bag penalty;")


def test_a_failed_nil_with_no_overtricks_says_its_bags_once() -> None:
    # North bids nil and takes 1; South bid 4 and took exactly 4.
    event = scored(PAGAT, [Bid(4), Bid(4), Bid(0), Bid(4)], [4, 4, 1, 4], [0, 0], [0, 0])
    assert lines(PAGAT, event)[0] == ("Us: you took 4 of 4, made, partner North failed nil, "
                                      "partner North's 1 counts as a bag; score -59.")


def test_a_failed_nil_counted_for_the_partner_says_the_sides_tricks() -> None:
    rules = profile("cardgames")
    event = scored(rules, [Bid(0), Bid(4), Bid(4), Bid(3)], [2, 3, 6, 2], [0, 0], [0, 0])
    assert lines(rules, event)[0].startswith("Us: 8 of 4, made, you failed nil, 4 bags;")


def test_a_player_alone_says_its_own_nil() -> None:
    rules = profile("playroom", players=3)
    event = scored(rules, [Bid(5), Bid(0), Bid(6)], [7, 0, 5], [0, 0, 0], [0, 0, 0])
    said = lines(rules, event)
    assert said[1] == "West: bid nil, took 0, nil made; score 100."
    assert said[2] == "East: 5 of 6, set; score -60."


def test_six_players_hear_one_short_line_each() -> None:
    rules = profile("playroom", players=6)
    bids = [Bid(2), Bid(1), Bid(0), Bid(2), Bid(1), Bid(1)]
    event = scored(rules, bids, [3, 1, 1, 2, 0, 1], [0] * 6, [0] * 6)
    said = lines(rules, event)
    assert said == ["You: 3 of 2, made, 1 bag; score 21.",
                    "South-west: 1 of 1, made; score 10.",
                    "North-west: bid nil, took 1, nil failed, 1 bag; score -99.",
                    "North: 2 of 2, made; score 20.",
                    "North-east: 0 of 1, set; score -10.",
                    "South-east: 1 of 1, made; score 10."]
    verbose = lines(rules, event, Verbosity.VERBOSE)
    assert verbose[2].startswith("North-west: bid nil, took 1; nil failed, minus 100; 1 bag")
    assert verbose[-1].startswith("Hand 1 over. Scores: you 21")


def test_the_verbose_side_line_adds_the_total_and_the_new_score() -> None:
    said = lines(PAGAT, WEST_SET_EAST_NIL, Verbosity.VERBOSE)
    assert said[1].endswith("; total plus 40, score 140 with 3 bags.")
