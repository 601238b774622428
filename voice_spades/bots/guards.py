"""The candidate cards Hard searches: legal cards less the plays a human partner would
call blunders, less cards that are interchangeable with a lower one.

- Never overtake partner's card when it is sure to win the trick.
- When partner bid nil and is winning the trick, take it over if we can.
- On a trick none of our cards can win, play the lowest card of whatever suit
  (a nil bidder may still shed its high cards: that is the point of its play).
"""

from __future__ import annotations

from voice_spades.bots.bits import (
    ABOVE,
    BELOW,
    SUIT_NUMBERS,
    SUITS,
    beaters,
    can_beat,
    indices,
    trick_best,
)
from voice_spades.bots.knowledge import Knowledge
from voice_spades.bots.table import Table
from voice_spades.engine import CardMask


def candidate_cards(seat: int, legal: CardMask, trick: list[tuple[int, int]],
                    won: tuple[int, ...], played: CardMask, know: Knowledge,
                    table: Table) -> list[int]:
    """The cards worth searching, lowest rank first within each suit."""
    allowed = legal
    if trick:
        allowed = _trick_filter(seat, legal, trick, won, know, table)
    return collapse_equivalents(allowed, know.hand, played)


def _trick_filter(seat: int, legal: CardMask, trick: list[tuple[int, int]],
                  won: tuple[int, ...], know: Knowledge, table: Table) -> CardMask:
    n = table.n
    led = trick[0][1] // 13
    win_seat, best = trick_best(trick)
    over = beaters(legal, best)
    partner = table.partner[seat]
    if partner >= 0 and win_seat == partner and table.nil[partner] and won[partner] == 0:
        return over or legal
    if table.nil[seat] and won[seat] == 0:
        return legal
    side = table.side_of[seat]
    later = [(seat + k) % n for k in range(1, n - len(trick))]
    if partner >= 0 and win_seat == partner and legal & ~over and not any(
            can_beat(know.possible[p], best, led) for p in later if table.side_of[p] != side):
        return lowest_per_suit(legal & ~over)
    if not over:
        return lowest_per_suit(legal)
    return legal


def lowest_per_suit(mask: CardMask) -> CardMask:
    """The lowest card of each suit present in ``mask``."""
    out = 0
    for suit in SUIT_NUMBERS:
        m = mask & SUITS[suit]
        if m:
            out |= m & -m
    return out


def collapse_equivalents(mask: CardMask, hand: CardMask, played: CardMask) -> list[int]:
    """One card per run of touching cards (no card still in play between them that we do
    not hold): playing any of a run has the same effect, so search only the lowest."""
    out: list[int] = []
    ours_or_gone = hand | played
    for card in indices(mask):
        if out and out[-1] // 13 == card // 13:
            prev = out[-1]
            between = ABOVE[prev] & BELOW[card]
            if not between & ~ours_or_gone:
                continue
        out.append(card)
    return out
