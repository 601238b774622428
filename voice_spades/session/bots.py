"""The computer players at the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from voice_spades.bots import Bot, make_bot
from voice_spades.engine import RuleOptions
from voice_spades.session.settings import GameSettings

HUMAN = 0
"""The player's seat unless the settings choose another: South."""
PARTNER_LEVEL = "hard"
"""The human's partner always plays the strongest level."""

BotFactory = Callable[[RuleOptions, GameSettings], Mapping[int, Bot]]
"""Makes the computer players for a match."""


def make_bots(rules: RuleOptions, level: str, seed: int, human: int = HUMAN) -> dict[int, Bot]:
    """A bot for every seat but ``human``'s: the partner at Hard, opponents at ``level``."""
    partner = rules.partner_of(human)
    return {seat: make_bot(PARTNER_LEVEL if seat == partner else level, seat, rules,
                           seed * 31 + seat)
            for seat in range(rules.players) if seat != human}


def default_bots(rules: RuleOptions, settings: GameSettings) -> Mapping[int, Bot]:
    """Partner at Hard, opponents at the settings' level, around the settings' seat."""
    return make_bots(rules, settings.level, settings.seed, settings.seat)
