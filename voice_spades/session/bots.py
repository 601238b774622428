"""The computer players at the table."""

from __future__ import annotations

from voice_spades.bots import Bot, make_bot
from voice_spades.engine.profiles import RuleOptions

PARTNER_LEVEL = "hard"
"""The human's partner always plays the strongest level."""


def partner_of(rules: RuleOptions, seat: int) -> int | None:
    """The seat opposite ``seat`` in a partnership game, else None."""
    return (seat + 2) % 4 if rules.is_partnership else None


def make_bots(rules: RuleOptions, level: str, seed: int, human: int = 0) -> dict[int, Bot]:
    """A bot for every seat but ``human``'s: the partner at Hard, opponents at ``level``."""
    partner = partner_of(rules, human)
    return {seat: make_bot(PARTNER_LEVEL if seat == partner else level, seat, rules,
                           seed * 31 + seat)
            for seat in range(rules.players) if seat != human}
