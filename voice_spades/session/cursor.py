"""The hand cursor: a position in the hand, moved by card and by suit."""

from __future__ import annotations

from voice_spades.commands import Move
from voice_spades.engine import Card, CardMask, Suit, cards_of
from voice_spades.narration import HAND_SUIT_ORDER, hand_order


class HandCursor:
    """Points at one card of the hand, in reading order (spades, hearts, clubs,
    diamonds; highest first). Survives the hand changing under it."""

    def __init__(self) -> None:
        self.card: Card | None = None

    def sync(self, hand: CardMask) -> None:
        """Keep pointing at a held card: if ours went, take the next one in reading
        order (the next lower of its suit, if any)."""
        cards = hand_order(cards_of(hand))
        if not cards:
            self.card = None
            return
        if self.card in cards:
            return
        if self.card is None:
            self.card = cards[0]
            return
        old = self.card
        key = (HAND_SUIT_ORDER.index(old.suit), -old.rank)
        later = [c for c in cards if (HAND_SUIT_ORDER.index(c.suit), -c.rank) > key]
        self.card = later[0] if later else cards[-1]

    def focus(self, playable: CardMask, hand: CardMask) -> None:
        """On the player's turn: if the cursor is on a card that cannot be played,
        move it to the first playable one, so Enter plays something legal."""
        self.sync(hand)
        if not playable or (self.card is not None and playable & self.card.bit):
            return
        self.card = hand_order(cards_of(playable))[0]

    def move(self, move: Move, hand: CardMask) -> tuple[Card | None, bool]:
        """Apply ``move``; returns the card reached and whether the suit changed."""
        self.sync(hand)
        cards = hand_order(cards_of(hand))
        if self.card is None:
            return None, False
        old = self.card
        i = cards.index(old)
        same_suit = [c for c in cards if c.suit == old.suit]
        if move is Move.NEXT_CARD:
            self.card = cards[min(i + 1, len(cards) - 1)]
        elif move is Move.PREVIOUS_CARD:
            self.card = cards[max(i - 1, 0)]
        elif move is Move.HIGHEST:
            self.card = same_suit[0]
        elif move is Move.LOWEST:
            self.card = same_suit[-1]
        else:
            self.card = self._other_suit(cards, old.suit, 1 if move is Move.NEXT_SUIT else -1)
        return self.card, self.card.suit != old.suit

    def jump(self, suit: Suit, hand: CardMask) -> Card | None:
        """Put the cursor on the highest card of ``suit``; None (cursor unmoved) if void."""
        self.sync(hand)
        cards = [c for c in hand_order(cards_of(hand)) if c.suit == suit]
        if cards:
            self.card = cards[0]
            return cards[0]
        return None

    @staticmethod
    def _other_suit(cards: list[Card], suit: Suit, step: int) -> Card:
        held = [s for s in HAND_SUIT_ORDER if any(c.suit == s for c in cards)]
        target = held[(held.index(suit) + step) % len(held)]
        return next(c for c in cards if c.suit == target)
