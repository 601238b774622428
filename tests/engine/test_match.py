"""Matches: end at the target, the highest score wins, a tie plays on; JSON saves."""

from __future__ import annotations

import json

import pytest

from tests.engine.helpers import said
from voice_spades.bots.base import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.engine import (
    Bid,
    HandScored,
    IllegalActionError,
    InvalidStateError,
    Match,
    MatchOver,
    Outcome,
    OutcomeReason,
    Phase,
    TiedAtTarget,
    match_outcome,
    profile,
)

TIED = Outcome(None, OutcomeReason.TIED_AT_TARGET)


def won_by(side: int) -> Outcome:
    return Outcome(side, OutcomeReason.TARGET_REACHED)


@pytest.mark.parametrize(("scores", "outcome"), [
    ([499, 320], None), ([500, 320], won_by(0)), ([510, 530], won_by(1)), ([530, 530], TIED),
    ([-20, 480, 505], won_by(2)), ([505, 505, 300], TIED), ([600, 505, 601], won_by(2))])
def test_vector_12_end_of_match(scores: list[int], outcome: Outcome | None) -> None:
    assert match_outcome(scores, 500) == outcome


def finish_hand(match: Match) -> list[object]:
    """Play the current hand out with simple legal-move players."""
    events: list[object] = []
    played = match.hands_played
    while match.hands_played == played and not match.is_over:
        seat = match.hand.to_act
        events += match.apply(decide(LegalMovePlayer(seat), match.view(seat)))
    return events


def test_tied_lead_at_target_plays_another_hand() -> None:
    match = Match(profile("pagat"), seed=2)
    while match.hand.phase is not Phase.PLAY:
        match.apply(match.legal_actions()[0])
    # Arrange scores so that this hand's result leaves both sides tied above 500.
    probe = Match.from_dict(match.to_dict())
    finish_hand(probe)
    delta = [probe.scores[i] - 0 for i in range(2)]
    match.scores = [700 - delta[0], 700 - delta[1]]
    assert match.outcome() is None
    events = finish_hand(match)
    assert any(isinstance(e, TiedAtTarget) for e in events)
    assert not match.is_over and match.hand.hand_number == 2
    assert match.outcome() == TIED


def test_match_over_when_a_side_reaches_target() -> None:
    match = Match(profile("pagat", target=500), seed=3)
    match.scores = [495, 0]
    events: list[object] = []
    while not match.is_over:
        events = finish_hand(match)
        if match.hands_played > 200:
            pytest.fail("match did not end")
    assert match.winner is not None and max(match.scores) >= 500
    assert match.scores[match.winner] == max(match.scores)
    assert isinstance(events[-1], MatchOver) and events[-1].winner == match.winner
    assert match.to_act is None and match.legal_actions() == []
    assert match.outcome() == won_by(match.winner)
    assert not match.is_legal(Bid(3)) and said(match.refusal(Bid(3))) == "The match is over."
    with pytest.raises(IllegalActionError) as err:
        match.apply(Bid(3))
    assert said(err.value) == "The match is over."


def test_hand_scored_event_matches_scores() -> None:
    match = Match(profile("cardgames"), seed=9)
    events = finish_hand(match)
    scored = next(e for e in events if isinstance(e, HandScored))
    assert list(scored.scores) == match.scores
    assert [s.total for s in scored.score.sides] == match.scores


@pytest.mark.parametrize("name", ["pagat", "classic-fr", "cardgames", "playroom", "two-player"])
def test_json_round_trip_mid_hand_and_after_a_match(name: str) -> None:
    match = Match(profile(name), seed=21)
    for _ in range(37):
        seat = match.hand.to_act
        match.apply(decide(LegalMovePlayer(seat), match.view(seat)))
    text = match.to_json()
    again = Match.from_json(text)
    assert again.to_json() == text
    assert again.hand.hands == match.hand.hands and again.hand.to_act == match.hand.to_act
    assert again.view(0) == match.view(0)
    while not match.is_over:
        finish_hand(match)
    done = Match.from_json(match.to_json())
    assert done.winner == match.winner and done.scores == match.scores
    assert done.to_json() == match.to_json()


def saved(name: str = "pagat") -> dict[str, object]:
    match = Match(profile(name), seed=4)
    for _ in range(6):
        match.apply(match.legal_actions()[0])
    data: dict[str, object] = json.loads(match.to_json())
    return data


def first_hand(data: dict[str, object]) -> dict[str, object]:
    hands = data["hands"]
    assert isinstance(hands, list)
    hand: dict[str, object] = hands[0]
    return hand


def test_duplicate_card_is_refused() -> None:
    data = saved()
    deal = first_hand(data)["deal"]
    assert isinstance(deal, list)
    deal[1][0] = deal[0][0]
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert said(err.value).endswith("is dealt twice.")


def test_fourteen_cards_is_refused() -> None:
    data = saved()
    deal = first_hand(data)["deal"]
    assert isinstance(deal, list)
    deal[0].append(deal[1].pop())
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert said(err.value) == "The deal gives South 14 cards; a hand has 13."


def test_bad_bid_is_refused() -> None:
    data = saved()
    actions = first_hand(data)["actions"]
    assert isinstance(actions, list)
    actions[1] = "bid:14"
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert said(err.value) == ("The saved hand breaks the rules at action 2 (bid:14): "
                               "Bids go from 0 (nil) to 13; 14 is too many.")
    actions[1] = "bid:many"
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert said(err.value) == ("The saved hand is damaged: 'many' is not a bid: say a number, "
                               "or nil.")


def test_illegal_play_in_save_is_refused() -> None:
    match = Match(profile("pagat"), seed=4)
    while match.hand.phase is not Phase.PLAY:
        match.apply(match.legal_actions()[0])
    data = match.to_dict()
    hand = first_hand(data)
    seat = match.hand.to_act
    not_held = next(c for c in ("AS", "KS", "QS", "2C", "3C")
                    if c not in [card.code for card in match.hand.hand_of(seat)])
    actions = hand["actions"]
    assert isinstance(actions, list)
    actions.append(f"play:{not_held}")
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert "You don't hold the " in said(err.value)


@pytest.mark.parametrize("text", ["", "{", "[]", '{"format": "other"}', "null",
                                  '{"format": "voice-spades/1", "rules": {}, "seed": 1, '
                                  '"first_dealer": 9, "hands": [{}]}',
                                  '{"format": "voice-spades/1", "rules": {"x": 1}, "seed": 1, '
                                  '"first_dealer": 0, "hands": [{}]}'])
def test_garbage_saves_are_refused_with_a_message(text: str) -> None:
    with pytest.raises(InvalidStateError) as err:
        Match.from_json(text)
    assert said(err.value).endswith(".")


def test_wrong_dealer_in_save_is_refused() -> None:
    data = saved()
    first_hand(data)["dealer"] = (int(str(first_hand(data)["dealer"])) + 1) % 4
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert said(err.value) == "Saved hand 1 has the wrong number or dealer."


def test_two_player_stock_must_be_a_whole_deck() -> None:
    data = saved("two-player")
    stock = first_hand(data)["stock"]
    assert isinstance(stock, list)
    stock[0] = stock[1]
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert said(err.value) == "The stock must hold each of the 52 cards once."
