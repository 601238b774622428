"""A rule-based player in the style card-game books teach (no look-ahead).

- Bid the sure-trick count; nil on a hand with nothing that must win.
- Own nil: play the highest card that still loses the trick; lead the lowest card.
- Partner's nil: lead high; play high when partner has yet to play to the trick.
- Opponent's nil: lead low cards; when the nil bidder is winning, stay under it.
- While the side needs tricks: lead a card that is the highest still out, else the
  lowest of the longest side suit; second hand low; third hand high; fourth hand
  wins as cheaply as it can; ruff an opponent's winner with the lowest spade.
- When partner is winning, or the contract is made: play low, keeping under the
  trick when possible (no bags).
"""

from __future__ import annotations

from voice_spades.bench.opponents.bidding import count_bid
from voice_spades.bench.opponents.common import PlainTwoPlayer, high, low
from voice_spades.engine import (
    CARDS,
    FIRST_SPADE,
    SPADES_MASK,
    SUIT_MASKS,
    Bid,
    Card,
    CardMask,
    PlayerView,
    mask_of,
    trick_winner_index,
)


def _beats(card: int, best: int) -> bool:
    if card >= FIRST_SPADE:
        return best < FIRST_SPADE or card > best
    return card // 13 == best // 13 and card > best


def _rank(card: int) -> int:
    return card % 13


def _lowest(mask: CardMask) -> int:
    """Lowest-ranked card, a side-suit card before a spade."""
    pool = mask & ~SPADES_MASK or mask
    return min((c for c in range(52) if pool >> c & 1), key=lambda c: (_rank(c), c))


def _highest(mask: CardMask) -> int:
    return max((c for c in range(52) if mask >> c & 1), key=lambda c: (_rank(c), c))


class RuleBasedPlayer(PlainTwoPlayer):
    """Plays by fixed rules of thumb; bids by the sure-trick count."""

    name = "rules"

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def bid(self, view: PlayerView) -> Bid:
        """The sure-trick count."""
        return count_bid(view)

    def play(self, view: PlayerView) -> Card:
        """The card the rules of thumb call for."""
        legal = mask_of(a for a in view.legal if isinstance(a, Card))
        if not legal & (legal - 1):
            return CARDS[low(legal)]
        return CARDS[self._choose(view, legal)]

    def _choose(self, view: PlayerView, legal: CardMask) -> int:
        rules = view.rules
        seat = view.seat
        nil = [b is not None and b.is_nil and view.tricks_won[s] == 0
               for s, b in enumerate(view.bids)]
        partner = rules.partner_of(seat)
        side = rules.side_of(seat)
        trick = [(s, c.index) for s, c in view.trick]
        out = ~(view.hand | view.played) & ((1 << 52) - 1)
        if nil[seat]:
            return self._nil_play(legal, trick)
        covering = partner is not None and nil[partner]
        target = next((s for s in range(rules.players)
                       if nil[s] and rules.side_of(s) != side), None)
        need = self._side_needs(view, side)
        if not trick:
            if covering:
                return _highest(legal & ~SPADES_MASK or legal)
            if target is not None or not need:
                return _lowest(legal)
            return self._lead(legal, out, view.hand)
        best_pos = trick_winner_index(trick)
        win_seat, best = trick[best_pos]
        over = mask_of(CARDS[c] for c in range(52) if legal >> c & 1 and _beats(c, best))
        under = legal & ~over
        later = rules.players - len(trick) - 1
        partner_later = partner is not None and any(
            (seat + k) % rules.players == partner for k in range(1, later + 1))
        if covering:
            if partner_later or win_seat == partner:
                return _highest(over) if over else _lowest(legal)
            return _lowest(legal)
        if target is not None and win_seat == target:
            return _highest(under) if under else _lowest(legal)
        if not need:
            return _highest(under) if under else _lowest(legal)
        led = trick[0][1] // 13
        follows = legal & SUIT_MASKS[led]
        partner_winning = partner is not None and win_seat == partner
        if len(trick) == 2 and follows and partner_winning and high(follows) > best \
                and out & SUIT_MASKS[led] & ~((2 << best) - 1) and best < FIRST_SPADE:
            return high(follows)  # third hand high: partner's card may be beaten
        if partner_winning or not over:
            return _lowest(legal)
        if len(trick) == 1 and follows:
            return _lowest(legal)  # second hand low
        if len(trick) == 2 and follows:
            return _highest(over)  # third hand high
        return _lowest(over)  # win as cheaply as possible (or ruff low)

    @staticmethod
    def _side_needs(view: PlayerView, side: int) -> bool:
        rules = view.rules
        contract = 0
        taken = 0
        for s in rules.sides[side]:
            bid = view.bids[s]
            if bid is not None and not bid.is_nil:
                contract += bid.tricks
                taken += view.tricks_won[s]
        return taken < contract

    @staticmethod
    def _lead(legal: CardMask, out: CardMask, hand: CardMask) -> int:
        for suit in (0, 1, 2, 3):
            mine = legal & SUIT_MASKS[suit]
            if (mine and not out & SUIT_MASKS[suit] & ~((2 << high(mine)) - 1)
                    and (suit != 3 or not legal & ~SPADES_MASK)):
                return high(mine)
        side = legal & ~SPADES_MASK or legal
        suit = max((s for s in range(4) if side & SUIT_MASKS[s]),
                   key=lambda s: (hand & SUIT_MASKS[s]).bit_count())
        return low(side & SUIT_MASKS[suit])

    @staticmethod
    def _nil_play(legal: CardMask, trick: list[tuple[int, int]]) -> int:
        if not trick:
            return _lowest(legal)
        best = trick[trick_winner_index(trick)][1]
        under = mask_of(CARDS[c] for c in range(52) if legal >> c & 1 and not _beats(c, best))
        return _highest(under) if under else _lowest(legal)
