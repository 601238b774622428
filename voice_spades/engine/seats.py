"""Seats: numbered clockwise from 0, the human's seat (South)."""

from __future__ import annotations

SEAT_NAMES: dict[int, tuple[str, ...]] = {
    2: ("South", "North"),
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
    5: ("South", "West", "North-west", "North-east", "East"),
    6: ("South", "South-west", "North-west", "North", "North-east", "South-east"),
}
"""Clockwise seat names for each player count (identifiers for logs and tools; the
words a player hears come from the narration catalog)."""


class Seat(int):
    """A seat number that says it is a seat: what the engine puts in a message field,
    so that narration can name it for the listener ("you", "West", "partner North").

    >>> Seat(2), Seat(2) == 2
    (Seat(2), True)
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Seat({int(self)})"


def seat_name(players: int, seat: int) -> str:
    """The compass name of a seat at a table of ``players``."""
    return SEAT_NAMES[players][seat]
