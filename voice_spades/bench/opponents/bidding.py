"""A published-style bid: count sure tricks, as card-game books teach it.

Side suits: an ace is a trick; a king with one small card beside it is one (a bare
king is half); a queen with two others is half; a suit of five or more counts one
trick at most. Spades: the ace, a king with one other, a queen with two others;
every spade past the fourth is a trick; each spade left over (not counted yet) makes
a void side suit worth a trick and a singleton half. The count is rounded down. Nil when the hand
has no ace, no spade above the 9, at most three spades and no side honour left
unguarded (a king or queen with fewer than three small cards); nil is never bid
when partner already did.
"""

from __future__ import annotations

import math

from voice_spades.engine import SUIT_MASKS, Bid, CardMask, PlayerView, Suit

_SPADES = int(Suit.SPADES)


def ranks_in(hand: CardMask, suit: int) -> list[int]:
    """Ranks (2-14) held in ``suit``, highest first."""
    mask = hand & SUIT_MASKS[suit]
    return sorted((c % 13 + 2 for c in range(52) if mask >> c & 1), reverse=True)


def sure_tricks(hand: CardMask) -> float:
    """The sure-trick count of a hand (see the module's description)."""
    total = 0.0
    spades = ranks_in(hand, _SPADES)
    spare = len(spades)
    for suit in range(4):
        ranks = ranks_in(hand, suit)
        n = len(ranks)
        counted = 0.0
        if 14 in ranks:
            counted += 1
        if 13 in ranks:
            counted += 1 if n >= 2 else 0.5
        if 12 in ranks and n >= 3:
            counted += 1 if suit == _SPADES else 0.5
        if suit != _SPADES and n >= 5:
            counted = min(counted, 1.0)  # a long side suit gets ruffed early
        if suit == _SPADES:
            spare -= round(counted)
        total += counted
    extra = max(0, len(spades) - 4)
    total += extra
    spare -= extra
    for suit in range(3):
        n = len(ranks_in(hand, suit))
        if spare > 0 and n <= 1:
            total += 1 if n == 0 else 0.5
            spare -= 1
    return total


def nil_hand(hand: CardMask) -> bool:
    """Whether the count says nil: nothing that must win a trick."""
    spades = ranks_in(hand, _SPADES)
    if len(spades) > 3 or (spades and spades[0] > 9):
        return False
    for suit in range(3):
        ranks = ranks_in(hand, suit)
        if 14 in ranks:
            return False
        small = sum(r < 10 for r in ranks)
        if any(r >= 12 for r in ranks) and small < 3:
            return False
    return True


def count_bid(view: PlayerView, extra: float = 0.0) -> Bid:
    """The legal bid the sure-trick count calls for, plus ``extra`` tricks, rounded down
    (nil on a nil hand)."""
    legal = [a for a in view.legal if isinstance(a, Bid) and not a.blind]
    partner = view.rules.partner_of(view.seat)
    partner_bid = None if partner is None else view.bids[partner]
    partner_nil = partner_bid is not None and partner_bid.is_nil
    if not partner_nil and nil_hand(view.hand) and any(b.is_nil for b in legal):
        return Bid(0)
    wanted = max(1, math.floor(sure_tricks(view.hand) + extra))
    plain = [b for b in legal if not b.is_nil] or legal
    return min(plain, key=lambda b: (abs(b.tricks - wanted), b.tricks))
