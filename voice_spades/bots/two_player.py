"""Two-player decisions around the draw: keep or discard the top card, blind nil, and
the blind nil exchange. Shared by Medium and Hard."""

from __future__ import annotations

from collections.abc import Callable

from voice_spades.bots.bits import rank
from voice_spades.engine import (
    CARDS,
    BlindNilChoice,
    Card,
    Deal,
    DrawChoice,
    Exchange,
    PlayerView,
    Suit,
)

BLIND_NIL_DEFICITS = (150, 350)
"""Blind nil succeeds about one time in five here (a -120 point bet on average), so it
is only a last chance: behind by more than a normal hand can make up, yet not so far
that +200 would not bring us back."""
LEADER_CLOSE = 100
"""The leader is "about to win" within this many points of the target."""
KEPT_CARD_WEIGHT = 4.0
"""How much likelier the opponent holds a card it would have kept than a uniform deal
says: keeping liked top cards raises their share of a hand from about 42% to two
thirds or more (the value was fitted on duplicate deals against Medium)."""


def is_blind_nil(view: PlayerView) -> bool:
    """Whether this seat declared blind nil this hand."""
    bid = view.bids[view.seat]
    return bid is not None and bid.blind


def card_value(card: Card) -> float:
    """Rough trick value of one card: aces and spades high, small side cards nothing."""
    r = card.rank
    if card.suit == Suit.SPADES:
        return 0.4 + 0.04 * (r - 2) if r < 12 else 1.0
    return {14: 0.95, 13: 0.7, 12: 0.35, 11: 0.15}.get(r, 0.0)


def card_danger(card: Card) -> float:
    """How likely a card is to win a trick for a nil bidder who would rather lose it."""
    r = card.rank
    if card.suit == Suit.SPADES:
        return 1.0 + 0.05 * (r - 10) if r >= 10 else 0.4 + 0.05 * (r - 2)
    return max(0.0, (r - 8) / 6)


def opponent_card_weight(view: PlayerView) -> Callable[[int], float] | None:
    """Two-player: the opponent kept the top cards it liked while drawing, so it holds
    those KEPT_CARD_WEIGHT times likelier than a uniform deal says (low cards
    after its blind nil, good ones otherwise). None for the other rules."""
    if view.rules.deal is not Deal.DRAW:
        return None
    bid = view.bids[1 - view.seat]
    blind = bid is not None and bid.blind
    weights = [KEPT_CARD_WEIGHT if (card_danger(CARDS[c]) < 0.3 if blind
                                    else card_value(CARDS[c]) >= 0.3) else 1.0
               for c in range(52)]
    return weights.__getitem__


def draw_choice(view: PlayerView) -> DrawChoice:
    """Keep cards worth more than a random next card: high ones normally, low ones
    when playing blind nil."""
    top = view.draw_top
    if top is None:
        return DrawChoice(True)
    if is_blind_nil(view):
        return DrawChoice(card_danger(top) < 0.3)
    return DrawChoice(card_value(top) >= 0.3)


def blind_nil_choice(view: PlayerView) -> BlindNilChoice:
    """Declare only as a last chance: far behind a leader who is about to win."""
    me = view.rules.side_of(view.seat)
    mine = view.scores[me]
    leader = max(s for i, s in enumerate(view.scores) if i != me)
    low, high = BLIND_NIL_DEFICITS
    gamble = low <= leader - mine <= high and leader >= view.rules.target - LEADER_CLOSE
    return BlindNilChoice(gamble)


def exchange_choice(view: PlayerView) -> Exchange:
    """Give back the most dangerous cards (high spades first) when they are worse than a
    random card from the discards."""
    legal = [a for a in view.legal if isinstance(a, Exchange)]
    limit = max((len(a.cards) for a in legal), default=0)
    risky = sorted((c for c in view.hand_cards if card_danger(c) >= 0.5),
                   key=lambda c: (-card_danger(c), -rank(c.index)))
    return Exchange(tuple(sorted(risky[:limit])))

