"""What breaks spades in each profile, as its own rule text says (RULES.md, "Common to
all"): in pagat and classic-fr only a spade played on another suit's lead; in cardgames,
playroom and two-player any spade played, a forced lead from an all-spade hand included
(seed 002: "Una volta giocata la prima carta di picche, le picche vengono rotte")."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.helpers import bid_all, deal_with, raises_saying
from voice_spades.engine import (
    Card,
    HandState,
    Match,
    Phase,
    SpadesBroken,
    Suit,
    deck_for,
    profile,
)
from voice_spades.errors import IllegalActionError

ANY_SPADE_BREAKS = frozenset({"cardgames", "playroom", "two-player"})
"""The profiles whose text breaks spades with any spade played (RULES.md, restated here
by name so that the tests check the profiles against the texts, not the flag itself)."""

DEALT = [("pagat", 4), ("classic-fr", 4), ("cardgames", 4), ("playroom", 4),
         ("playroom", 5), ("playroom", 6)]
"""Dealt profiles in which the first leader can hold only spades (3 players hold 17)."""

C = Card.parse


def spades_of(players: int) -> list[Card]:
    """The spades in play with this many players, lowest first (6 players lose the 2)."""
    return [c for c in deck_for(profile("playroom" if players != 4 else "pagat",
                                        players=players)) if c.suit is Suit.SPADES]


def forced_lead_deal(name: str, players: int) -> HandState:
    """Seat 0 leads first holding the lowest spades only; seat 1 holds the ace and king
    of spades (when any spade is left for it) and clubs; bids done."""
    rules = profile(name, players=players)
    low = " ".join(card.code for card in spades_of(players)[:rules.hand_size])
    fixed = [low, "AS KS" if rules.hand_size < 12 else ""]
    hand = deal_with(rules, fixed, dealer=players - 1, avoid={1: "DH"})
    bid_all(hand, [1] * players)
    return hand


@pytest.mark.parametrize(("name", "players"), DEALT)
def test_a_forced_spade_lead_breaks_spades_only_where_the_text_says(name: str,
                                                                    players: int) -> None:
    hand = forced_lead_deal(name, players)
    assert hand.to_act == 0 and hand.legal_actions() == hand.hand_of(0)
    lowest = spades_of(players)[0]
    events = hand.apply(lowest)
    breaks = name in ANY_SPADE_BREAKS
    assert [e for e in events if isinstance(e, SpadesBroken)] == (
        [SpadesBroken(0, lowest)] if breaks else [])
    assert hand.spades_broken is breaks


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, p in DEALT if p > 4])
def test_after_a_forced_spade_lead_the_winner_may_lead_spades_only_if_broken(
        name: str, players: int) -> None:
    hand = forced_lead_deal(name, players)
    hand.apply(spades_of(players)[0])
    assert not any(isinstance(e, SpadesBroken) for e in hand.apply(C("AS")))
    while hand.trick:
        hand.apply(hand.legal_actions()[0])
    assert hand.to_act == 1 and any(c.suit is not Suit.SPADES for c in hand.hand_of(1))
    if name in ANY_SPADE_BREAKS:
        assert C("KS") in hand.legal_actions()
        hand.apply(C("KS"))
    else:
        with raises_saying(IllegalActionError, "You can't lead a spade yet"):
            hand.apply(C("KS"))


@pytest.mark.parametrize("name", ["pagat", "classic-fr", "cardgames", "playroom"])
def test_a_spade_on_another_suits_lead_breaks_spades_in_every_profile(name: str) -> None:
    hand = deal_with(profile(name), ["AH 3C", "2S 3D"], dealer=3, avoid={1: "H"})
    bid_all(hand, [3, 3, 3, 3])
    hand.apply(C("AH"))
    events = hand.apply(C("2S"))
    assert SpadesBroken(1, C("2S")) in events and hand.spades_broken


def _oracle_legal(held: list[Card], trick: list[Card], broken: bool) -> set[Card]:
    """The cards a seat may play, restated from the texts independently of the engine."""
    if trick:
        follow = [c for c in held if c.suit is trick[0].suit]
        return set(follow or held)
    if broken or all(c.suit is Suit.SPADES for c in held):
        return set(held)
    return {c for c in held if c.suit is not Suit.SPADES}


@settings(max_examples=40, deadline=None)
@given(setup=st.sampled_from(DEALT), seed=st.integers(0, 2**32))
def test_forced_spade_leads_follow_each_profiles_text(setup: tuple[str, int],
                                                       seed: int) -> None:
    """Random deals where the first leader holds only spades, random bids, random play to
    the end of the hand: every legal set and every break as the texts say."""
    name, players = setup
    rules = profile(name, players=players)
    rng = random.Random(seed)
    spades = rng.sample(spades_of(players), rules.hand_size)
    rest = [c for c in deck_for(rules) if c not in spades]
    rng.shuffle(rest)
    size = rules.hand_size
    hands = [spades] + [rest[i * size:(i + 1) * size] for i in range(players - 1)]
    hand = HandState.from_deal(rules, players - 1, hands)
    while hand.phase is Phase.BID:
        hand.apply(rng.choice(hand.legal_actions()))
    broken = False
    trick: list[Card] = []
    while hand.phase is Phase.PLAY:
        held = hand.hand_of(hand.to_act)
        assert set(hand.legal_actions()) == _oracle_legal(held, trick, broken)
        card = rng.choice(hand.legal_actions())
        assert isinstance(card, Card)
        breaks = card.suit is Suit.SPADES and not broken and (
            (bool(trick) and trick[0].suit is not Suit.SPADES)
            or (not trick and name in ANY_SPADE_BREAKS))
        events = hand.apply(card)
        assert any(isinstance(e, SpadesBroken) for e in events) is breaks
        broken = broken or breaks
        assert hand.spades_broken is broken
        trick = [] if len(trick) + 1 == players else [*trick, card]


def test_a_cardgames_match_saved_under_the_old_reading_keeps_it() -> None:
    """A match carries the rule it was played under: one saved before cardgames broke
    spades on a forced lead loads, replays the same, and goes on under its own rule."""
    old = profile("cardgames").with_options(forced_spade_lead_breaks=False)
    match = Match(old, seed=11)
    rng = random.Random(11)
    while match.hands_played < 2:
        match.apply(rng.choice(match.legal_actions()))
    text = match.to_json()
    assert json.loads(text)["rules"]["forced_spade_lead_breaks"] is False
    loaded = Match.from_json(text)
    assert not loaded.rules.forced_spade_lead_breaks
    assert loaded.to_json() == text
    assert Match.from_json(Match(profile("cardgames"), seed=11).to_json()).rules \
        .forced_spade_lead_breaks
