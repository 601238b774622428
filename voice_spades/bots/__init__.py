"""Computer players: ``make_bot(level, seat, rules)`` for the levels in ``LEVELS``."""

from voice_spades.bots.base import Bot, decide
from voice_spades.bots.levels import LEVELS, make_bot

__all__ = ["LEVELS", "Bot", "decide", "make_bot"]
