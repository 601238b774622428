"""Where each seat sounds in stereo, from the listener's chair.

The listener (South, seat 0 unless told otherwise) is in the centre; the other players
are spread evenly across the field from left to right in table order after the
listener: at four, the left-hand opponent (West) is left, the partner (North) centre
and the right-hand opponent (East) right; at two, the one opponent is in the centre.

No seat is placed in one ear only: the field spans :data:`FIELD_WIDTH` either side,
so a far seat is clearly on its side and still heard in the other ear (a player with
one earphone, or hearing on one side, hears every seat). The seat across the table,
which shares the centre with the listener, is told apart by :func:`seat_place`'s
``across``: its cues sound from across the table (see
:func:`~voice_spades.speech.cue_sounds.from_across`).

>>> seat_pans(4)
{0: 0.0, 1: -0.6, 2: 0.0, 3: 0.6}
>>> seat_pans(3)
{0: 0.0, 1: -0.6, 2: 0.6}
>>> seat_pans(6)
{0: 0.0, 1: -0.6, 2: -0.3, 3: 0.0, 4: 0.3, 5: 0.6}
"""

from __future__ import annotations

from typing import NamedTuple

FIELD_WIDTH = 0.6
"""The far seats' pan. Through :func:`~voice_spades.speech.audio_clip.pan_gains` it puts
9.8 dB between the ears (measured in the virtual device's recording: 9.8 dB): clearly
to one side, about half the 15-20 dB at which a sound is heard in one ear only, and the
far ear still gets a third of the level (at 1.0 it got nothing)."""


class Place(NamedTuple):
    """Where a seat sounds: its ``pan`` (-1 left .. +1 right) and whether it is the seat
    ``across`` the table from the listener (in the centre too, but not the listener)."""

    pan: float
    across: bool


def seat_pans(players: int, listener: int = 0,
              width: float = FIELD_WIDTH) -> dict[int, float]:
    """Every seat's pan (-1 left .. +1 right) at a table of ``players``; ``width`` is the
    far seats' pan (:data:`FIELD_WIDTH`)."""
    others = players - 1
    pans = {listener % players: 0.0}
    for step in range(1, players):
        seat = (listener + step) % players
        pans[seat] = 0.0 if others == 1 else \
            round(width * (-1.0 + 2.0 * (step - 1) / (others - 1)), 12)
    return dict(sorted(pans.items()))


def seat_pan(seat: int | None, players: int, listener: int = 0) -> float:
    """The pan of ``seat`` (None, or a seat not at the table: the centre)."""
    return seat_place(seat, players, listener).pan


def seat_place(seat: int | None, players: int, listener: int = 0) -> Place:
    """Where ``seat`` sounds (None, or a seat not at the table: the centre, not across).

    >>> seat_place(2, 4), seat_place(0, 4), seat_place(1, 2)
    (Place(pan=0.0, across=True), Place(pan=0.0, across=False), Place(pan=0.0, across=True))
    """
    if seat is None or not 0 <= seat < players:
        return Place(0.0, False)
    pan = seat_pans(players, listener)[seat]
    return Place(pan, pan == 0.0 and seat != listener % players)
