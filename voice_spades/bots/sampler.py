"""Random deals of the hidden cards consistent with what a seat knows: every unseen
card goes to a seat that may hold it (no card of a suit it showed out of) and every
hand gets exactly the number of cards it holds. In the two-player game the unseen
cards nobody holds form one more "hand", the unseen discards."""

from __future__ import annotations

import random
from collections.abc import Callable

from voice_spades.bots.bits import indices
from voice_spades.bots.knowledge import Knowledge
from voice_spades.engine import CardMask


class DealSampler:
    """Deals the unseen cards again and again for one decision."""

    def __init__(self, know: Knowledge,
                 card_weight: Callable[[int], float] | None = None) -> None:
        self.know = know
        self.card_weight = card_weight
        """Two-player only: how much likelier the opponent is to hold each card than a
        uniform deal says (it kept the cards it liked during the draw)."""
        self.seats = [s for s in range(know.players) if s != know.seat]
        self.caps = [know.counts[s] for s in self.seats]
        self.allowed = [know.possible[s] for s in self.seats]
        if know.out_of_play > 0:
            self.caps.append(know.out_of_play)
            self.allowed.append(know.unseen)
        self.cards = indices(know.unseen)
        self.free = all(a == know.unseen for a in self.allowed)
        # For constrained deals: cards with fewer eligible seats are placed first.
        self.eligible = {c: [i for i, a in enumerate(self.allowed) if a >> c & 1]
                         for c in self.cards}

    def sample(self, rng: random.Random, tries: int = 60) -> list[CardMask] | None:
        """Every seat's hand (our own included), or None if no consistent deal was
        found in ``tries`` attempts (possible only with unusual void patterns)."""
        for _ in range(tries if not self.free else 1):
            hands: list[CardMask] | None
            if self.card_weight is not None and len(self.seats) == 1:
                hands = self._weighted_deal(rng, self.card_weight)
            elif self.free:
                hands = self._free_deal(rng)
            else:
                hands = self._constrained_deal(rng)
            if hands is not None:
                full = [0] * self.know.players
                full[self.know.seat] = self.know.hand
                for i, seat in enumerate(self.seats):
                    full[seat] = hands[i]
                return full
        return None

    def _weighted_deal(self, rng: random.Random,
                       weight: Callable[[int], float]) -> list[CardMask]:
        """The one opponent's hand drawn with card weights (weighted sampling without
        replacement by random keys); the rest of the unseen cards are out of play."""
        allowed = indices(self.allowed[0])
        keyed = sorted(allowed, key=lambda c: rng.random() ** (1.0 / weight(c)), reverse=True)
        mask = 0
        for c in keyed[:self.caps[0]]:
            mask |= 1 << c
        return [mask, self.know.unseen & ~mask][:len(self.caps)]

    def _free_deal(self, rng: random.Random) -> list[CardMask]:
        cards = list(self.cards)
        rng.shuffle(cards)
        hands = []
        start = 0
        for cap in self.caps:
            mask = 0
            for c in cards[start:start + cap]:
                mask |= 1 << c
            hands.append(mask)
            start += cap
        return hands

    def _constrained_deal(self, rng: random.Random) -> list[CardMask] | None:
        cards = list(self.cards)
        rng.shuffle(cards)
        cards.sort(key=lambda c: len(self.eligible[c]))
        room = list(self.caps)
        hands = [0] * len(room)
        for c in cards:
            options = [i for i in self.eligible[c] if room[i] > 0]
            if not options:
                return None
            if len(options) == 1:
                pick = options[0]
            else:
                pick = rng.choices(options, weights=[room[i] for i in options])[0]
            room[pick] -= 1
            hands[pick] |= 1 << c
        return hands
