"""A plain determinized search (perfect-information Monte Carlo) with random play-outs.

For each decision it deals the unseen cards :data:`SAMPLES` times, each deal
consistent with what the seat may know (its own hand, the cards played, the suits a
player has shown out of, how many cards each holds). On every deal it plays each legal
card, then everyone plays random legal cards to the end of the hand; the hand is
scored by the rules' scoring (its side minus the others). The card with the best
average wins. Bids come from the sure-trick count. A fixed number of deals keeps its
decisions repeatable from the seed.
"""

from __future__ import annotations

import random

from voice_spades.bench.opponents.bidding import count_bid
from voice_spades.bench.opponents.common import (
    PlainTwoPlayer,
    allowed_for,
    unseen_cards,
    voids_of,
)
from voice_spades.engine import (
    CARDS,
    FIRST_SPADE,
    Bid,
    Card,
    CardMask,
    PlayerView,
    legal_mask,
    mask_of,
    score_hand,
    trick_winner_index,
)

SAMPLES = 60
"""Deals sampled per play decision."""


class DeterminizedSearch(PlainTwoPlayer):
    """Samples consistent deals and plays every legal card out at random on each."""

    name = "pimc"

    def __init__(self, seat: int, seed: int = 0, samples: int = SAMPLES) -> None:
        self.seat = seat
        self.seed = seed
        self.samples = samples

    def bid(self, view: PlayerView) -> Bid:
        """The sure-trick count."""
        return count_bid(view)

    def play(self, view: PlayerView) -> Card:
        """The legal card with the best average score over random play-outs."""
        legal = mask_of(a for a in view.legal if isinstance(a, Card))
        cards = [c for c in range(52) if legal >> c & 1]
        if len(cards) == 1:
            return CARDS[cards[0]]
        rng = random.Random(f"{self.seed}/{view.seat}/{view.hand_number}/"
                            f"{len(view.completed)}/{len(view.trick)}")
        voids = voids_of(view)
        unseen = unseen_cards(view)
        allowed = allowed_for(view, voids, unseen)
        bids = [b if b is not None else Bid(1) for b in view.bids]
        cache: dict[tuple[int, ...], float] = {}
        side = view.rules.side_of(view.seat)

        def value(tricks: list[int]) -> float:
            key = tuple(tricks)
            found = cache.get(key)
            if found is None:
                totals = [s.total for s in score_hand(view.rules, bids, tricks, view.scores,
                                                      view.bags).sides]
                others = [t for i, t in enumerate(totals) if i != side]
                found = totals[side] - sum(others) / max(1, len(others))
                cache[key] = found
            return found

        sums = [0.0] * len(cards)
        for _ in range(self.samples):
            hands = _deal(view, allowed, unseen, rng)
            if hands is None:
                continue
            for i, card in enumerate(cards):
                sums[i] += value(_random_playout(view, hands, card, rng))
        best = max(range(len(cards)), key=lambda i: (sums[i], -i))
        return CARDS[cards[best]]


def _deal(view: PlayerView, allowed: list[CardMask], unseen: CardMask,
          rng: random.Random, tries: int = 50) -> list[CardMask] | None:
    """Every seat's hand: ours, and the unseen cards dealt at random within what each
    other seat may hold; None if no such deal turned up."""
    seats = [s for s in range(view.rules.players) if s != view.seat]
    cards = [c for c in range(52) if unseen >> c & 1]
    for _ in range(tries):
        rng.shuffle(cards)
        # Cards few seats may hold go first.
        cards.sort(key=lambda c: sum(allowed[s] >> c & 1 for s in seats))
        room = {s: view.cards_held[s] for s in seats}
        hands = [0] * view.rules.players
        hands[view.seat] = view.hand
        ok = True
        for c in cards:
            options = [s for s in seats if room[s] > 0 and allowed[s] >> c & 1]
            if not options:
                ok = False
                break
            pick = rng.choice(options)
            room[pick] -= 1
            hands[pick] |= 1 << c
        if ok and not any(room.values()):
            return hands
    return None


def _random_playout(view: PlayerView, dealt: list[CardMask], first: int,
                    rng: random.Random) -> list[int]:
    """Tricks each seat ends with when we play ``first`` and everyone then plays random
    legal cards."""
    n = view.rules.players
    hands = list(dealt)
    won = list(view.tricks_won)
    trick = [(s, c.index) for s, c in view.trick]
    broken = view.spades_broken
    forced_breaks = view.rules.forced_spade_lead_breaks
    seat = view.seat
    card = first
    while True:
        led = trick[0][1] // 13 if trick else None
        if card < 0:
            legal = legal_mask(hands[seat], led, broken)
            options = [c for c in range(52) if legal >> c & 1]
            card = options[rng.randrange(len(options))]
        hands[seat] &= ~(1 << card)
        if card >= FIRST_SPADE and ((led is None and forced_breaks)
                                    or (led is not None and led != 3)):
            broken = True
        trick.append((seat, card))
        card = -1
        if len(trick) == n:
            winner = trick[trick_winner_index(trick)][0]
            won[winner] += 1
            trick = []
            seat = winner
            if not hands[seat]:
                return won
        else:
            seat = (seat + 1) % n


__all__ = ["SAMPLES", "DeterminizedSearch"]
