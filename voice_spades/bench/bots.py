"""`voice-spades bench bots`: two players on duplicate deals, or a round robin.

Each deal is played twice with the same cards: level A on side 0 (even seats when
there are no partnerships) and B on the other, then the other way round, so the
luck of the cards cancels. Each deal starts with bag counts drawn at random (the
same in both plays of a deal) so that managing bags matters as it does mid-match.
``--matches M`` also plays M whole matches to the target, each twice the same way.
``--first F`` starts at deal (and match) F, so a long run can be played in parts whose
``deal_margins`` and ``match_margins`` (with ``--json``) join into the whole run's.
Decision times are wall-clock time around each call to the bot. Hard's search size
is fixed, so a busy machine makes a run slower, not Hard weaker; ``--budget`` changes
only its safety net (seconds of the deciding thread's processor time).

Players are named by specs (:mod:`voice_spades.bench.bots_players`): the levels, the
outside opponents ``pimc``, ``rules`` and ``highbid``, or ``PLAY/BIDS`` such as ``hard/medium``.
``--round-robin A,B,C`` plays every pair (or each of them against each of
``--against X,Y``) on the same deals and matches, and reports the paired differences
(:mod:`voice_spades.bench.bots_round_robin`). ``--defence`` compares A's cards with
Medium's where B's side is one or two tricks from its contract
(:mod:`voice_spades.bench.bots_defence`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from voice_spades.bench.bots_defence import defence, print_defence
from voice_spades.bench.bots_play import jobs_for, run_jobs, summarize
from voice_spades.bench.bots_players import check_spec
from voice_spades.bench.bots_round_robin import entrants, pairings, round_robin
from voice_spades.engine import RuleOptions, profile
from voice_spades.errors import SpadesError
from voice_spades.narration import render_message

MAX_JOBS = 64
"""Most worker processes: more than the cores only queue, and each is a process of its
own (17 MB measured playing a Hard deal), so 64 take about 1.1 GB. Before, --jobs
100000 asked for a hundred thousand processes."""


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
    print("contract per side-hand (tricks): " + "; ".join(
        f"{levels[who]['level']} {levels[who]['contract_per_hand']:.2f}" for who in ("a", "b")))
    print("points per side-hand: " + "; ".join(
        f"{levels[who]['level']} {levels[who]['points_per_hand']:+.1f} = nil "
        f"{levels[who]['nil_points_per_hand']:+.1f}, contracts "
        f"{levels[who]['contract_points_per_hand']:+.1f}, bag penalties "
        f"{levels[who]['penalty_per_hand']:+.1f}" for who in ("a", "b")))


def main(argv: list[str] | None = None) -> int:
    """Run the duplicate benchmark and print its figures (``--json`` for one object)."""
    parser = argparse.ArgumentParser(prog="voice-spades bench bots")
    parser.add_argument("--a", default="hard",
                        help="first player: easy, medium, hard, pimc, rules, highbid, or "
                             "PLAY/BIDS")
    parser.add_argument("--b", default="medium", help="second player")
    parser.add_argument("--round-robin",
                        help="comma-separated players: every pair plays the same deals")
    parser.add_argument("--against",
                        help="with --round-robin: play each of its players against each "
                             "of these only")
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first deal and match (a long run can be split "
                             "into parts with the same deals and matches)")
    parser.add_argument("--jobs", type=int, default=1,
                        help=f"worker processes (at most {MAX_JOBS})")
    parser.add_argument("--rules", default="cardgames", help="rule profile")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--matches", type=int, default=0, help="duplicate whole matches")
    parser.add_argument("--budget", type=float, default=None,
                        help="Hard's safety net in seconds of processor time per "
                             "decision (default: the live one; its search size is fixed)")
    parser.add_argument("--defence", action="store_true",
                        help="single deals: where A's card differs from Medium's while B's "
                             "side needs 1 or 2 more tricks, and what Medium's card would "
                             "have done")
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
    if args.round_robin:
        return round_robin(args, rules)
    if args.defence:
        report = defence(args, rules)
        print_report: Callable[[dict[str, object]], None] = print_defence
    else:
        results = run_jobs(list(jobs_for(args, rules, args.a, args.b)), args.jobs)
        report, print_report = summarize(args, results), _print_text
    if args.json:
        print(json.dumps(report))
    else:
        print_report(report)
    return 0


def _checked_rules(args: argparse.Namespace) -> RuleOptions:
    """The rules the command line asks for, once every argument is checked: raises
    SpadesError (an unknown level or rules) or ValueError (a bad count), saying why."""
    for name in ("round_robin", "against"):  # given but empty ran the default benchmark
        if getattr(args, name) is not None and not entrants(getattr(args, name)):
            raise ValueError(f"--{name.replace('_', '-')} needs players separated by "
                             "commas, for example easy,medium,hard.")
    args.round_robin, args.against = args.round_robin or "", args.against or ""
    for spec in (args.a, args.b, *entrants(args.round_robin), *entrants(args.against)):
        check_spec(spec)
    if args.against and not args.round_robin:
        raise ValueError("--against needs --round-robin.")
    if args.defence and (args.round_robin or args.matches or not args.deals):
        raise ValueError("--defence takes single deals (--deals) of --a against --b only.")
    if args.round_robin and not pairings(entrants(args.round_robin), entrants(args.against)):
        raise ValueError("--round-robin needs two players, or one with --against.")
    for name in ("deals", "matches", "first"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name} must be 0 or more.")
    if args.deals + args.matches == 0:
        raise ValueError("--deals or --matches must be at least 1.")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise ValueError(f"--jobs must be from 1 to {MAX_JOBS}.")
    if args.budget is not None and not args.budget > 0:
        raise ValueError("--budget must be more than 0.")
    return profile(args.rules, players=args.players)


if __name__ == "__main__":
    raise SystemExit(main())
