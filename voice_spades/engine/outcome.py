"""How a match stands at the target: won by a side, or tied at the top (play on)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum


class OutcomeReason(Enum):
    """Why a match has an outcome."""

    TARGET_REACHED = "target-reached"
    """A side reached the target with the highest score alone: the match is over."""
    TIED_AT_TARGET = "tied-at-target"
    """The target is reached but the highest score is shared: another hand is played."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The outcome at the target: ``winner`` is a side index, or None for a tie.

    A tie is not an end: the match plays on until one side leads alone.
    """

    winner: int | None
    reason: OutcomeReason

    @property
    def is_final(self) -> bool:
        """True when a side has won (the match is over)."""
        return self.winner is not None


def match_outcome(scores: Sequence[int], target: int) -> Outcome | None:
    """The outcome after a hand with these side scores: None while nobody has
    reached ``target``; else the highest score wins, or it is a tie if shared.

    >>> match_outcome([499, 320], 500) is None
    True
    >>> match_outcome([510, 530], 500)
    Outcome(winner=1, reason=<OutcomeReason.TARGET_REACHED: 'target-reached'>)
    >>> match_outcome([530, 530], 500).winner is None
    True
    """
    best = max(scores)
    if best < target:
        return None
    leaders = [side for side, score in enumerate(scores) if score == best]
    if len(leaders) == 1:
        return Outcome(leaders[0], OutcomeReason.TARGET_REACHED)
    return Outcome(None, OutcomeReason.TIED_AT_TARGET)
