"""Easy: the beginner's count for bidding and a plain "win cheaply when the side still
needs tricks, else play low" card choice. It does not count cards."""

from __future__ import annotations

from voice_spades.bots.bits import (
    NON_SPADES,
    SUIT_NUMBERS,
    SUITS,
    beaters,
    high,
    low,
    rank,
    trick_best,
)
from voice_spades.bots.hand_value import closest_bid, easy_count
from voice_spades.bots.table import Table
from voice_spades.engine import (
    CARDS,
    Bid,
    BlindNilChoice,
    Card,
    CardMask,
    DrawChoice,
    Exchange,
    PlayerView,
    Suit,
    mask_of,
)


class EasyBot:
    """Bids 1 per non-spade ace and king and per spade from the 10 up; plays simply."""

    name = "easy"

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def bid(self, view: PlayerView) -> Bid:
        """The beginner's count, at least 1, moved to the nearest legal bid."""
        legal = [a for a in view.legal if isinstance(a, Bid)]
        return closest_bid(max(1, easy_count(view.hand)), legal)

    def play(self, view: PlayerView) -> Card:
        """Win as cheaply as possible while the side needs tricks; otherwise play low."""
        legal = mask_of(a for a in view.legal if isinstance(a, Card))
        table = Table(view.rules, view.bids, view.scores, view.bags)
        side = table.side_of[view.seat]
        needs = table.contract[side] > 0 and table.need(side, view.tricks_won) > 0
        if not view.trick:
            if needs:
                return CARDS[_highest(legal & NON_SPADES or legal)]
            return CARDS[_lowest(legal)]
        plays = [(s, c.index) for s, c in view.trick]
        win_seat, best = trick_best(plays)
        if needs and table.side_of[win_seat] != side:
            over = beaters(legal, best)
            if over:
                return CARDS[_lowest(over)]
        return CARDS[_lowest(legal)]

    def draw(self, view: PlayerView) -> DrawChoice:
        """Keep high cards and spades."""
        top = view.draw_top
        return DrawChoice(top is None or top.rank >= 10 or top.suit == Suit.SPADES)

    def blind_nil(self, view: PlayerView) -> BlindNilChoice:
        """Never."""
        return BlindNilChoice(False)

    def exchange(self, view: PlayerView) -> Exchange:
        """Keep everything (Easy never bids blind nil)."""
        return Exchange(())


def _lowest(mask: CardMask) -> int:
    """Lowest-ranked card, a side-suit card before a spade."""
    side = mask & NON_SPADES
    pool = side or mask
    return min((low(pool & SUITS[s]) for s in SUIT_NUMBERS if pool & SUITS[s]), key=rank)


def _highest(mask: CardMask) -> int:
    return max((high(mask & SUITS[s]) for s in SUIT_NUMBERS if mask & SUITS[s]), key=rank)
