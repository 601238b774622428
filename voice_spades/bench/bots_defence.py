"""`bench bots --defence`: where A's card play differs from Medium's while B's side is
one or two tricks from its contract, and what Medium's card would have done there.

At every card A chooses (with more than one legal) while B's side, holding a contract,
needs 1 or 2 more tricks, A's card is set beside Medium's heuristic on the same view;
cards of one suit with no card still in play between them count as the same card.
Where they differ, the hand is copied, Medium's card is played in the copy, and the
same players play the copy to its end: B's side set or not, and A's margin, with each
card. Every player's choices repeat from the position and its seed, so the two ends
differ only through that card and what it changed. Single deals only.
"""

from __future__ import annotations

import argparse
import copy
import multiprocessing
from dataclasses import dataclass

from voice_spades.bench.bots_play import (
    Job,
    jobs_for,
    mean_ci,
    owners,
    seat_players,
    side_mean,
    single_deal_match,
)
from voice_spades.bots import Bot, decide
from voice_spades.bots.bits import ABOVE, BELOW
from voice_spades.bots.knowledge import read_view
from voice_spades.bots.policy import choose_card
from voice_spades.bots.table import Table
from voice_spades.engine import CARDS, Card, CardMask, Match, Phase, RuleOptions, mask_of

CLOSE = (1, 2)
"""Tricks B's side still needs for its contract, at the decisions compared."""


@dataclass(frozen=True)
class Ending:
    """How a hand ended: A's margin (A's side minus B's) and whether B's side was set."""

    margin: float
    b_set: bool


@dataclass
class DefenceDecision:
    """One of A's choices with B's side close to its contract."""

    index: int
    swapped: bool
    need: int
    """Tricks B's side still needed."""
    leading: bool
    own_nil: bool
    """A's side holds a nil bid."""
    medium_card: str
    a_card: str
    with_medium: Ending | None
    """The hand's end with Medium's card instead (None when the cards are the same)."""
    real: Ending | None = None
    """The hand's end as played (filled in at the end of the hand)."""


def same_card(a: int, b: int, hand: CardMask, played: CardMask) -> bool:
    """Whether playing ``a`` or ``b`` from ``hand`` is the same: one card, or one suit
    with every card between them ours or played."""
    if a == b:
        return True
    if a // 13 != b // 13:
        return False
    low, high = min(a, b), max(a, b)
    return not ABOVE[low] & BELOW[high] & ~(hand | played)


def _finish(match: Match, bots: list[Bot], keys: list[str], rules: RuleOptions) -> Ending:
    while not match.hand_scores:
        seat = match.to_act
        assert seat is not None
        match.apply(decide(bots[seat], match.view(seat)))
    score = match.hand_scores[0]
    b_side = next(side for side in score.sides if keys[side.seats[0]] == "b")
    return Ending(side_mean(score, rules, keys, "a") - side_mean(score, rules, keys, "b"),
                  b_side.contract > 0 and b_side.made is False)


def play_deal(job: Job) -> list[DefenceDecision]:
    """Play one deal as the bench does, comparing A's close-defence cards with Medium's."""
    rules = job.rules
    keys = owners(job)
    bots = seat_players(job)
    match = single_deal_match(rules, job.seed, job.index)
    found: list[DefenceDecision] = []
    while not match.hand_scores:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        action = decide(bots[seat], view)
        if (keys[seat] == "a" and view.phase is Phase.PLAY and len(view.legal) > 1
                and isinstance(action, Card)):
            table = Table(rules, view.bids, view.scores, view.bags)
            side = table.side_of[seat]
            b_sides = [s for s in range(len(table.contract)) if s != side]
            needs = [table.need(s, view.tricks_won) for s in b_sides
                     if table.contract[s] > 0]
            if any(need in CLOSE for need in needs):
                legal = mask_of(a for a in view.legal if isinstance(a, Card))
                trick = [(s, c.index) for s, c in view.trick]
                medium = choose_card(seat, legal, trick, read_view(view).possible,
                                     view.tricks_won, table, exact=False)
                differs = not same_card(action.index, medium, view.hand, view.played)
                ending = None
                if differs:
                    fork = copy.deepcopy(match)
                    fork.apply(CARDS[medium])
                    ending = _finish(fork, bots, keys, rules)
                found.append(DefenceDecision(
                    job.index, job.swapped, min(n for n in needs if n in CLOSE),
                    not view.trick, any(table.nil[s] for s in rules.sides[side]),
                    str(CARDS[medium]), str(action), ending))
        match.apply(action)
    real = _finish(match, bots, keys, rules)
    for decision in found:
        decision.real = real
    return found


def _group(decisions: list[DefenceDecision]) -> dict[str, object]:
    changed = [d for d in decisions if d.with_medium is not None and d.real is not None]
    gains = [d.with_medium.margin - d.real.margin for d in changed
             if d.with_medium is not None and d.real is not None]
    mean, low, high = mean_ci(gains)
    return {
        "decisions": len(decisions),
        "differ": len(changed),
        "differ_leading": sum(d.leading for d in changed),
        "set_with_a_card": sum(d.real.b_set for d in changed if d.real is not None),
        "set_with_medium_card": sum(d.with_medium.b_set for d in changed
                                    if d.with_medium is not None),
        "medium_minus_a": round(mean, 1),
        "medium_minus_a_ci95": [round(low, 1), round(high, 1)],
    }


def defence(args: argparse.Namespace, rules: RuleOptions) -> dict[str, object]:
    """The comparison over the deals the arguments ask for (``--a``, ``--b``, ``--deals``,
    ``--first``, ``--seed``, ``--jobs``): for A's choices with no nil on its side, and
    apart those with one."""
    jobs = [job for job in jobs_for(args, rules, args.a, args.b) if job.kind == "deal"]
    if args.jobs > 1:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(args.jobs) as pool:
            per_deal = pool.map(play_deal, jobs, chunksize=1)
    else:
        per_deal = [play_deal(job) for job in jobs]
    decisions = [d for found in per_deal for d in found]
    return {
        "a": args.a, "b": args.b, "rules": args.rules, "seed": args.seed,
        "deals": args.deals, "first": args.first, "plays": len(jobs),
        "no_own_nil": _group([d for d in decisions if not d.own_nil]),
        "own_nil": _group([d for d in decisions if d.own_nil]),
    }


def print_defence(report: dict[str, object]) -> None:
    """The comparison as plain text."""
    print(f"defence: {report['a']} against {report['b']}, {report['rules']} rules, seed "
          f"{report['seed']}, {report['plays']} plays; {report['b']}'s side 1 or 2 tricks "
          "from its contract")
    for key, name in (("no_own_nil", "no nil on A's side"), ("own_nil", "a nil on A's side")):
        g = report[key]
        assert isinstance(g, dict)
        low, high = g["medium_minus_a_ci95"]
        print(f"  {name}: {g['decisions']} choices, {g['differ']} differ from Medium's "
              f"({g['differ_leading']} leads); set {g['set_with_a_card']} times with "
              f"{report['a']}'s card, {g['set_with_medium_card']} with Medium's; Medium's "
              f"card minus {report['a']}'s {g['medium_minus_a']:+.1f} ({low:+.1f} to "
              f"{high:+.1f}) points a hand")
