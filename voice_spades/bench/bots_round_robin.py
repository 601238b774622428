"""`bench bots --round-robin`: several players, every pair on the same duplicate deals
and matches, and the paired differences between two players against a third.

Deal ``i`` (and match ``i``) has the same cards whoever plays it, so the margin of P
against X and of Q against X on deal ``i`` can be subtracted deal by deal: the 95%
confidence interval of that difference says whether P does better than Q against X.
"""

from __future__ import annotations

import argparse
import json
from itertools import combinations

from voice_spades.bench.bots_play import (
    PlayResult,
    jobs_for,
    mean_ci,
    paired_margins,
    run_jobs,
    summarize,
)
from voice_spades.engine import RuleOptions


def entrants(text: str) -> list[str]:
    """The players a comma-separated list names, in order, without repeats."""
    out: list[str] = []
    for spec in text.split(","):
        spec = spec.strip()
        if spec and spec not in out:
            out.append(spec)
    return out


def pairings(players: list[str], against: list[str]) -> list[tuple[str, str]]:
    """(A, B) pairs to play: each player against each of ``against``, or every pair."""
    if against:
        return [(p, x) for p in players for x in against if p != x]
    return list(combinations(players, 2))


def _ci(values: list[float]) -> dict[str, object]:
    mean, low, high = mean_ci(values)
    return {"mean": round(mean, 2), "ci95": [round(low, 2), round(high, 2)],
            "pairs": len(values)}


def paired_differences(by_pair: dict[tuple[str, str], list[PlayResult]]
                       ) -> list[dict[str, object]]:
    """For every opponent X and players P, Q that both played it (as A): P's margin
    minus Q's, deal by deal and match by match."""
    out: list[dict[str, object]] = []
    opponents = sorted({b for _a, b in by_pair})
    for x in opponents:
        players = [a for a, b in by_pair if b == x]
        for p, q in combinations(players, 2):
            row: dict[str, object] = {"a": p, "b": q, "against": x}
            for kind in ("deal", "match"):
                mp = paired_margins(by_pair[(p, x)], kind)
                mq = paired_margins(by_pair[(q, x)], kind)
                shared = sorted(set(mp) & set(mq))
                if shared:
                    row[kind] = _ci([mp[i] - mq[i] for i in shared])
            out.append(row)
    return out


def round_robin(args: argparse.Namespace, rules: RuleOptions) -> int:
    """Play the round robin the arguments ask for and print its tables."""
    players = entrants(args.round_robin)
    pairs = pairings(players, entrants(args.against))
    jobs = [job for a, b in pairs for job in jobs_for(args, rules, a, b)]
    by_pair: dict[tuple[str, str], list[PlayResult]] = {pair: [] for pair in pairs}
    for result in run_jobs(jobs, args.jobs):
        by_pair[result.pairing].append(result)
    report = {
        "seed": args.seed, "rules": args.rules, "deals": args.deals,
        "matches": args.matches, "budget_s": args.budget,
        "pairings": [summarize(argparse.Namespace(**{**vars(args), "a": a, "b": b}), res)
                     for (a, b), res in by_pair.items()],
        "differences": paired_differences(by_pair),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print_report(report)
    return 0


def _fmt(entry: object) -> str:
    if not isinstance(entry, dict):
        return "-"
    low, high = entry["ci95"]
    return f"{entry['mean']:+7.1f} ({low:+.1f} to {high:+.1f})"


def print_report(report: dict[str, object]) -> None:
    """The round robin as plain text tables."""
    print(f"round robin, {report['rules']} rules, seed {report['seed']}, "
          f"{report['deals']} duplicate deals, {report['matches']} duplicate matches")
    print(f"{'A':14}{'B':10}{'margin/hand (95% CI)':>30}{'match margin (95% CI)':>32}"
          f"{'A match wins':>14}")
    pairings_ = report["pairings"]
    assert isinstance(pairings_, list)
    for s in pairings_:
        match = "-"
        if "match_margin" in s:
            low, high = s["match_margin_ci95"]
            match = f"{s['match_margin']:+7.1f} ({low:+.1f} to {high:+.1f})"
        wins = f"{s['match_win_rate']:.0%}" if "match_win_rate" in s else "-"
        low, high = s["margin_ci95"]
        print(f"{s['a']:14}{s['b']:10}{s['margin']:>+12.2f} ({low:+.2f} to {high:+.2f})"
              f"{match:>32}{wins:>14}")
    print(f"{'pairing':26}{'player':14}{'set':>6}{'bags':>6}{'nil bid':>8}{'made':>6}"
          f"{'nil pts':>8}{'contr pts':>10}{'penalty':>8}{'ms median/p95/max (choices)':>30}")
    for s in pairings_:
        for who in ("a", "b"):
            lv = s["levels"][who]
            made = "-" if lv["nil_success_rate"] is None else f"{lv['nil_success_rate']:.0%}"
            print(f"{s['a'] + ' v ' + s['b']:26}{lv['level']:14}{lv['set_rate']:>6.1%}"
                  f"{lv['bags_per_hand']:>6.2f}{lv['nil_bid_rate']:>8.1%}{made:>6}"
                  f"{lv['nil_points_per_hand']:>8.1f}{lv['contract_points_per_hand']:>10.1f}"
                  f"{lv['penalty_per_hand']:>8.1f}"
                  f"{lv['choice_median_ms']:>14.0f}/{lv['choice_p95_ms']:.0f}/{lv['max_ms']:.0f}")
    differences = report["differences"]
    assert isinstance(differences, list)
    if differences:
        print("paired differences (A's margin minus B's against the same opponent):")
        for d in differences:
            print(f"  {d['a']} - {d['b']} vs {d['against']}: per hand {_fmt(d.get('deal'))}"
                  f"; matches {_fmt(d.get('match'))}")
