"""The simplest computer player: a plain high-card bid and a random legal card."""

from __future__ import annotations

import random

from voice_spades.engine import Bid, BlindNilChoice, Card, DrawChoice, Exchange, PlayerView, Suit


class LegalMovePlayer:
    """Bids its aces, kings and high spades; plays high while it needs tricks and low
    after, with some random cards. For simulations and as a stand-in; not meant to be strong."""

    name = "legal-move"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def bid(self, view: PlayerView) -> Bid:
        """About one trick per ace, non-spade king and spade jack or higher; at least 1."""
        count = sum(1 for card in view.hand_cards
                    if card.rank == 14 or (card.rank == 13 and card.suit != Suit.SPADES)
                    or (card.suit == Suit.SPADES and card.rank >= 11))
        legal = [a for a in view.legal if isinstance(a, Bid)]
        # Random play spreads tricks evenly, so lean the count toward a fair share.
        fair = view.rules.hand_size / view.rules.players
        wanted = max(1, int((count + fair) / 2))
        return min(legal, key=lambda b: (abs(b.tricks - wanted), b.tricks))

    def play(self, view: PlayerView) -> Card:
        """Its highest card while it needs tricks, its lowest after; now and then a random one."""
        cards = [a for a in view.legal if isinstance(a, Card)]
        bid = view.bids[view.seat]
        strength = {card: (card.suit == Suit.SPADES, card.rank) for card in cards}
        if bid is None or self._rng.random() < 0.3:
            return self._rng.choice(cards)
        if view.tricks_won[view.seat] < bid.tricks:
            return max(cards, key=strength.__getitem__)
        return min(cards, key=strength.__getitem__)

    def draw(self, view: PlayerView) -> DrawChoice:
        """Keep high cards and spades."""
        assert view.draw_top is not None
        top = view.draw_top
        return DrawChoice(top.rank >= 10 or top.suit == Suit.SPADES)

    def blind_nil(self, view: PlayerView) -> BlindNilChoice:
        """Never."""
        return BlindNilChoice(False)

    def exchange(self, view: PlayerView) -> Exchange:
        """Keep everything."""
        return Exchange(())
