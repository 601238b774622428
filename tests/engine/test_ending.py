"""The match ending for matches nobody can win: a side at minus the target ends it.

The rule texts end a match only at the target (RULES.md, vector 12). Six easy players
can sink together for hundreds of hands, so by default (``MatchEnd.MINUS_TARGET``) a
hand that leaves a side at minus the target or below also ends the match, and the
highest score wins; ``MatchEnd.TARGET`` keeps the texts' ending, and a save written
before the option existed is read with it, so it replays the same.
"""

from __future__ import annotations

import json

import pytest

from tests.engine.helpers import said
from voice_spades.bots import make_bot
from voice_spades.bots.base import decide
from voice_spades.engine import (
    PROFILE_NAMES,
    InvalidInputError,
    InvalidStateError,
    Match,
    MatchEnd,
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

LOST = OutcomeReason.LOSING_SCORE_REACHED
TIED = OutcomeReason.TIED_AT_LOSING_SCORE


@pytest.mark.parametrize(("scores", "outcome"), [
    ([-499, 120, 80], None),
    ([-500, 120, 80], Outcome(1, LOST)),
    ([-730, -20, -10, -600, -300, -90], Outcome(2, LOST)),
    ([-520, 120, 120], Outcome(None, TIED)),
    ([-520, 510], Outcome(1, OutcomeReason.TARGET_REACHED)),  # the target counts first
    ([-520, 505, 505], Outcome(None, OutcomeReason.TIED_AT_TARGET)),
])
def test_a_side_at_minus_the_target_ends_the_match(scores: list[int],
                                                   outcome: Outcome | None) -> None:
    assert match_outcome(scores, 500, losing_score=-500) == outcome
    assert match_outcome(scores, 500) == (
        outcome if outcome is not None and outcome.reason not in (LOST, TIED) else None)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_every_profile_ends_at_minus_its_target_by_default(name: str) -> None:
    assert profile(name).ending is MatchEnd.MINUS_TARGET
    assert profile(name).losing_score == -500
    assert profile(name, target=100).losing_score == -100
    assert profile(name, ending=MatchEnd.TARGET).losing_score is None


def play_hands(match: Match, hands: int) -> list[object]:
    """Easy players (they sink together at six) play until the match ends or ``hands``
    hands are over; the events of the last action (the one that ended the last hand)."""
    bots = [make_bot("easy", seat, match.rules) for seat in range(match.rules.players)]
    events: list[object] = []
    while not match.is_over and match.hands_played < hands:
        seat = match.hand.to_act
        events = list(match.apply(decide(bots[seat], match.view(seat))))
    return events


SIX = profile("playroom", players=6, hand_limit=None)
"""No hand limit: the losing score is what ends these matches."""
SEED = 3


def test_six_easy_players_end_when_one_falls_to_minus_500() -> None:
    match = Match(SIX, seed=SEED)
    events = play_hands(match, 400)
    assert match.is_over and match.hands_played < 150
    assert min(match.scores) <= -500 < max(match.scores) < 500
    assert match.scores.count(max(match.scores)) == 1
    assert match.winner == match.scores.index(max(match.scores))
    assert match.outcome() == Outcome(match.winner, LOST)
    assert events[-1] == MatchOver(match.winner, tuple(match.scores), match.hands_played)
    # Only at that hand: the hand before left every side above minus 500.
    before = Match(SIX, seed=SEED)
    play_hands(before, match.hands_played - 1)
    assert min(before.scores) > -500 and not before.is_over


def test_the_target_only_ending_plays_on_past_minus_the_target() -> None:
    ended = Match(SIX, seed=SEED)
    play_hands(ended, 400)
    match = Match(SIX.with_options(ending=MatchEnd.TARGET), seed=SEED)
    play_hands(match, ended.hands_played + 2)
    assert not match.is_over and match.outcome() is None
    assert match.hands_played == ended.hands_played + 2 and min(match.scores) <= -500


def test_a_save_from_before_the_option_replays_as_it_was_played() -> None:
    """Old saves have no "ending" key: they were played to the target only, maybe past
    minus 500, and must load and replay to the same point (not be refused)."""
    ended = Match(SIX, seed=SEED)
    play_hands(ended, 400)
    match = Match(SIX.with_options(ending=MatchEnd.TARGET), seed=SEED)
    play_hands(match, ended.hands_played + 1)
    for _ in range(5):  # and into the next hand
        seat = match.hand.to_act
        match.apply(decide(make_bot("easy", seat, SIX), match.view(seat)))
    old = json.loads(match.to_json())
    del old["rules"]["ending"]
    again = Match.from_dict(old)
    assert again.rules.ending is MatchEnd.TARGET and not again.is_over
    assert again.scores == match.scores and again.hand.to_dict() == match.hand.to_dict()
    assert again.view(0) == match.view(0)
    assert again.to_json() == match.to_json()
    # The same save claiming the new ending is refused: it went on after the end.
    old["rules"]["ending"] = "minus-target"
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(old)
    assert err.value.message.id == "save.played_after_win"


def test_the_ending_is_saved_with_the_rules() -> None:
    for ending in MatchEnd:
        rules = SIX.with_options(ending=ending)
        data = options_to_dict(rules)
        assert data["ending"] == ending.value
        assert options_from_dict(json.loads(json.dumps(data))) == rules
    assert options_from_dict({}).ending is MatchEnd.TARGET
    assert RuleOptions().ending is MatchEnd.MINUS_TARGET


def test_a_bad_ending_in_a_save_is_refused_naming_it() -> None:
    with pytest.raises(InvalidInputError) as err:
        options_from_dict({**options_to_dict(SIX), "ending": "never"})
    assert said(err.value) == "Rule option 'ending' has a bad value \"never\"."


def test_a_tie_at_the_top_when_a_side_falls_plays_another_hand() -> None:
    match = Match(profile("playroom", players=3), seed=2)
    while match.hand.phase is not Phase.PLAY:
        match.apply(match.legal_actions()[0])
    probe = Match.from_dict(match.to_dict())
    play_hands(probe, 1)
    # Scores before this hand such that afterwards seat 0 is at -600 and 1, 2 tie at 40.
    match.scores = [-600 - probe.scores[0], 40 - probe.scores[1], 40 - probe.scores[2]]
    events = play_hands(match, 1)
    assert match.scores == [-600, 40, 40]
    assert any(isinstance(e, TiedAtTarget) for e in events)
    assert not match.is_over and match.outcome() == Outcome(None, TIED)
