"""The bidding rules: which bids a seat may make, given the bids already made.

Pure functions of the rules and the bids so far (``bids[seat]``, None for a seat that
has not bid); :class:`~voice_spades.engine.hand.HandState` asks them.
"""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine.actions import Bid
from voice_spades.engine.profiles import RuleOptions
from voice_spades.messages import Message

SUICIDE_MINIMUM = 4
"""Suicide: the partner of a nil bidder bids at least this many tricks."""


def bid_refusal(rules: RuleOptions, bids: Sequence[Bid | None], seat: int,
                bid: Bid) -> Message | None:
    """Why ``seat`` may not make ``bid`` after ``bids``, as a message; None if allowed."""
    size = rules.hand_size
    if bid.blind:
        if not rules.blind_nil:
            return Message("refusal.blind_nil_not_played")
        return Message("refusal.blind_nil_in_bidding")
    if bid.tricks > size:
        return Message("refusal.bid_too_high", size=size, tricks=bid.tricks)
    partner = partner_bid(rules, bids, seat)
    if bid.is_nil and partner is not None and partner.is_nil and not rules.double_nil:
        return Message("refusal.one_nil_per_side")
    if rules.suicide:
        reason = suicide_refusal(bid, partner)
        if reason is not None:
            return reason
    if rules.no_hell and _is_last_bidder(bids, seat):
        total = sum(b.tricks for b in bids if b is not None) + bid.tricks
        if total == size and _no_hell_has_alternative(rules, bids, seat):
            return Message("refusal.no_hell", size=size, tricks=bid.tricks)
    return None


def partner_bid(rules: RuleOptions, bids: Sequence[Bid | None], seat: int) -> Bid | None:
    """The bid of ``seat``'s partner, if it has one and has bid."""
    partner = rules.partner_of(seat)
    return None if partner is None else bids[partner]


def suicide_refusal(bid: Bid, partner: Bid | None) -> Message | None:
    """Suicide: one partner bids nil and the other at least four."""
    if partner is None:
        if bid.is_nil or bid.tricks >= SUICIDE_MINIMUM:
            return None
        return Message("refusal.suicide_first", minimum=SUICIDE_MINIMUM)
    if partner.is_nil:
        if bid.is_nil or bid.tricks >= SUICIDE_MINIMUM:
            return None
        return Message("refusal.suicide_partner_nil", minimum=SUICIDE_MINIMUM)
    if not bid.is_nil:
        return Message("refusal.suicide_partner_bid", partner=partner.tricks)
    return None


def _is_last_bidder(bids: Sequence[Bid | None], seat: int) -> bool:
    return sum(b is None for b in bids) == 1 and bids[seat] is None


def _no_hell_has_alternative(rules: RuleOptions, bids: Sequence[Bid | None],
                             seat: int) -> bool:
    """Decision: if suicide leaves only the hellish bid, no hell gives way."""
    if not rules.suicide:
        return True
    partner = partner_bid(rules, bids, seat)
    made = sum(b.tricks for b in bids if b is not None)
    return any(suicide_refusal(Bid(t), partner) is None and made + t != rules.hand_size
               for t in range(rules.hand_size + 1))
