"""Choosing a computer player by level."""

from __future__ import annotations

from voice_spades.bots.base import Bot
from voice_spades.bots.easy import EasyBot
from voice_spades.bots.hard import HardBot
from voice_spades.bots.medium import MediumBot
from voice_spades.engine import InvalidInputError, RuleOptions

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The levels, weakest first."""


def make_bot(level: str, seat: int, rules: RuleOptions, seed: int = 0,
             time_budget: float | None = None) -> Bot:
    """A computer player of ``level`` for ``seat``. The rules come through the views the
    bot is shown, so one bot works for any profile; ``seed`` makes Hard's sampling
    repeatable (its search size is fixed) and ``time_budget`` (seconds of the deciding
    thread's processor time per decision) is Hard's safety net, which stops a search
    early only on a processor far slower than usual, never because the machine is busy.

    Raises InvalidInputError for an unknown level (ValueError for a seat not at the
    table: a programming error)."""
    if not 0 <= seat < rules.players:
        raise ValueError(f"Seat {seat} is not at a table of {rules.players}.")
    if level == "easy":
        return EasyBot(seat)
    if level == "medium":
        return MediumBot(seat)
    if level == "hard":
        return HardBot(seat, seed, time_budget)
    raise InvalidInputError("bots.unknown_level", level=level, choices=", ".join(LEVELS))
