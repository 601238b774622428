"""The cards in play for a set of rules, and the check that a deal fits them."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from voice_spades.engine.cards import CARDS, Card, CardMask
from voice_spades.engine.profiles import REMOVED_TWOS_ORDER, RuleOptions
from voice_spades.engine.seats import Seat
from voice_spades.errors import InvalidStateError


def deck_for(rules: RuleOptions) -> list[Card]:
    """The cards in play for these rules: 52, less the removed 2s."""
    return list(_deck_without_twos(rules.removed_twos))


@functools.cache
def deck_mask(removed_twos: int) -> CardMask:
    """The cards in play as a mask, with ``removed_twos`` 2s taken out in the
    rules' order (see :attr:`RuleOptions.removed_twos`)."""
    return sum(card.bit for card in _deck_without_twos(removed_twos))


@functools.cache
def _deck_without_twos(removed: int) -> tuple[Card, ...]:
    gone = {Card.parse(code) for code in REMOVED_TWOS_ORDER[:removed]}
    return tuple(card for card in CARDS if card not in gone)


def deal_round(deck: Sequence[Card], dealer: int, players: int) -> list[list[Card]]:
    """The hands of a deal of ``deck``, one card at a time clockwise from the dealer's
    left; ``hands[seat]``."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % players].append(card)
    return hands


def check_deal(rules: RuleOptions, hands: Sequence[Sequence[Card]]) -> None:
    """Raise InvalidStateError unless ``hands`` deal each card in play at most once,
    a full hand to each seat."""
    n, size = rules.players, rules.hand_size
    if len(hands) != n:
        raise InvalidStateError("save.deal_hand_count", hands=len(hands), players=n)
    deck = frozenset(_deck_without_twos(rules.removed_twos))
    seen: set[Card] = set()
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise InvalidStateError("save.deal_hand_size", seat=Seat(seat), count=len(hand),
                                    size=size)
        for card in hand:
            if card in seen:
                raise InvalidStateError("save.deal_card_twice", card=card)
            if card not in deck:
                raise InvalidStateError("save.deal_card_removed", card=card, players=n)
            seen.add(card)


def check_stock(stock: Sequence[Card]) -> None:
    """Raise InvalidStateError unless the two-player stock holds each card once."""
    if len(stock) != len(CARDS) or len(set(stock)) != len(CARDS):
        raise InvalidStateError("save.stock_not_a_deck")
