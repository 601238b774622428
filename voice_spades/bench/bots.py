"""`voice-spades bench bots`: two bot levels on duplicate deals.

Each deal is played twice with the same cards: level A on side 0 (even seats when
there are no partnerships) and B on the other, then the other way round, so the
luck of the cards cancels. Each deal starts with bag counts drawn at random (the
same in both plays of a deal) so that managing bags matters as it does mid-match.
``--matches M`` also plays M whole matches to the target, each twice the same way.
Decision times are wall-clock time around each call to the bot, at the live time
budget unless ``--budget`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from voice_spades.bots import LEVELS, Bot, decide, make_bot
from voice_spades.engine import (
    HandScore,
    HandState,
    InvalidInputError,
    Match,
    RuleOptions,
    profile,
)
from voice_spades.errors import SpadesError
from voice_spades.narration import render_message

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
    sets: int = 0
    times: list[float] = field(default_factory=list)
    choice_times: list[float] = field(default_factory=list)
    """Times of decisions with more than one legal action."""

    def merge(self, other: LevelStats) -> None:
        """Add another run's counts to these."""
        for name in ("side_hands", "bags", "bids", "nils", "nils_made", "contracts", "sets"):
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


def _owners(job: Job) -> list[str]:
    """"a" or "b" for each seat: group 0 is A's unless the seating is swapped."""
    return ["a" if (group_of(job.rules, s) == 0) != job.swapped else "b"
            for s in range(job.rules.players)]


def _run(job: Job) -> PlayResult:
    rules = job.rules
    keys = _owners(job)
    seat_levels = [job.a if key == "a" else job.b for key in keys]
    bots: list[Bot] = [make_bot(seat_levels[s], s, rules,
                                seed=_seed(job.seed, job.kind, job.index, s),
                                time_budget=job.budget) for s in range(rules.players)]
    stats = {"a": LevelStats(), "b": LevelStats()}
    if job.kind == "deal":
        match = _single_deal_match(rules, job.seed, job.index)
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
        margin = _side_mean(score, rules, keys, "a") - _side_mean(score, rules, keys, "b")
    else:
        a_won = 0.5 if match.winner is None else float(
            keys[rules.sides[match.winner][0]] == "a")
        margin = _final_mean(match.scores, rules, keys, "a") - _final_mean(
            match.scores, rules, keys, "b")
    return PlayResult(job.kind, job.index, job.swapped, margin, a_won, stats)


def _single_deal_match(rules: RuleOptions, seed: int, index: int) -> Match:
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


def _side_mean(score: HandScore, rules: RuleOptions, keys: list[str], who: str) -> float:
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
        if side.contract > 0:
            level.contracts += 1
            level.sets += side.made is False
        for nil in side.nils:
            level.nils += 1
            level.nils_made += nil.made
        level.bids += len(side.seats)


def _jobs(args: argparse.Namespace, rules: RuleOptions) -> Iterator[Job]:
    for index in range(args.deals):
        for swapped in (False, True):
            yield Job("deal", index, swapped, rules, args.a, args.b, args.seed, args.budget)
    for index in range(args.matches):
        for swapped in (False, True):
            yield Job("match", index, swapped, rules, args.a, args.b, args.seed, args.budget)


def _mean_ci(values: list[float]) -> tuple[float, float, float]:
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
    """The figures the benchmark prints, as one JSON-ready dict."""
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
    mean, low, high = _mean_ci(deal_margins)
    out: dict[str, object] = {
        "a": args.a, "b": args.b, "rules": args.rules, "seed": args.seed,
        "deals": args.deals, "matches": args.matches,
        "budget_s": args.budget,
        "margin": round(mean, 2), "margin_ci95": [round(low, 2), round(high, 2)],
    }
    if match_wins:
        win, win_low, win_high = _mean_ci(match_wins)
        out["match_win_rate"] = round(win, 3)
        out["match_win_rate_ci95"] = [round(win_low, 3), round(win_high, 3)]
        final, final_low, final_high = _mean_ci(
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
            "decisions": len(s.times),
            "median_ms": round(1000 * statistics.median(s.times), 2) if s.times else 0.0,
            "p95_ms": round(1000 * _percentile(s.times, 0.95), 2),
            "max_ms": round(1000 * max(s.times, default=0.0), 2),
            "choice_median_ms": round(1000 * statistics.median(s.choice_times), 2)
            if s.choice_times else 0.0,
            "choice_p95_ms": round(1000 * _percentile(s.choice_times, 0.95), 2),
        }
    out["levels"] = levels
    return out


def _print_text(summary: dict[str, object]) -> None:
    a, b = summary["a"], summary["b"]
    budget = summary["budget_s"]
    print(f"bots benchmark: {a} (A) vs {b} (B), {summary['rules']} rules, seed "
          f"{summary['seed']}, time budget {'live' if budget is None else f'{budget} s'}")
    ci = summary["margin_ci95"]
    assert isinstance(ci, list)
    if summary["deals"]:
        print(f"{summary['deals']} duplicate deals: margin {summary['margin']:+.2f} points "
              f"per hand (A minus B), 95% CI {ci[0]:+.2f} to {ci[1]:+.2f}")
    if "match_win_rate" in summary:
        wci = summary["match_win_rate_ci95"]
        assert isinstance(wci, list)
        mci = summary["match_margin_ci95"]
        assert isinstance(mci, list)
        print(f"{summary['matches']} duplicate matches: A wins {summary['match_win_rate']:.1%}"
              f" (95% CI {wci[0]:.1%} to {wci[1]:.1%}); final score margin "
              f"{summary['match_margin']:+.1f} (95% CI {mci[0]:+.1f} to {mci[1]:+.1f})")
    levels = summary["levels"]
    assert isinstance(levels, dict)
    print(f"{'':3}{'level':8}{'bags/hand':>10}{'nil rate':>9}{'nil made':>9}{'set rate':>9}"
          f"{'decisions':>10}{'median':>9}{'p95':>9}{'max':>9}  (ms; choices only: median/p95)")
    for who in ("a", "b"):
        s = levels[who]
        made = "-" if s["nil_success_rate"] is None else f"{s['nil_success_rate']:.0%}"
        print(f"{who.upper():3}{s['level']:8}{s['bags_per_hand']:>10.2f}"
              f"{s['nil_bid_rate']:>9.1%}{made:>9}{s['set_rate']:>9.1%}{s['decisions']:>10}"
              f"{s['median_ms']:>9.1f}{s['p95_ms']:>9.1f}{s['max_ms']:>9.1f}"
              f"  ({s['choice_median_ms']:.1f}/{s['choice_p95_ms']:.1f})")


def main(argv: list[str] | None = None) -> int:
    """Run the duplicate benchmark and print its figures (``--json`` for one object)."""
    parser = argparse.ArgumentParser(prog="voice-spades bench bots")
    parser.add_argument("--a", default="hard", help="first level (easy, medium, hard)")
    parser.add_argument("--b", default="medium", help="second level")
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--rules", default="cardgames", help="rule profile")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--matches", type=int, default=0, help="duplicate whole matches")
    parser.add_argument("--budget", type=float, default=None,
                        help="Hard's seconds per decision (default: the live budget)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        rules = _checked_rules(args)
    except SpadesError as error:  # before ValueError: InvalidInputError is one too
        print(f"voice-spades bench bots: {render_message(error.message)}", file=sys.stderr)
        return 2
    except ValueError as problem:
        print(f"voice-spades bench bots: {problem}", file=sys.stderr)
        return 2
    jobs = list(_jobs(args, rules))
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = list(pool.imap_unordered(_run, jobs, chunksize=1))
    else:
        results = [_run(job) for job in jobs]
    summary = summarize(args, results)
    if args.json:
        print(json.dumps(summary))
    else:
        _print_text(summary)
    return 0


def _checked_rules(args: argparse.Namespace) -> RuleOptions:
    """The rules the command line asks for, once every argument is checked: raises
    SpadesError (an unknown level or rules) or ValueError (a bad count), saying why."""
    for level in (args.a, args.b):
        if level not in LEVELS:
            raise InvalidInputError("bots.unknown_level", level=level,
                                    choices=", ".join(LEVELS))
    for name in ("deals", "matches"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name} must be 0 or more.")
    if args.deals + args.matches == 0:
        raise ValueError("--deals or --matches must be at least 1.")
    if args.jobs < 1:
        raise ValueError("--jobs must be at least 1.")
    if args.budget is not None and not args.budget > 0:
        raise ValueError("--budget must be more than 0.")
    return profile(args.rules, players=args.players)


if __name__ == "__main__":
    raise SystemExit(main())
