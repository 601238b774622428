"""The card-play heuristic shared by Medium (on what it may know) and by Hard's
look-ahead (on a sampled deal, where it sees every hand).

``holdings[p]`` is what seat ``p`` may hold: the exact hand in a sampled deal
(``exact=True``), or the unseen cards less its known voids when playing for real.
Modes, in order: play our own nil, cover partner's nil, attack an opponent's nil,
then win tricks while the side needs them (or can set the opponents) and duck
otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.bots.bits import (
    ABOVE,
    NON_SPADES,
    SIDE_SUITS,
    SPADE_SUIT,
    SPADES,
    SUIT_NUMBERS,
    SUITS,
    beaters,
    can_beat,
    high,
    low,
    rank,
    trick_best,
)
from voice_spades.bots.table import Table
from voice_spades.engine import CardMask


def choose_card(seat: int, legal: CardMask, trick: Sequence[tuple[int, int]],
                holdings: Sequence[CardMask], won: Sequence[int], table: Table,
                exact: bool) -> int:
    """The card (index) the heuristic plays from ``legal``."""
    if not legal & (legal - 1):
        return low(legal)
    nil = table.nil
    if nil[seat] and won[seat] == 0:
        return _play_nil(seat, legal, trick, holdings, table)
    partner = table.partner[seat]
    covering = partner >= 0 and nil[partner] and won[partner] == 0
    target = -1
    for p in table.opponents[seat]:
        if nil[p] and won[p] == 0:
            target = p
            break
    want = wants_tricks(seat, won, table)
    if not trick:
        if covering:
            return _lead_cover(partner, legal, holdings)
        if target >= 0:
            card = _lead_against_nil(target, legal, holdings)
            if card >= 0:
                return card
        if want:
            return _lead_to_win(seat, legal, holdings, table, exact)
        return _lead_to_lose(seat, legal, holdings, table)

    led = trick[0][1] // 13
    win_seat, best = trick_best(trick)
    n = table.n
    later = [(seat + k) % n for k in range(1, n - len(trick))]
    if covering:
        if partner not in later:
            if win_seat == partner:
                over = beaters(legal, best)
                if over:
                    return _min_rank(over)
        else:
            return _play_over_partner(partner, legal, led, best, holdings, exact)
    if target >= 0:
        if win_seat == target:
            under = legal & ~beaters(legal, best)
            return _max_rank(under) if under else _min_rank(legal)
        if target in later:
            return _shed_low(legal, led)
    side = table.side_of[seat]
    later_opps = [p for p in later if table.side_of[p] != side]
    if want:
        if table.side_of[win_seat] == side and not any(
                can_beat(holdings[p], best, led) for p in later_opps):
            return _shed_low(legal, led)
        over = beaters(legal, best)
        safe = 0
        while over:
            bit = over & -over
            over ^= bit
            card = bit.bit_length() - 1
            if not any(can_beat(holdings[p], card, led) for p in later_opps):
                safe |= bit
        if safe:
            return _min_rank(safe)
        if not exact and partner not in later and table.side_of[win_seat] != side:
            # Not knowing where the outstanding honours are, make them spend one.
            beat = beaters(legal, best)
            if beat:
                return _min_rank(beat)
        return _shed_low(legal, led)
    over = beaters(legal, best)
    under = legal & ~over
    if under:
        return _max_rank(under)
    cheap = _min_rank(legal)
    if any(can_beat(holdings[p], cheap, led) for p in later):
        return cheap
    return _max_rank(legal)


def wants_tricks(seat: int, won: Sequence[int], table: Table) -> bool:
    """Whether ``seat``'s side should try to win tricks now: it still needs some for its
    contract, or taking one or two could set an opponent."""
    if seat in table.greedy:
        return True
    side = table.side_of[seat]
    remaining = table.hand_size - sum(won)
    if table.contract[side] > 0:
        need = table.need(side, won)
        if 0 < need <= remaining or (need > remaining and table.quicksand):
            return True
    for other in range(len(table.contract)):
        if other != side and table.contract[other] > 0:
            their_need = table.need(other, won)
            if their_need > 0 and remaining - their_need < table.set_reach:
                return True
    return False


# ----- leads ---------------------------------------------------------------------

def _lead_to_win(seat: int, legal: CardMask, holdings: Sequence[CardMask], table: Table,
                 exact: bool) -> int:
    opps = table.opponents[seat]
    spade_winner = -1
    best_winner = -1
    for suit in SUIT_NUMBERS:
        mine = legal & SUITS[suit]
        if not mine:
            continue
        top = high(mine)
        if not any(can_beat(holdings[p], top, suit) for p in opps):
            if suit == SPADE_SUIT:
                spade_winner = top
            elif best_winner < 0 or rank(top) > rank(best_winner):
                best_winner = top
    if best_winner >= 0:
        return best_winner
    if spade_winner >= 0:
        return spade_winner
    partner = table.partner[seat]
    if exact and partner >= 0:
        for suit in SUIT_NUMBERS:
            mine = legal & SUITS[suit]
            theirs = holdings[partner] & SUITS[suit]
            if mine and theirs and not any(can_beat(holdings[p], high(theirs), suit)
                                           for p in opps):
                return low(mine)
    hand = holdings[seat]
    if hand & SPADES:
        singles = [low(legal & SUITS[s]) for s in SIDE_SUITS
                   if (hand & SUITS[s]).bit_count() == 1 and legal & SUITS[s]]
        if singles:
            return min(singles, key=rank)
    pool = legal & NON_SPADES or legal
    suit = max((s for s in SUIT_NUMBERS if pool & SUITS[s]),
               key=lambda s: ((hand & SUITS[s]).bit_count(), -rank(low(pool & SUITS[s]))))
    return low(pool & SUITS[suit])


def _lead_to_lose(seat: int, legal: CardMask, holdings: Sequence[CardMask],
                  table: Table) -> int:
    partner = table.partner[seat]
    best_card, best_key = -1, -1000.0
    for suit in SUIT_NUMBERS:
        mine = legal & SUITS[suit]
        if not mine:
            continue
        card = low(mine)
        threat = 0.0
        for p in range(table.n):
            if p != seat and can_beat(holdings[p], card, suit):
                threat += 0.5 if p == partner else 1.0
        key = threat * 100 + (13 - rank(card)) * 2 + (suit != SPADE_SUIT)
        if key > best_key:
            best_card, best_key = card, key
    return best_card


def _lead_cover(partner: int, legal: CardMask, holdings: Sequence[CardMask]) -> int:
    theirs_all = holdings[partner]
    best_card, best_key = -1, -1
    for suit in SUIT_NUMBERS:
        mine = legal & SUITS[suit]
        if not mine:
            continue
        top = high(mine)
        theirs = theirs_all & SUITS[suit]
        if not theirs:
            level = 3
        elif not theirs & ABOVE[top]:
            level = 2
        else:
            level = 1
        key = level * 40 + (suit != SPADE_SUIT) * 20 + rank(top)
        if key > best_key:
            best_card, best_key = top, key
    return best_card


def _lead_against_nil(target: int, legal: CardMask, holdings: Sequence[CardMask]) -> int:
    best_card, best_key = -1, -1
    for suit in SUIT_NUMBERS:
        mine = legal & SUITS[suit]
        theirs = holdings[target] & SUITS[suit]
        if not mine or not theirs:
            continue
        card = low(mine)
        forced = low(theirs) > card
        key = forced * 40 + (14 - rank(card)) * 2 + (suit != SPADE_SUIT)
        if key > best_key:
            best_card, best_key = card, key
    return best_card


# ----- following -----------------------------------------------------------------

def _play_nil(seat: int, legal: CardMask, trick: Sequence[tuple[int, int]],
              holdings: Sequence[CardMask], table: Table) -> int:
    n = table.n
    if not trick:
        best_card, best_key = -1, -1
        for suit in SUIT_NUMBERS:
            mine = legal & SUITS[suit]
            if not mine:
                continue
            card = low(mine)
            threat = sum(1 for p in range(n) if p != seat and can_beat(holdings[p], card, suit))
            key = threat * 100 + (14 - rank(card)) * 2 + (suit != SPADE_SUIT)
            if key > best_key:
                best_card, best_key = card, key
        return best_card
    led = trick[0][1] // 13
    _seat, best = trick_best(trick)
    over = beaters(legal, best)
    under = legal & ~over
    if under:
        return _max_rank(under)
    cheap = _min_rank(over)
    later = [(seat + k) % n for k in range(1, n - len(trick))]
    if any(can_beat(holdings[p], cheap, led) for p in later):
        return cheap
    return _max_rank(over)


def _play_over_partner(partner: int, legal: CardMask, led: int, best: int,
                       holdings: Sequence[CardMask], exact: bool) -> int:
    """Partner (nil) plays after us: go high so partner can stay under."""
    follow = legal & SUITS[led]
    if follow:
        top = high(follow)
        if not beaters(follow, best):
            return low(follow)
        theirs = holdings[partner] & SUITS[led]
        if exact and theirs:
            enough = follow & ABOVE[max(high(theirs), best)]
            if enough:
                return low(enough)
        return top
    spades = beaters(legal & SPADES, best)
    if spades:
        theirs = holdings[partner] & SUITS[led]
        # Ruff when partner would be forced to win: every card it can follow with is high.
        forced = bool(theirs) and not theirs & ~ABOVE[best] if exact else rank(best) <= 9
        if forced:
            return low(spades)
    return _shed_low(legal, led)


def _shed_low(legal: CardMask, led: int) -> int:
    """The cheapest card: lowest of the led suit, else a low card from a short side suit."""
    follow = legal & SUITS[led]
    if follow:
        return low(follow)
    side = legal & NON_SPADES
    if not side:
        return low(legal)
    return min((low(side & SUITS[s]) for s in SIDE_SUITS if side & SUITS[s]),
               key=lambda c: (rank(c), (legal & SUITS[c // 13]).bit_count()))


def _min_rank(mask: CardMask) -> int:
    """Lowest-ranked card, a side-suit card before a spade of the same rank."""
    best = -1
    for suit in SUIT_NUMBERS:
        m = mask & SUITS[suit]
        if m:
            card = low(m)
            if best < 0 or rank(card) < rank(best):
                best = card
    return best


def _max_rank(mask: CardMask) -> int:
    """Highest-ranked card, a spade before a side-suit card of the same rank."""
    best = -1
    for suit in SUIT_NUMBERS:
        m = mask & SUITS[suit]
        if m:
            card = high(m)
            if best < 0 or rank(card) >= rank(best):
                best = card
    return best
