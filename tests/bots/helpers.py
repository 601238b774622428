"""Builders for hand-made positions in bot tests."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import (
    Bid,
    Card,
    HandState,
    Match,
    PlayerView,
    RuleOptions,
    deck_for,
    profile,
)


def cards(text: str) -> list[Card]:
    """"AS KS 10H" -> cards."""
    return [Card.parse(code) for code in text.split()]


def deal_with(rules: RuleOptions, fixed: dict[int, str], dealer: int = 3,
              avoid: dict[int, str] | None = None) -> HandState:
    """A hand where seat s holds ``fixed[s]`` plus filler cards, never a card of a suit
    letter in ``avoid[s]``; the most constrained seats are filled first."""
    avoid = avoid or {}
    hands = [cards(fixed.get(seat, "")) for seat in range(rules.players)]
    used = {card for hand in hands for card in hand}
    rest = [card for card in deck_for(rules) if card not in used]
    order = sorted(range(rules.players), key=lambda s: (s not in avoid, s in fixed))
    for seat in order:
        need = rules.hand_size - len(hands[seat])
        allowed = [c for c in rest if c.suit.letter not in avoid.get(seat, "")]
        take = allowed[::-1][:need] if seat % 2 else allowed[:need]
        hands[seat] += take
        for card in take:
            rest.remove(card)
    return HandState.from_deal(rules, dealer, hands)


def in_match(hand: HandState, scores: Sequence[int] | None = None,
             bags: Sequence[int] | None = None) -> Match:
    """A match whose current hand is ``hand``."""
    match = Match(hand.rules, seed=0, first_dealer=hand.dealer)
    match.hand = hand
    if scores is not None:
        match.scores = list(scores)
    if bags is not None:
        match.bags = list(bags)
    return match


def bid_all(hand: HandState, bids: Sequence[int]) -> None:
    """Bids in bidding order."""
    for tricks in bids:
        hand.apply(Bid(tricks))


def play_cards(hand: HandState, codes: str) -> None:
    """Cards played in turn order."""
    for card in cards(codes):
        hand.apply(card)


def view_of(hand: HandState, seat: int) -> PlayerView:
    """The view of ``seat`` in a match holding ``hand``."""
    return in_match(hand).view(seat)


def variant_profile(name: str, players: int | None = None, target: int | None = None,
                    variants: dict[str, bool] | None = None) -> RuleOptions:
    """``profile`` with the playroom variants given by name (no_hell, quicksand, suicide)."""
    v = variants or {}
    return profile(name, players=players, target=target, no_hell=v.get("no_hell", False),
                   quicksand=v.get("quicksand", False), suicide=v.get("suicide", False))
