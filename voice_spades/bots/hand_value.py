"""Counting a hand: Easy's plain count, Medium's trick estimate, nil danger, and picking
the legal bid closest to the one wanted."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.bots.bits import ABOVE, BELOW, SIDE_SUITS, SPADES, SUITS, indices, rank
from voice_spades.engine import FIRST_SPADE, Bid, CardMask, deck_mask

TABLE_CALIBRATION = {3: (1.2, 0.0), 5: (0.92, 0.0), 6: (0.85, 0.0)}
"""Player count -> (scale, offset) of the trick estimate, fitted on Medium self-play:
three players' 17-card hands take many more tricks than the honours-and-ruffs count
says (long side suits run), five or six players' short hands fewer."""


def easy_count(hand: CardMask) -> int:
    """One per non-spade ace and king, one per spade from the 10 up."""
    count = 0
    for card in indices(hand):
        r = rank(card)
        if (card >= FIRST_SPADE and r >= 10) or (card < FIRST_SPADE and r >= 13):
            count += 1
    return count


def estimate_tricks(hand: CardMask, players: int) -> float:
    """Expected tricks from high cards (guarded by small ones), spade length and ruffs.
    Side-suit honours are worth less the longer the suit (others run out sooner) and
    the more players there are."""
    deck = deck_mask(52 % players)  # 52 % 2 == 0: the two-player game removes none
    # Two players hold 26 of the cards: per suit that is like a four-player deal.
    players = max(players, 4) if players == 2 else players
    others = players - 1
    spades = hand & SPADES
    n_spades = spades.bit_count()
    spade_wins = 0.0
    counted = 0
    for card in reversed(indices(spades)):
        missing = (deck & ABOVE[card] & ~hand).bit_count()
        guards = (spades & BELOW[card]).bit_count()
        if guards >= missing:
            p = 0.95 if missing == 0 else 0.85
        elif guards == missing - 1:
            p = 0.4
        else:
            p = 0.08
        spade_wins += p
        counted += p >= 0.5
    share = round((deck & SPADES).bit_count() / players)
    long_spades = max(0, min(n_spades - share, n_spades - counted))
    total = spade_wins + 0.7 * long_spades
    spare = n_spades - counted - long_spades
    for suit in SIDE_SUITS:
        mine = hand & SUITS[suit]
        length = mine.bit_count()
        per_other = ((deck & SUITS[suit]).bit_count() - length) / others
        for card in reversed(indices(mine)):
            round_no = (deck & ABOVE[card]).bit_count() + 1
            if round_no > 3:
                break
            missing = (deck & ABOVE[card] & ~hand).bit_count()
            guards = (mine & BELOW[card]).bit_count()
            guard = 1.0 if guards >= missing else (0.35 if guards == missing - 1 else 0.05)
            survive = 1.25 - 0.28 * round_no - 0.15 * max(0.0, 3.0 - per_other)
            total += max(0.0, min(0.95, survive)) * guard
        if spare > 0 and length <= 2:
            use = min(spare, 2 - length)
            total += (0.75 if length == 0 else 0.55) * use
            spare -= use
    scale, extra = TABLE_CALIBRATION.get(players, (1.0, 0.0))
    return total * scale + extra


def nil_danger(hand: CardMask) -> float:
    """How likely a card of this hand is to win a trick against its will: 0 for a hand
    of small cards; high spades and unguarded honours add the most."""
    danger = 0.0
    spades = hand & SPADES
    for card in indices(spades):
        r = rank(card)
        danger += 3.0 if r >= 12 else 1.2 if r >= 10 else 0.5 if r >= 7 else 0.15
    danger += 0.6 * max(0, spades.bit_count() - 3)
    for suit in SIDE_SUITS:
        mine = hand & SUITS[suit]
        if not mine:
            danger -= 0.2
        for card in indices(mine):
            r = rank(card)
            if r < 10:
                continue
            base = {14: 2.0, 13: 1.3, 12: 0.8, 11: 0.4, 10: 0.2}[r]
            guards = (mine & BELOW[card]).bit_count()
            danger += base * (0.75 if r == 14 else 0.5) ** guards
    return max(0.0, danger)


def closest_bid(wanted: int, legal: Sequence[Bid], allow_nil: bool = False) -> Bid:
    """The legal bid nearest ``wanted``, preferring a real bid to nil unless
    ``allow_nil`` (nil is chosen only if it is the only bid left)."""
    options = [b for b in legal if not b.blind]
    plain = [b for b in options if not b.is_nil]
    pool = options if allow_nil or not plain else plain
    return min(pool, key=lambda b: (abs(b.tricks - wanted), -b.tricks))
