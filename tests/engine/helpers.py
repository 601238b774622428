"""Builders for hand-made positions in engine tests."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest

from voice_spades.engine import Bid, Card, HandState, RuleOptions, deck_for
from voice_spades.errors import SpadesError
from voice_spades.messages import Message
from voice_spades.narration import render_message


def cards(text: str) -> list[Card]:
    """"AS KS 10H" -> cards."""
    return [Card.parse(code) for code in text.split()]


def deal_with(rules: RuleOptions, fixed: Sequence[str], dealer: int = 3,
              avoid: dict[int, str] | None = None) -> HandState:
    """A hand where seat i holds the cards in ``fixed[i]`` (space-separated codes);
    the rest of the deck fills every hand, never giving seat s a card of the suit
    letters in ``avoid[s]`` (constrained seats are filled first)."""
    avoid = avoid or {}
    hands = [cards(text) for text in fixed]
    hands += [[] for _ in range(rules.players - len(hands))]
    used = {card for hand in hands for card in hand}
    rest = [card for card in deck_for(rules) if card not in used]
    for seat in sorted(range(rules.players), key=lambda s: s not in avoid):
        allowed = [c for c in rest if c.suit.letter not in avoid.get(seat, "")]
        need = rules.hand_size - len(hands[seat])
        hands[seat] += allowed[-need:] if need else []
        for card in allowed[-need:] if need else []:
            rest.remove(card)
    return HandState.from_deal(rules, dealer, hands)


def said(what: SpadesError | Message | None) -> str:
    """The sentence a player hears for an engine error or refusal (English, normal)."""
    assert what is not None
    return render_message(what.message if isinstance(what, SpadesError) else what)


@contextmanager
def raises_saying(kind: type[SpadesError], pattern: str) -> Iterator[None]:
    """Like ``pytest.raises(kind, match=pattern)``, matching the sentence the player
    hears (the error's message rendered through the catalog)."""
    with pytest.raises(kind) as err:
        yield
    sentence = said(err.value)
    assert re.search(pattern, sentence), sentence


def bid_all(hand: HandState, bids: Sequence[int]) -> None:
    """Apply one bid per seat in bidding order."""
    for tricks in bids:
        hand.apply(Bid(tricks))
