"""Bit helpers on card masks shared by every bot (card index = suit * 13 + rank - 2).

The trick rules here (:func:`trick_best`, :func:`beaters`, :func:`can_beat`) are a fast
copy of the engine's for the bots' look-ahead, on bare card indices; the test
``tests/bots/test_fast_rules.py`` checks them against the engine state by state.
"""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import (
    FIRST_SPADE,
    NON_SPADES_MASK,
    SPADES_MASK,
    SUIT_MASKS,
    CardMask,
    Suit,
)

SPADE_SUIT: int = int(Suit.SPADES)
"""The spade suit's number as a plain int: comparing with it is several times faster
than with the enum member, and the look-ahead does it millions of times."""
SUIT_NUMBERS: tuple[int, ...] = tuple(int(suit) for suit in Suit)
"""Every suit's number, clubs (0) to spades (3), as plain ints."""
SIDE_SUITS: tuple[int, ...] = tuple(int(suit) for suit in Suit if suit is not Suit.SPADES)
"""The numbers of the three side suits (not trumps)."""
SUITS: tuple[CardMask, ...] = SUIT_MASKS
SPADES: CardMask = SPADES_MASK
NON_SPADES: CardMask = NON_SPADES_MASK
ABOVE: tuple[CardMask, ...] = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
"""``ABOVE[c]``: the cards of ``c``'s suit that outrank it."""
BELOW: tuple[CardMask, ...] = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
"""``BELOW[c]``: the cards of ``c``'s suit that it outranks."""


def low(mask: CardMask) -> int:
    """Index of the lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def high(mask: CardMask) -> int:
    """Index of the highest card of a non-empty mask."""
    return mask.bit_length() - 1


def indices(mask: CardMask) -> list[int]:
    """Card indices in a mask, lowest first."""
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return out


def rank(card: int) -> int:
    """Rank 2-14 of a card index."""
    return card % 13 + 2


def beaters(cards: CardMask, best: int) -> CardMask:
    """The cards among ``cards`` that would beat ``best``, the card now winning a trick.
    (``cards`` must be legal plays: a non-spade of another suit never wins.)"""
    if best >= FIRST_SPADE:
        return cards & ABOVE[best]
    return cards & (ABOVE[best] | SPADES)


def can_beat(holding: CardMask, card: int, led: int) -> bool:
    """Whether a player holding ``holding`` could beat ``card`` on a trick where suit
    ``led`` was led, following suit whenever the holding has the suit."""
    if holding & SUITS[led]:
        if card >= FIRST_SPADE and led != SPADE_SUIT:
            return False
        return bool(holding & ABOVE[card])
    if card >= FIRST_SPADE:
        return bool(holding & ABOVE[card])
    return bool(holding & SPADES)


def trick_best(trick: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """(seat, card) winning the trick so far."""
    seat, best = trick[0]
    for s, c in trick[1:]:
        if (c >= FIRST_SPADE and (best < FIRST_SPADE or c > best)) \
                or (c // 13 == best // 13 and c > best):
            seat, best = s, c
    return seat, best
