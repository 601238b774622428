"""Two-player choices: keep or discard while drawing, blind nil, the exchange."""

from __future__ import annotations

from tests.bots.helpers import cards, in_match
from voice_spades.bots import decide, make_bot
from voice_spades.engine import (
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    HandState,
    Phase,
    deck_for,
    profile,
)

RULES = profile("two-player")


def stock_starting(codes: str) -> list[Card]:
    """A stock whose top cards are ``codes``, then the rest of the deck."""
    top = cards(codes)
    return top + [c for c in deck_for(RULES) if c not in top]


def drawing(codes: str, blind: bool) -> HandState:
    """Seat 0 about to draw from a stock starting with ``codes``."""
    hand = HandState.from_stock(RULES, 0, stock_starting(codes))
    hand.apply(BlindNilChoice(blind))
    hand.apply(BlindNilChoice(False))
    return hand


def test_keeps_an_ace_and_discards_a_small_card() -> None:
    """Normally: keep the ace of spades, pass on the 3 of clubs."""
    for level in ("easy", "medium", "hard"):
        bot = make_bot(level, 0, RULES, time_budget=0.01)
        assert decide(bot, in_match(drawing("AS 2D", False)).view(0)) == DrawChoice(True)
        assert decide(bot, in_match(drawing("3C 2D", False)).view(0)) == DrawChoice(False)


def test_blind_nil_keeps_small_cards() -> None:
    """After a blind nil the wish list turns over: keep the 3, pass on the ace."""
    for level in ("medium", "hard"):
        bot = make_bot(level, 0, RULES, time_budget=0.01)
        assert decide(bot, in_match(drawing("3C 2D", True)).view(0)) == DrawChoice(True)
        assert decide(bot, in_match(drawing("AS 2D", True)).view(0)) == DrawChoice(False)


def test_exchange_gives_back_the_dangerous_cards() -> None:
    """Holding the ace and king of spades after a blind nil: give them back."""
    hand = drawing("AS 2D 4C 5C KS 3D", True)
    while hand.phase is Phase.DRAW:
        hand.apply(DrawChoice(True))
    assert hand.phase is Phase.EXCHANGE and hand.to_act == 0
    for level in ("medium", "hard"):
        action = decide(make_bot(level, 0, RULES, time_budget=0.01), in_match(hand).view(0))
        assert isinstance(action, Exchange)
        assert hand.is_legal(action)
        assert {Card.parse("AS"), Card.parse("KS")} <= set(action.cards)


def test_blind_nil_only_as_a_last_chance() -> None:
    """Far behind a leader about to win: blind nil; level or leading: no."""
    hand = HandState.from_stock(RULES, 0, stock_starting(""))
    bot = make_bot("medium", 0, RULES)
    behind = in_match(hand, scores=[200, 450]).view(0)
    level = in_match(hand, scores=[200, 200]).view(0)
    assert decide(bot, behind) == BlindNilChoice(True)
    assert decide(bot, level) == BlindNilChoice(False)
