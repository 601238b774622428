"""Playing `bench bots` jobs: one deal or match between two players, seated twice
(A on side 0, then swapped), with per-player counts and decision times; and the
summary of a run of A against B."""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from voice_spades.bench.bots_players import make_player
from voice_spades.bots import Bot, decide
from voice_spades.engine import (
    HandScore,
    HandState,
    Match,
    RuleOptions,
)

MAX_MATCH_HANDS = 300
"""A match that has not ended after this many hands is stopped and counted as a draw."""


@dataclass
class LevelStats:
    """What one level did over a run: per-side hand counts and decision times."""

    side_hands: int = 0
    bags: int = 0
    bids: int = 0
    nils: int = 0
    nils_made: int = 0
    contracts: int = 0
    contract_tricks: int = 0
    """Sum of the side's contracts (tricks bid, nils left out) over its hands."""
    sets: int = 0
    points: int = 0
    nil_points: int = 0
    """Points from nil and blind nil bids, made or failed."""
    contract_points: int = 0
    """Points from contracts: made or set, bags counted, bonuses."""
    penalty: int = 0
    """Bag penalties (negative)."""
    times: list[float] = field(default_factory=list)
    choice_times: list[float] = field(default_factory=list)
    """Times of decisions with more than one legal action."""

    def merge(self, other: LevelStats) -> None:
        """Add another run's counts to these."""
        for name in ("side_hands", "bags", "bids", "nils", "nils_made", "contracts",
                     "contract_tricks", "sets",
                     "points", "nil_points", "contract_points", "penalty"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times.extend(other.times)
        self.choice_times.extend(other.choice_times)


@dataclass
class PlayResult:
    """One play of a deal or match with one seating: A's mean side score minus B's."""

    kind: str
    index: int
    swapped: bool
    margin: float
    a_won: float | None
    stats: dict[str, LevelStats]
    pairing: tuple[str, str] = ("", "")
    """The specs of A and B."""


@dataclass(frozen=True)
class Job:
    """One play to run (picklable for the worker processes)."""

    kind: str
    index: int
    swapped: bool
    rules: RuleOptions
    a: str
    b: str
    seed: int
    budget: float | None


def group_of(rules: RuleOptions, seat: int) -> int:
    """0 or 1: which of the two levels sits here before swapping."""
    return rules.side_of(seat) % 2 if rules.is_partnership else seat % 2


def owners(job: Job) -> list[str]:
    """"a" or "b" for each seat: group 0 is A's unless the seating is swapped."""
    return ["a" if (group_of(job.rules, s) == 0) != job.swapped else "b"
            for s in range(job.rules.players)]


def seat_players(job: Job) -> list[Bot]:
    """The player in each seat for ``job``, each seeded by the job and its seat."""
    keys = owners(job)
    return [make_player(job.a if keys[s] == "a" else job.b, s, job.rules,
                        _seed(job.seed, job.kind, job.index, s), job.budget)
            for s in range(job.rules.players)]


def _run(job: Job) -> PlayResult:
    rules = job.rules
    keys = owners(job)
    bots = seat_players(job)
    stats = {"a": LevelStats(), "b": LevelStats()}
    if job.kind == "deal":
        match = single_deal_match(rules, job.seed, job.index)
    else:
        match = Match(rules, seed=_seed(job.seed, "match", job.index, 0))
    hands_done = 0
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        start = time.perf_counter()
        action = decide(bots[seat], view)
        elapsed = time.perf_counter() - start
        level_stats = stats[keys[seat]]
        level_stats.times.append(elapsed)
        if len(view.legal) > 1:
            level_stats.choice_times.append(elapsed)
        match.apply(action)
        if len(match.hand_scores) > hands_done:
            _count_hand(match.hand_scores[-1], match.finished[-1], keys, rules, stats)
            hands_done += 1
            if job.kind == "deal" or hands_done >= MAX_MATCH_HANDS:
                break
    score = match.hand_scores[0] if job.kind == "deal" else None
    margin = 0.0
    a_won: float | None = None
    if score is not None:
        margin = side_mean(score, rules, keys, "a") - side_mean(score, rules, keys, "b")
    else:
        a_won = 0.5 if match.winner is None else float(
            keys[rules.sides[match.winner][0]] == "a")
        margin = _final_mean(match.scores, rules, keys, "a") - _final_mean(
            match.scores, rules, keys, "b")
    return PlayResult(job.kind, job.index, job.swapped, margin, a_won, stats, (job.a, job.b))


def single_deal_match(rules: RuleOptions, seed: int, index: int) -> Match:
    """Deal ``index`` of a run with ``seed``: its own dealer, cards and starting bags."""
    rng = random.Random(f"{seed}/deal/{index}")
    dealer = rng.randrange(rules.players)
    bags = [rng.randrange(rules.bag_limit) for _ in rules.sides]
    match = Match(rules, seed=seed, first_dealer=dealer)
    match.hand = HandState.deal(rules, dealer, random.Random(f"{seed}/cards/{index}"))
    match.bags = bags
    return match


def _seed(seed: int, kind: str, index: int, seat: int) -> int:
    return random.Random(f"{seed}/{kind}/{index}/{seat}").getrandbits(31)


def _side_keys(rules: RuleOptions, keys: list[str]) -> list[str]:
    return [keys[seats[0]] for seats in rules.sides]


def side_mean(score: HandScore, rules: RuleOptions, keys: list[str], who: str) -> float:
    """The mean hand score of the sides ``who`` ("a" or "b") holds."""
    owners = _side_keys(rules, keys)
    totals = [s.total for s, owner in zip(score.sides, owners, strict=True) if owner == who]
    return sum(totals) / len(totals)


def _final_mean(scores: list[int], rules: RuleOptions, keys: list[str], who: str) -> float:
    owners = _side_keys(rules, keys)
    totals = [s for s, owner in zip(scores, owners, strict=True) if owner == who]
    return sum(totals) / len(totals)


def _count_hand(score: HandScore, hand: HandState, keys: list[str], rules: RuleOptions,
                stats: dict[str, LevelStats]) -> None:
    for side in score.sides:
        level = stats[keys[side.seats[0]]]
        level.side_hands += 1
        level.bags += side.new_bags
        level.points += side.total
        level.contract_tricks += side.contract
        level.penalty += side.bag_penalty
        nil_points = sum(nil.points for nil in side.nils)
        level.nil_points += nil_points
        level.contract_points += side.total - side.bag_penalty - nil_points
        if side.contract > 0:
            level.contracts += 1
            level.sets += side.made is False
        for nil in side.nils:
            level.nils += 1
            level.nils_made += nil.made
        level.bids += len(side.seats)


def jobs_for(args: argparse.Namespace, rules: RuleOptions, a: str, b: str) -> Iterator[Job]:
    """Every play of A against B the arguments ask for: each deal and match twice."""
    first = getattr(args, "first", 0)
    for index in range(first, first + args.deals):
        for swapped in (False, True):
            yield Job("deal", index, swapped, rules, a, b, args.seed, args.budget)
    for index in range(first, first + args.matches):
        for swapped in (False, True):
            yield Job("match", index, swapped, rules, a, b, args.seed, args.budget)


def run_jobs(jobs: list[Job], workers: int) -> list[PlayResult]:
    """Play every job, in ``workers`` processes."""
    if workers > 1:
        # fork is cheapest where it exists; Windows (and macOS by default) spawn.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(workers) as pool:
            return list(pool.imap_unordered(_run, jobs, chunksize=1))
    return [_run(job) for job in jobs]


def paired_margins(results: list[PlayResult], kind: str) -> dict[int, float]:
    """A's margin per deal (or match) index, the mean of its two seatings."""
    pairs: dict[int, list[float]] = {}
    for result in results:
        if result.kind == kind:
            pairs.setdefault(result.index, []).append(result.margin)
    return {index: sum(m) / len(m) for index, m in pairs.items() if len(m) == 2}


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(args: argparse.Namespace, results: list[PlayResult]) -> dict[str, object]:
    """The figures the benchmark prints for A (``args.a``) against B, as one JSON-ready
    dict."""
    pairs: dict[tuple[str, int], list[PlayResult]] = {}
    totals = {"a": LevelStats(), "b": LevelStats()}
    for result in results:
        pairs.setdefault((result.kind, result.index), []).append(result)
        for who in ("a", "b"):
            totals[who].merge(result.stats[who])
    deal_margins = [sum(r.margin for r in pair) / 2 for (kind, _), pair in pairs.items()
                    if kind == "deal"]
    match_wins = [sum(r.a_won or 0.0 for r in pair) / 2 for (kind, _), pair in pairs.items()
                  if kind == "match"]
    mean, low, high = mean_ci(deal_margins)
    out: dict[str, object] = {
        "a": args.a, "b": args.b, "rules": args.rules, "seed": args.seed,
        "deals": args.deals, "matches": args.matches, "first": getattr(args, "first", 0),
        "budget_s": args.budget,
        "margin": round(mean, 2), "margin_ci95": [round(low, 2), round(high, 2)],
    }
    if match_wins:
        win, win_low, win_high = mean_ci(match_wins)
        out["match_win_rate"] = round(win, 3)
        out["match_win_rate_ci95"] = [round(win_low, 3), round(win_high, 3)]
        final, final_low, final_high = mean_ci(
            [sum(r.margin for r in pair) / 2 for (kind, _), pair in pairs.items()
             if kind == "match"])
        out["match_margin"] = round(final, 1)
        out["match_margin_ci95"] = [round(final_low, 1), round(final_high, 1)]
    levels: dict[str, object] = {}
    for who, level in (("a", args.a), ("b", args.b)):
        s = totals[who]
        levels[who] = {
            "level": level,
            "bags_per_hand": round(s.bags / max(1, s.side_hands), 3),
            "nil_bid_rate": round(s.nils / max(1, s.bids), 3),
            "nil_success_rate": round(s.nils_made / s.nils, 3) if s.nils else None,
            "set_rate": round(s.sets / max(1, s.contracts), 3),
            "contract_per_hand": round(s.contract_tricks / max(1, s.side_hands), 2),
            "points_per_hand": round(s.points / max(1, s.side_hands), 2),
            "nil_points_per_hand": round(s.nil_points / max(1, s.side_hands), 2),
            "contract_points_per_hand": round(s.contract_points / max(1, s.side_hands), 2),
            "penalty_per_hand": round(s.penalty / max(1, s.side_hands), 2),
            "decisions": len(s.times),
            "median_ms": round(1000 * statistics.median(s.times), 2) if s.times else 0.0,
            "p95_ms": round(1000 * _percentile(s.times, 0.95), 2),
            "max_ms": round(1000 * max(s.times, default=0.0), 2),
            "choice_median_ms": round(1000 * statistics.median(s.choice_times), 2)
            if s.choice_times else 0.0,
            "choice_p95_ms": round(1000 * _percentile(s.choice_times, 0.95), 2),
        }
    out["levels"] = levels
    out["deal_margins"] = {str(i): round(m, 2)
                           for i, m in sorted(paired_margins(results, "deal").items())}
    out["match_margins"] = {str(i): round(m, 2)
                            for i, m in sorted(paired_margins(results, "match").items())}
    return out
