"""Where each seat sounds in stereo, from the listener's chair.

The listener (South, seat 0 unless told otherwise) is in the centre; the other players
are spread evenly across the field from left to right in table order after the
listener: at four, the left-hand opponent (West) is left, the partner (North) centre
and the right-hand opponent (East) right; at two, the one opponent is in the centre.

>>> seat_pans(4)
{0: 0.0, 1: -1.0, 2: 0.0, 3: 1.0}
>>> seat_pans(3)
{0: 0.0, 1: -1.0, 2: 1.0}
>>> seat_pans(6)
{0: 0.0, 1: -1.0, 2: -0.5, 3: 0.0, 4: 0.5, 5: 1.0}
"""

from __future__ import annotations


def seat_pans(players: int, listener: int = 0, width: float = 1.0) -> dict[int, float]:
    """Every seat's pan (-1 left .. +1 right) at a table of ``players``; ``width`` narrows
    the field (1.0: the far seats fully to one side)."""
    others = players - 1
    pans = {listener % players: 0.0}
    for step in range(1, players):
        seat = (listener + step) % players
        pans[seat] = 0.0 if others == 1 else width * (-1.0 + 2.0 * (step - 1) / (others - 1))
    return dict(sorted(pans.items()))


def seat_pan(seat: int | None, players: int, listener: int = 0) -> float:
    """The pan of ``seat`` (None, or a seat not at the table: the centre)."""
    if seat is None or not 0 <= seat < players:
        return 0.0
    return seat_pans(players, listener)[seat]
