"""Hard's search: repeatable from its seed, and within its time budget."""

from __future__ import annotations

import time

from voice_spades.bots import decide
from voice_spades.bots.hard import HardBot
from voice_spades.engine import Match, profile


def _decisions(seed: int, budget: float, samples: int) -> list[str]:
    """Every action of one hand played by four Hard bots."""
    rules = profile("cardgames")
    match = Match(rules, seed=4)
    bots = [HardBot(s, seed, time_budget=budget, max_samples=samples) for s in range(4)]
    out = []
    while match.hand_scores == []:
        seat = match.to_act
        assert seat is not None
        action = decide(bots[seat], match.view(seat))
        out.append(str(action))
        match.apply(action)
    return out


def test_same_seed_same_decisions_with_a_sample_cap() -> None:
    """With a sample cap and time to spare, a seed fixes every decision."""
    first = _decisions(3, budget=10.0, samples=6)
    second = _decisions(3, budget=10.0, samples=6)
    assert first == second


def test_decisions_stay_within_the_budget() -> None:
    """A 50 ms budget: no decision takes more than a few times that."""
    rules = profile("pagat")
    match = Match(rules, seed=9)
    bots = [HardBot(s, 1, time_budget=0.05) for s in range(4)]
    slowest = 0.0
    while match.hand_scores == []:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        start = time.perf_counter()
        action = decide(bots[seat], view)
        slowest = max(slowest, time.perf_counter() - start)
        match.apply(action)
    assert slowest < 0.25
