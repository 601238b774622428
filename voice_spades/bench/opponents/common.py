"""What every outside opponent shares: the seat's knowledge of the hidden cards, the
two-player decisions (kept plain), and card-mask helpers."""

from __future__ import annotations

from voice_spades.engine import (
    SUIT_MASKS,
    BlindNilChoice,
    CardMask,
    DrawChoice,
    Exchange,
    PlayerView,
    Suit,
    deck_mask,
)


def low(mask: CardMask) -> int:
    """Index of the lowest card of a non-empty mask (by suit, then rank)."""
    return (mask & -mask).bit_length() - 1


def high(mask: CardMask) -> int:
    """Index of the highest card of a non-empty mask."""
    return mask.bit_length() - 1


def voids_of(view: PlayerView) -> list[int]:
    """Per seat, a 4-bit set of the suits it has shown out of (failed to follow)."""
    voids = [0] * view.rules.players
    tricks = [t.plays for t in view.completed]
    if view.trick:
        tricks.append(view.trick)
    for plays in tricks:
        led = plays[0][1].suit
        for seat, card in plays:
            if card.suit != led:
                voids[seat] |= 1 << int(led)
    return voids


def unseen_cards(view: PlayerView) -> CardMask:
    """Cards in play that this seat has not seen."""
    return deck_mask(view.rules.removed_twos) & ~view.hand & ~view.played & ~view.known_out


def allowed_for(view: PlayerView, voids: list[int], unseen: CardMask) -> list[CardMask]:
    """Per seat, the unseen cards it may hold (none of a suit it showed out of)."""
    out = []
    for seat in range(view.rules.players):
        mask = unseen
        for suit in Suit:
            if voids[seat] >> int(suit) & 1:
                mask &= ~SUIT_MASKS[suit]
        out.append(mask)
    return out


class PlainTwoPlayer:
    """Plain two-player decisions: keep high cards and spades, no blind nil."""

    def draw(self, view: PlayerView) -> DrawChoice:
        """Keep a card from the 10 up, or a spade."""
        top = view.draw_top
        return DrawChoice(top is None or top.rank >= 10 or top.suit is Suit.SPADES)

    def blind_nil(self, view: PlayerView) -> BlindNilChoice:
        """Never."""
        return BlindNilChoice(False)

    def exchange(self, view: PlayerView) -> Exchange:
        """Keep everything."""
        return Exchange(())
