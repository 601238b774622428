"""Trick rules on card masks: legal cards, trick winner, and why a card is illegal."""

from __future__ import annotations

from voice_spades.engine.cards import (
    CARDS,
    FIRST_SPADE,
    NON_SPADES_MASK,
    SUIT_MASKS,
    SUIT_OF,
    CardMask,
    Suit,
    cards_of,
)
from voice_spades.messages import Message


def legal_mask(hand: CardMask, led_suit: int | None, spades_broken: bool) -> CardMask:
    """Cards of ``hand`` that may be played: follow suit if possible; lead spades only
    once broken or when holding nothing else."""
    if led_suit is not None:
        follow = hand & SUIT_MASKS[led_suit]
        return follow or hand
    if spades_broken:
        return hand
    return (hand & NON_SPADES_MASK) or hand


def trick_winner_index(plays: list[tuple[int, int]]) -> int:
    """Position in ``plays`` (seat, card index) of the winning card: the highest spade,
    else the highest card of the suit led."""
    led = plays[0][1] // 13
    best, best_key = 0, -1
    for pos, (_seat, card) in enumerate(plays):
        if card >= FIRST_SPADE:
            key = 100 + card
        elif card // 13 == led:
            key = card
        else:
            continue
        if key > best_key:
            best, best_key = pos, key
    return best


def play_refusal(hand: CardMask, card: int, led_suit: int | None,
                 spades_broken: bool) -> Message | None:
    """Why playing ``card`` from ``hand`` is illegal, as a message; None if legal."""
    if not hand >> card & 1:
        return Message("refusal.not_held", card=CARDS[card])
    if led_suit is not None:
        follow = hand & SUIT_MASKS[led_suit]
        if follow and card // 13 != led_suit:
            return Message("refusal.must_follow", suit=SUIT_OF[follow.bit_length() - 1],
                           held=tuple(cards_of(follow)))
        return None
    if SUIT_OF[card] is Suit.SPADES and not spades_broken and hand & NON_SPADES_MASK:
        return Message("refusal.spades_not_broken")
    return None
