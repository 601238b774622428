"""`voice-spades bench engine`: random-legal hands and legal-move generation per second."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from voice_spades.engine import CARDS, HandState, InvalidInputError, Match, Phase, profile
from voice_spades.narration import render_message


def play_random_hand(match: Match, rng: random.Random) -> None:
    """Play the match's current hand to its end with uniformly random legal actions,
    through :meth:`Match.apply`, which scores it and deals the next."""
    number = match.hands_played
    while match.hands_played == number and not match.is_over:
        hand = match.hand
        if hand.phase is Phase.PLAY:
            mask = hand.legal_play_mask()
            count = mask.bit_count()
            pick = rng.randrange(count)
            for _ in range(pick):
                mask &= mask - 1
            match.apply(CARDS[(mask & -mask).bit_length() - 1])
        else:
            match.apply(rng.choice(hand.legal_actions()))


def bench_hands(rules_name: str, seconds: float, seed: int) -> float:
    """Complete random hands (deal, bids, 13 tricks, scoring) per second."""
    rules = profile(rules_name)
    rng = random.Random(seed)
    match = Match(rules, seed)
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            play_random_hand(match, rng)
            if match.is_over:
                match = Match(rules, rng.getrandbits(32))
            count += 1
    return count / (time.perf_counter() - start)


def bench_legal(rules_name: str, seconds: float, seed: int) -> float:
    """legal_actions() calls per second over positions from random play."""
    rules = profile(rules_name)
    rng = random.Random(seed)
    positions: list[HandState] = []
    for i in range(20):
        hand = HandState.deal(rules, i % rules.players, random.Random(seed + i))
        while hand.phase is not Phase.OVER:
            positions.append(hand.copy())
            hand.apply(rng.choice(hand.legal_actions()))
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for position in positions:
            position.legal_actions()
        count += len(positions)
    return count / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    """Print the engine benchmark: medians over repeated runs."""
    parser = argparse.ArgumentParser(prog="voice-spades bench engine")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    problem = _argument_problem(args)
    if problem is not None:
        print(f"voice-spades bench engine: {problem}", file=sys.stderr)
        return 2
    hands = [bench_hands(args.rules, args.seconds, args.seed + i) for i in range(args.runs)]
    legal = [bench_legal(args.rules, args.seconds, args.seed + i) for i in range(args.runs)]
    result = {"rules": args.rules, "runs": args.runs,
              "hands_per_second_median": round(statistics.median(hands)),
              "hands_per_second_min": round(min(hands)),
              "legal_moves_per_second_median": round(statistics.median(legal)),
              "legal_moves_per_second_min": round(min(legal))}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"engine benchmark, {args.rules} rules, {args.runs} runs of {args.seconds:g} s")
        print(f"random complete hands per second: median {result['hands_per_second_median']}"
              f" (min {result['hands_per_second_min']})")
        print(f"legal-move generations per second: median "
              f"{result['legal_moves_per_second_median']}"
              f" (min {result['legal_moves_per_second_min']})")
    return 0


def _argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the command line, in one line; None when it is fine."""
    if args.runs < 1:
        return "--runs must be at least 1."
    if not args.seconds > 0:
        return "--seconds must be more than 0."
    try:
        profile(args.rules)
    except InvalidInputError as error:
        return render_message(error.message)
    return None


if __name__ == "__main__":
    raise SystemExit(main())
