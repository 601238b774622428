"""Medium: a full trick estimate for bidding (honours, length, ruffs, earlier bids,
nil when the hand is safe) and the shared play heuristic on what the seat knows."""

from __future__ import annotations

import math

from voice_spades.bots.hand_value import closest_bid, estimate_tricks, nil_danger
from voice_spades.bots.knowledge import read_view
from voice_spades.bots.policy import choose_card
from voice_spades.bots.table import Table
from voice_spades.bots.two_player import blind_nil_choice, draw_choice, exchange_choice
from voice_spades.engine import (
    ACE_OF_SPADES,
    CARDS,
    KING_OF_SPADES,
    Bid,
    BlindNilChoice,
    Card,
    CardMask,
    DrawChoice,
    Exchange,
    PlayerView,
    RuleOptions,
    mask_of,
)

NIL_DANGER_LIMIT = 2.2
"""Hands with less nil danger than this, and few expected tricks, bid nil."""


def wants_nil(hand: CardMask, estimate: float, rules: RuleOptions,
              bids: tuple[Bid | None, ...], seat: int) -> bool:
    """Medium's nil rule: a safe hand, no top spade, and partner has not bid nil."""
    if hand >> ACE_OF_SPADES & 1 or hand >> KING_OF_SPADES & 1:
        return False
    if _partner_bid_nil(rules, bids, seat):
        return False
    return estimate < 2.0 and nil_danger(hand) < NIL_DANGER_LIMIT


def medium_bid(view: PlayerView) -> Bid:
    """The bid Medium makes for this view (Hard uses it for the bids it expects)."""
    return bid_for_hand(view.hand, view.rules, view.bids, view.seat, view.bags,
                        [a for a in view.legal if isinstance(a, Bid)])


def bid_for_hand(hand: CardMask, rules: RuleOptions, bids: tuple[Bid | None, ...],
                 seat: int, bags: tuple[int, ...], legal: list[Bid]) -> Bid:
    """Medium's bid for ``hand`` given the bids already made (``legal`` may be every
    bid from 0 to the hand size when asking what another seat would bid)."""
    estimate = estimate_tricks(hand, rules.players)
    nil_legal = any(b.is_nil and not b.blind for b in legal)
    if nil_legal and wants_nil(hand, estimate, rules, bids, seat):
        return Bid(0)
    adjusted = estimate
    if _partner_bid_nil(rules, bids, seat):
        adjusted -= 0.5
    side = rules.side_of(seat)
    if any(b is not None and b.is_nil for s, b in enumerate(bids) if rules.side_of(s) != side):
        adjusted += 0.3
    made = sum(b.tricks for b in bids if b is not None)
    excess = made + adjusted - rules.hand_size
    if excess > 0:
        adjusted -= 0.5 * excess
    if bags[side] >= 7:
        adjusted += 0.3
    wanted = max(1, math.floor(adjusted))
    if rules.suicide and nil_legal and estimate < 2.5:
        return Bid(0)
    return closest_bid(wanted, legal)


def _partner_bid_nil(rules: RuleOptions, bids: tuple[Bid | None, ...], seat: int) -> bool:
    partner = rules.partner_of(seat)
    bid = None if partner is None else bids[partner]
    return bid is not None and bid.is_nil


class MediumBot:
    """Counts its hand carefully, bids nil when safe, covers and attacks nils, and plays
    the shared heuristic with the cards it knows are out."""

    name = "medium"

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def bid(self, view: PlayerView) -> Bid:
        """Trick estimate adjusted for the bids already made; nil on a safe hand."""
        return medium_bid(view)

    def play(self, view: PlayerView) -> Card:
        """The shared heuristic on the holdings each seat may have."""
        legal = mask_of(a for a in view.legal if isinstance(a, Card))
        know = read_view(view)
        table = Table(view.rules, view.bids, view.scores, view.bags)
        trick = [(s, c.index) for s, c in view.trick]
        card = choose_card(view.seat, legal, trick, know.possible, view.tricks_won, table,
                           exact=False)
        return CARDS[card]

    def draw(self, view: PlayerView) -> DrawChoice:
        """Keep cards better than a random one."""
        return draw_choice(view)

    def blind_nil(self, view: PlayerView) -> BlindNilChoice:
        """Only when far behind."""
        return blind_nil_choice(view)

    def exchange(self, view: PlayerView) -> Exchange:
        """Give back the most dangerous cards."""
        return exchange_choice(view)
