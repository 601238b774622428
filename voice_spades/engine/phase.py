"""The phases of a hand, in the order they come."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The phases of a hand, in order; two-player hands start with BLIND_NIL.

    A :class:`~enum.StrEnum`: each member is also its text value ("play"), the form
    saved games and catalog ids use.

    >>> Phase.PLAY == "play", f"word.phase.{Phase.BLIND_NIL}"
    (True, 'word.phase.blind-nil')
    """

    BLIND_NIL = "blind-nil"
    DRAW = "draw"
    EXCHANGE = "exchange"
    BID = "bid"
    PLAY = "play"
    OVER = "over"
