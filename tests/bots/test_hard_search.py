"""Hard's search: repeatable from its seed, and within its time budget."""

from __future__ import annotations

import threading
import time

from voice_spades.bots import decide, make_bot
from voice_spades.bots.hard import PLAY_SAMPLES, PLAY_WORK, HardBot, play_samples
from voice_spades.engine import Match, Phase, PlayerView, profile


def _decisions(seed: int, budget: float, samples: int, limit: int = 99) -> list[str]:
    """The actions (every one, or the first ``limit``) of one hand played by four Hard
    bots."""
    rules = profile("cardgames")
    match = Match(rules, seed=4)
    bots = [HardBot(s, seed, time_budget=budget, max_samples=samples or None)
            for s in range(4)]
    out: list[str] = []
    while match.hand_scores == [] and len(out) < limit:
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
    """A 20 ms budget (of the deciding thread's processor time): no decision takes more
    than a few times that."""
    rules = profile("pagat")
    match = Match(rules, seed=9)
    bots = [HardBot(s, 1, time_budget=0.02) for s in range(4)]
    slowest = 0.0
    while match.hand_scores == []:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        start = time.thread_time()
        action = decide(bots[seat], view)
        slowest = max(slowest, time.thread_time() - start)
        match.apply(action)
    assert slowest < 0.1


def _third_lead_view() -> PlayerView:
    """Seat 0 leading the third trick of a cardgames hand, with 8 cards worth searching
    (Medium plays the way there)."""
    rules = profile("cardgames")
    match = Match(rules, seed=6)
    bots = [make_bot("medium", s, rules) for s in range(4)]
    while match.to_act != 0 or len(match.view(0).completed) < 2:
        seat = match.to_act
        assert seat is not None
        match.apply(decide(bots[seat], match.view(seat)))
    return match.view(0)


def test_a_busy_process_makes_a_decision_slower_never_different() -> None:
    """Four threads spinning in the same process take the interpreter most of the time,
    so the decision takes several times its usual wall time, past a 0.2 s budget (the
    net once counted wall time and cut the search there). The net counts the deciding
    thread's processor time: the search keeps its fixed size and picks the same card."""
    view = _third_lead_view()
    budget = 0.2
    quiet = HardBot(0, 1, time_budget=budget)
    card = decide(quiet, view)
    full = play_samples(quiet.last_candidates, sum(view.cards_held))
    assert quiet.last_candidates > 1 and quiet.last_samples == full
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            pass

    spinners = [threading.Thread(target=spin, daemon=True) for _ in range(4)]
    for spinner in spinners:
        spinner.start()
    try:
        busy = HardBot(0, 1, time_budget=budget)
        start = time.perf_counter()
        busy_card = decide(busy, view)
        wall = time.perf_counter() - start
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join()
    assert (busy_card, busy.last_samples) == (card, full)
    assert wall > budget, f"the spinners did not slow the decision ({wall:.3f} s)"


def test_fixed_search_size_repeats_without_a_sample_cap() -> None:
    """The live settings: the number of deals is fixed by the position, not the clock,
    so the same seed gives the same decisions however busy the machine is (a generous
    safety net here, so a loaded test machine cannot trigger it)."""
    first = _decisions(5, budget=30.0, samples=0, limit=12)
    second = _decisions(5, budget=30.0, samples=0, limit=12)
    assert first == second


def test_search_size_follows_the_position() -> None:
    """Deals per play decision: about PLAY_WORK card plays, within the bounds."""
    low, high = PLAY_SAMPLES
    assert play_samples(8, 52) == max(low, PLAY_WORK // (8 * 52))
    assert play_samples(2, 8) == min(high, PLAY_WORK // 16)
    assert play_samples(1, 1) == high
    rules = profile("cardgames")
    match = Match(rules, seed=6)
    bot = HardBot(0, 1, time_budget=30.0)
    while match.to_act != 0 or match.view(0).phase is not Phase.PLAY:
        seat = match.to_act
        assert seat is not None
        match.apply(decide(HardBot(seat, 1, time_budget=30.0, max_samples=4),
                           match.view(seat)))
    view = match.view(0)
    decide(bot, view)
    assert bot.last_samples == (0 if bot.last_candidates == 1 else
                                play_samples(bot.last_candidates, sum(view.cards_held)))
