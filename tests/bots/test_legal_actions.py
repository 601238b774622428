"""Bots only ever choose legal actions: every level, profile, player count and variant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.bots.helpers import variant_profile
from voice_spades.bots import LEVELS, decide, make_bot
from voice_spades.engine import Match, Phase, RuleOptions

TABLES: list[tuple[str, int | None, dict[str, bool]]] = [
    ("pagat", None, {}), ("classic-fr", None, {}), ("cardgames", None, {}),
    ("two-player", None, {}),
    ("playroom", 3, {}), ("playroom", 4, {}), ("playroom", 5, {}), ("playroom", 6, {}),
    ("playroom", 4, {"no_hell": True}), ("playroom", 4, {"suicide": True}),
    ("playroom", 3, {"quicksand": True}), ("playroom", 6, {"no_hell": True}),
    ("playroom", 4, {"no_hell": True, "suicide": True, "quicksand": True}),
]


def rules_for(index: int) -> RuleOptions:
    name, players, variants = TABLES[index]
    return variant_profile(name, players, variants=variants)


@settings(max_examples=40, deadline=None)
@given(table=st.integers(0, len(TABLES) - 1), seed=st.integers(0, 10**6),
       levels=st.lists(st.sampled_from(LEVELS), min_size=6, max_size=6),
       random_steps=st.integers(0, 40))
def test_every_choice_is_legal(table: int, seed: int, levels: list[str],
                               random_steps: int) -> None:
    """From a random point of a random hand, each bot's action is among the legal ones."""
    rules = rules_for(table)
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    bots = [make_bot(levels[s], s, rules, seed=seed, time_budget=0.002)
            for s in range(rules.players)]
    for _ in range(random_steps):
        if match.hand.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    hand_number = match.hand.hand_number
    while not match.is_over and match.hand.hand_number == hand_number:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        action = decide(bots[seat], view)
        assert action in match.legal_actions(), (rules.name, view.phase, action)
        match.apply(action)


def test_scores_and_bags_do_not_break_bidding() -> None:
    """Far behind, with nine bags: still only legal bids (and blind nil choices)."""
    for index in range(len(TABLES)):
        rules = rules_for(index)
        match = Match(rules, seed=index)
        match.scores = [-300] + [450] * (len(rules.sides) - 1)
        match.bags = [9] * len(rules.sides)
        bots = [make_bot(LEVELS[s % 3], s, rules, seed=1, time_budget=0.002)
                for s in range(rules.players)]
        while match.hand.phase is not Phase.PLAY:
            seat = match.to_act
            assert seat is not None
            action = decide(bots[seat], match.view(seat))
            assert action in match.legal_actions()
            match.apply(action)
