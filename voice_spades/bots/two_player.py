"""Two-player decisions around the draw: keep or discard the top card, blind nil, and
the blind nil exchange. Shared by Medium and Hard."""

from __future__ import annotations

from voice_spades.bots.bits import rank
from voice_spades.engine.actions import BlindNilChoice, DrawChoice, Exchange
from voice_spades.engine.cards import Card, Suit
from voice_spades.engine.view import PlayerView

BLIND_NIL_DEFICIT = 200
"""Blind nil fails more often than it succeeds (it is worth -200 more often than +200),
so it only pays as a last chance: this far behind, with the leader about to win."""
LEADER_CLOSE = 100
"""The leader is "about to win" within this many points of the target."""


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
        return 1.0 if r >= 10 else 0.4 + 0.05 * (r - 2)
    return max(0.0, (r - 8) / 6)


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
    gamble = leader - mine >= BLIND_NIL_DEFICIT and leader >= view.rules.target - LEADER_CLOSE
    return BlindNilChoice(gamble)


def exchange_choice(view: PlayerView) -> Exchange:
    """Give back the most dangerous cards (high spades first) when they are worse than a
    random card from the discards."""
    legal = [a for a in view.legal if isinstance(a, Exchange)]
    limit = max((len(a.cards) for a in legal), default=0)
    risky = sorted((c for c in view.hand_cards if card_danger(c) >= 0.5),
                   key=lambda c: (-card_danger(c), -rank(c.index)))
    return Exchange(tuple(risky[:limit]))

