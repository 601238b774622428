"""How a match stands after a hand: won by a side, or tied at the top (play on), once a
side has reached the target or (with a losing score) fallen to it, or (with a hand
limit) once the limit's hand is played."""

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
    LOSING_SCORE_REACHED = "losing-score-reached"
    """Nobody reached the target, but a side fell to the losing score (minus the target)
    or below: the match is over and the highest score, alone, wins."""
    TIED_AT_LOSING_SCORE = "tied-at-losing-score"
    """A side fell to the losing score but the highest score is shared: another hand."""
    HAND_LIMIT_REACHED = "hand-limit-reached"
    """Nobody reached the target nor the losing score, but the hand limit is reached:
    the match is over and the highest score, alone, wins."""
    TIED_AT_HAND_LIMIT = "tied-at-hand-limit"
    """The hand limit is reached but the highest score is shared: one more hand."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The outcome at the target (or the losing score): ``winner`` is a side index, or
    None for a tie.

    A tie is not an end: the match plays on until one side leads alone.
    """

    winner: int | None
    reason: OutcomeReason

    @property
    def is_final(self) -> bool:
        """True when a side has won (the match is over)."""
        return self.winner is not None


def match_outcome(scores: Sequence[int], target: int, losing_score: int | None = None,
                  *, at_hand_limit: bool = False) -> Outcome | None:
    """The outcome after a hand with these side scores: None while nobody has
    reached ``target`` (nor fallen to ``losing_score``, if there is one) and the hand
    limit is not reached (``at_hand_limit``: this hand is the limit's or one after it);
    else the highest score wins, or it is a tie if shared. The target counts first,
    then the losing score, then the hand limit.

    >>> match_outcome([499, 320], 500) is None
    True
    >>> match_outcome([510, 530], 500)
    Outcome(winner=1, reason=<OutcomeReason.TARGET_REACHED: 'target-reached'>)
    >>> match_outcome([530, 530], 500).winner is None
    True
    >>> match_outcome([-500, 120, 80], 500, losing_score=-500)
    Outcome(winner=1, reason=<OutcomeReason.LOSING_SCORE_REACHED: 'losing-score-reached'>)
    >>> match_outcome([-499, 120, 80], 500, losing_score=-500) is None
    True
    >>> match_outcome([-90, 120, 80], 500, at_hand_limit=True)
    Outcome(winner=1, reason=<OutcomeReason.HAND_LIMIT_REACHED: 'hand-limit-reached'>)
    """
    best = max(scores)
    if best >= target:
        won, tied = OutcomeReason.TARGET_REACHED, OutcomeReason.TIED_AT_TARGET
    elif losing_score is not None and min(scores) <= losing_score:
        won, tied = OutcomeReason.LOSING_SCORE_REACHED, OutcomeReason.TIED_AT_LOSING_SCORE
    elif at_hand_limit:
        won, tied = OutcomeReason.HAND_LIMIT_REACHED, OutcomeReason.TIED_AT_HAND_LIMIT
    else:
        return None
    leaders = [side for side, score in enumerate(scores) if score == best]
    if len(leaders) == 1:
        return Outcome(leaders[0], won)
    return Outcome(None, tied)
