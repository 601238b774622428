"""Card tracking from a PlayerView: what is unseen, who showed out of what, who may
hold which card.

Everything here is derived from the view alone, so any bot (or a test) can ask
what a seat may legitimately know.
"""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.bots.bits import SUIT_NUMBERS, SUITS
from voice_spades.engine import CardMask, PlayerView, Suit, deck_mask

NON_SPADE_SUITS = sum(1 << suit for suit in Suit if suit is not Suit.SPADES)
"""The void bits of clubs, diamonds and hearts (see :attr:`Knowledge.voids`)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows about the hidden cards."""

    seat: int
    players: int
    hand: CardMask
    unseen: CardMask
    """Cards in no known place: not ours, not played, not known to be out of play."""
    voids: tuple[int, ...]
    """Per seat, a 4-bit set of the suits that seat has shown out of (bit ``suit``)."""
    counts: tuple[int, ...]
    """Cards each seat holds now."""
    possible: tuple[CardMask, ...]
    """Per seat, the cards it may hold: our own hand for us, else unseen less voids."""
    spades_broken: bool
    played_by: tuple[CardMask, ...]
    """Per seat, the cards it has played this hand."""
    out_of_play: int
    """How many unseen cards are in no hand (two-player discards we did not see)."""

    def is_void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` has shown out of ``suit``."""
        return bool(self.voids[seat] >> suit & 1)


def read_view(view: PlayerView) -> Knowledge:
    """Everything :class:`Knowledge` holds, computed from one seat's view."""
    n = view.rules.players
    played_by = [0] * n
    voids = [0] * n
    broken = False
    tricks = [t.plays for t in view.completed]
    if view.trick:
        tricks.append(view.trick)
    for plays in tricks:
        led = plays[0][1].suit
        leader = plays[0][0]
        if led is Suit.SPADES and not broken:
            # A spade led before spades are broken means the leader held nothing else.
            voids[leader] |= NON_SPADE_SUITS
            if view.rules.forced_spade_lead_breaks:
                broken = True
        for seat, card in plays:
            played_by[seat] |= card.bit
            if card.suit != led:
                voids[seat] |= 1 << led
                if card.suit is Suit.SPADES:
                    broken = True
    unseen = deck_mask(view.rules.removed_twos) & ~view.hand & ~view.played & ~view.known_out
    possible = []
    for seat in range(n):
        if seat == view.seat:
            possible.append(view.hand)
            continue
        allowed = unseen
        for suit in SUIT_NUMBERS:
            if voids[seat] >> suit & 1:
                allowed &= ~SUITS[suit]
        possible.append(allowed)
    held_by_others = sum(c for s, c in enumerate(view.cards_held) if s != view.seat)
    return Knowledge(
        seat=view.seat, players=n, hand=view.hand, unseen=unseen, voids=tuple(voids),
        counts=tuple(view.cards_held), possible=tuple(possible),
        spades_broken=view.spades_broken, played_by=tuple(played_by),
        out_of_play=unseen.bit_count() - held_by_others)

