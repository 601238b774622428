"""A hand's results: for each side its bid, tricks, made or set, each nil, bags, then the
scores, in that order, at every verbosity."""

from __future__ import annotations

import pytest

from voice_spades.engine import Bid, HandScored, profile, score_hand
from voice_spades.narration import Narrator, Phrasebook, Verbosity

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
    assert said[1] == "West and East: bid 6, took 4, set, minus 60; East made nil, plus 100."
    assert said[0] == "You and partner North: bid 7, took 9, made, plus 70; 2 bags, plus 2."
    assert said[-1] == ("Hand 1 over. Scores: you and partner North 172 with 4 bags; "
                        "West and East 140 with 3 bags.")


@pytest.mark.parametrize("verbosity", list(Verbosity))
def test_every_verbosity_says_bid_took_result_nil_and_bags_in_that_order(
        verbosity: Verbosity) -> None:
    said = lines(PAGAT, WEST_SET_EAST_NIL, verbosity)
    words = Phrasebook(PAGAT, 0, verbosity)
    them = said[1]
    marks = [words.side_cap(1), "6", "4", "set", "East made nil"]
    places = [them.index(mark) for mark in marks]
    assert places == sorted(places), them
    ours = said[0]
    places = [ours.index(mark) for mark in (words.side_cap(0), "7", "9", "made", "2 bags")]
    assert places == sorted(places), ours
    assert "Scores:" in said[-1] and "140" in said[-1]
    if verbosity is Verbosity.BRIEF:
        assert len(" ".join(said)) < len(" ".join(lines(PAGAT, WEST_SET_EAST_NIL)))


def test_a_failed_nil_and_a_bag_penalty_are_said() -> None:
    # South bids nil and takes 2: the side's contract is North's 4; 12 bags reach the limit.
    event = scored(PAGAT, [Bid(0), Bid(4), Bid(4), Bid(3)], [2, 3, 6, 2], [0, 0], [8, 0])
    said = lines(PAGAT, event)
    assert said[0] == ("You and partner North: bid 4, took 6, made, plus 40; you failed nil, "
                       "minus 100; 4 bags, plus 4; minus 100 bag penalty.")
    assert "you failed nil" in lines(PAGAT, event, Verbosity.BRIEF)[0]


def test_a_player_alone_says_its_own_nil() -> None:
    rules = profile("playroom", players=3)
    event = scored(rules, [Bid(5), Bid(0), Bid(6)], [7, 0, 5], [0, 0, 0], [0, 0, 0])
    said = lines(rules, event)
    assert said[1] == "West: bid nil, took 0; nil made, plus 100."
    assert said[2] == "East: bid 6, took 5, set, minus 60."


def test_five_or_six_players_hear_a_hand_end_in_two_lines() -> None:
    rules = profile("playroom", players=6)
    bids = [Bid(2), Bid(1), Bid(0), Bid(2), Bid(1), Bid(1)]
    event = scored(rules, bids, [3, 1, 1, 2, 0, 1], [0] * 6, [0] * 6)
    said = lines(rules, event)
    assert len(said) == 2, said
    results, totals = said
    assert results.startswith("You: bid 2, took 3, made, plus 20; 1 bag, plus 1. ")
    assert " North-west: bid nil, took 1; nil failed, minus 100; 1 bag, plus 1. " in results
    assert totals.startswith("Hand 1 over. Scores: you 21")


def test_the_verbose_side_line_adds_the_total_and_the_new_score() -> None:
    said = lines(PAGAT, WEST_SET_EAST_NIL, Verbosity.VERBOSE)
    assert said[1].endswith("; total plus 40, score 140 with 3 bags.")
