"""`voice-spades simulate`: whole matches between simple legal-move players."""

from __future__ import annotations

import argparse
import json
import random
import sys

from voice_spades.bots.base import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.engine import (
    PROFILE_NAMES,
    InvalidInputError,
    Match,
    RuleOptions,
    profile,
    seat_name,
)
from voice_spades.narration import render_message
from voice_spades.narration.language import add_language_option

HAND_LIMIT = 1000
"""A match still undecided after this many hands is stopped and counted as unfinished."""


def side_names(rules: RuleOptions) -> list[str]:
    """"South-North" style names for each side."""
    return ["-".join(seat_name(rules.players, s) for s in seats) for seats in rules.sides]


def play_match(rules: RuleOptions, seed: int) -> Match:
    """One match between legal-move players, deterministic from ``seed``."""
    match = Match(rules, seed)
    players = [LegalMovePlayer(seed * 10 + seat) for seat in range(rules.players)]
    while match.to_act is not None and match.hands_played < HAND_LIMIT:
        seat = match.to_act
        match.apply(decide(players[seat], match.view(seat)))
    return match


def simulate(rules: RuleOptions, games: int, seed: int) -> dict[str, object]:
    """Play ``games`` matches and summarize them."""
    names = side_names(rules)
    wins = dict.fromkeys(names, 0)
    totals = dict.fromkeys(names, 0)
    hands = unfinished = 0
    rng = random.Random(seed)
    for _ in range(games):
        match = play_match(rules, rng.getrandbits(32))
        hands += match.hands_played
        if match.winner is None:
            unfinished += 1
        else:
            wins[names[match.winner]] += 1
        for name, score in zip(names, match.scores, strict=True):
            totals[name] += score
    return {"rules": rules.name, "players": rules.players, "matches": games, "hands": hands,
            "unfinished": unfinished, "wins": wins,
            "mean_score": {name: round(total / max(games, 1), 1)
                           for name, total in totals.items()}}


def main(argv: list[str] | None = None) -> int:
    """Parse options, simulate, print a summary (or one JSON object with --json)."""
    parser = argparse.ArgumentParser(prog="voice-spades simulate",
                                     description="Play bot-only matches and print a summary.")
    parser.add_argument("--games", type=int, default=10, help="matches to play (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="pagat", choices=PROFILE_NAMES)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_language_option(parser)
    args = parser.parse_args(argv)
    if args.games < 1:
        print("voice-spades simulate: --games must be at least 1.", file=sys.stderr)
        return 2
    try:
        rules = profile(args.rules, players=args.players)
    except InvalidInputError as exc:
        print(f"voice-spades simulate: {render_message(exc.message)}", file=sys.stderr)
        return 2
    summary = simulate(rules, args.games, args.seed)
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{summary['matches']} matches, {summary['hands']} hands, "
          f"{rules.name} rules, {rules.players} players")
    wins = summary["wins"]
    means = summary["mean_score"]
    assert isinstance(wins, dict) and isinstance(means, dict)
    for name in wins:
        print(f"{name}: {wins[name]} wins, average final score {means[name]}")
    if summary["unfinished"]:
        print(f"{summary['unfinished']} matches stopped unfinished after {HAND_LIMIT} hands")
    return 0
