"""The hand limit: after ``RuleOptions.hand_limit`` hands (30 by default, every profile)
the highest score wins, so that every match fits in an evening; a tie at the top plays
one more hand. A save written before the option existed has no limit, and replays the
same.
"""

from __future__ import annotations

import json

import pytest

from tests.engine.helpers import said
from voice_spades.bots import make_bot
from voice_spades.bots.base import decide
from voice_spades.engine import (
    DEFAULT_HAND_LIMIT,
    PROFILE_NAMES,
    InvalidInputError,
    InvalidStateError,
    Match,
    MatchOver,
    Outcome,
    OutcomeReason,
    Phase,
    RuleOptions,
    TiedAtTarget,
    match_outcome,
    options_from_dict,
    options_to_dict,
    profile,
)

LIMIT = OutcomeReason.HAND_LIMIT_REACHED
TIED = OutcomeReason.TIED_AT_HAND_LIMIT


@pytest.mark.parametrize(("scores", "outcome"), [
    ([-90, 120, 80], Outcome(1, LIMIT)),
    ([-90, 120, 120], Outcome(None, TIED)),
    ([-600, 120, 80], Outcome(1, OutcomeReason.LOSING_SCORE_REACHED)),  # comes first
    ([-90, 510, 80], Outcome(1, OutcomeReason.TARGET_REACHED)),  # the target first of all
])
def test_at_the_hand_limit_the_highest_score_wins(scores: list[int],
                                                  outcome: Outcome) -> None:
    assert match_outcome(scores, 500, -500, at_hand_limit=True) == outcome
    if outcome.reason in (LIMIT, TIED):
        assert match_outcome(scores, 500, -500) is None


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_every_profile_has_a_limit_of_30_hands(name: str) -> None:
    assert DEFAULT_HAND_LIMIT == 30
    assert profile(name).hand_limit == 30
    assert profile(name, hand_limit=12).hand_limit == 12
    assert profile(name, hand_limit=None).hand_limit is None


def play_hands(match: Match, hands: int) -> list[object]:
    """Easy players play until the match ends or ``hands`` hands are over; the events
    of the last action."""
    bots = [make_bot("easy", seat, match.rules) for seat in range(match.rules.players)]
    events: list[object] = []
    while not match.is_over and match.hands_played < hands:
        seat = match.hand.to_act
        events = list(match.apply(decide(bots[seat], match.view(seat))))
    return events


SIX = profile("playroom", players=6)
SEED = 3


def test_six_easy_players_end_after_30_hands() -> None:
    match = Match(SIX, seed=SEED)
    events = play_hands(match, 400)
    assert match.is_over and match.hands_played == 30
    assert min(match.scores) > -500 and max(match.scores) < 500
    assert match.scores.count(max(match.scores)) == 1
    assert match.winner == match.scores.index(max(match.scores))
    assert match.outcome() == Outcome(match.winner, LIMIT)
    assert events[-1] == MatchOver(match.winner, tuple(match.scores), 30)
    unlimited = Match(SIX.with_options(hand_limit=None), seed=SEED)
    play_hands(unlimited, 31)
    assert not unlimited.is_over and unlimited.hands_played == 31
    assert unlimited.finished[29].to_dict() == match.finished[29].to_dict()


def test_a_tie_at_the_top_at_the_limit_plays_one_more_hand() -> None:
    rules = profile("playroom", players=3, hand_limit=1)
    match = Match(rules, seed=2)
    while match.hand.phase is not Phase.PLAY:
        match.apply(match.legal_actions()[0])
    probe = Match.from_dict(match.to_dict())
    play_hands(probe, 1)
    # Scores before this hand such that afterwards seat 0 is at -60 and 1, 2 tie at 40.
    match.scores = [-60 - probe.scores[0], 40 - probe.scores[1], 40 - probe.scores[2]]
    events = play_hands(match, 1)
    assert match.scores == [-60, 40, 40] and match.hands_played == 1
    assert any(isinstance(e, TiedAtTarget) for e in events)
    assert not match.is_over and match.outcome() == Outcome(None, TIED)
    events = play_hands(match, 5)  # the next hand has a leader alone: it ends there
    assert match.hands_played == 2 and match.scores.count(max(match.scores)) == 1
    assert match.is_over and match.outcome() == Outcome(match.winner, LIMIT)
    assert events[-1] == MatchOver(match.winner, tuple(match.scores), 2)


def test_a_save_from_before_the_option_has_no_limit_and_replays() -> None:
    """Old saves have no "hand_limit" key: they may be past hand 30 and must load and
    replay to the same point (not be refused as played after the end)."""
    old_rules = SIX.with_options(hand_limit=None)
    match = Match(old_rules, seed=SEED)
    play_hands(match, 31)
    for _ in range(5):  # and into the next hand
        seat = match.hand.to_act
        match.apply(decide(make_bot("easy", seat, SIX), match.view(seat)))
    old = json.loads(match.to_json())
    assert old["rules"]["hand_limit"] is None
    del old["rules"]["hand_limit"]
    again = Match.from_dict(old)
    assert again.rules.hand_limit is None and not again.is_over
    assert again.scores == match.scores and again.view(0) == match.view(0)
    assert again.to_json() == match.to_json()
    old["rules"]["hand_limit"] = 30
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(old)
    assert err.value.message.id == "save.played_after_win"


def test_the_hand_limit_is_saved_with_the_rules() -> None:
    for limit in (None, 1, 30, 1000):
        rules = SIX.with_options(hand_limit=limit)
        data = options_to_dict(rules)
        assert data["hand_limit"] == limit
        assert options_from_dict(json.loads(json.dumps(data))) == rules
    assert options_from_dict({}).hand_limit is None
    assert RuleOptions().hand_limit == 30


@pytest.mark.parametrize(("value", "sentence"), [
    (0, "Rule option 'hand_limit' has a bad value 0: it must be from 1 to 1000."),
    (1001, "Rule option 'hand_limit' has a bad value 1001: it must be from 1 to 1000."),
    ("30", "Rule option 'hand_limit' has a bad value \"30\": it must be a whole number."),
    (True, "Rule option 'hand_limit' has a bad value true: it must be a whole number."),
])
def test_a_bad_hand_limit_in_a_save_is_refused_naming_it(value: object,
                                                         sentence: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        options_from_dict({**options_to_dict(SIX), "hand_limit": value})
    assert said(err.value) == sentence


def test_rules_with_a_hand_limit_out_of_range_are_refused() -> None:
    with pytest.raises(InvalidInputError) as err:
        SIX.with_options(hand_limit=0)
    assert said(err.value) == "The hand limit must be from 1 to 1000 hands, not 0."
