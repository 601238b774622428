"""What one viewer may see of the engine's events and views.

The engine's events carry full information (every hand in :class:`HandDealt`); a
server sends each viewer only its own. A viewer is a seat number, or ``None`` for a
watcher, who holds nothing. Private, and hidden from everyone but their seat:

- the hands of :class:`HandDealt` and :class:`DrawFinished` (others' become ``()``);
- the cards of another seat's :class:`CardDrawn` (``shown`` and ``received`` become
  ``None``; ``kept`` and the count stay public, as at a real table);
- the cards of another seat's :class:`CardsExchanged` (each becomes ``None``, so how
  many were exchanged stays public, as the local game says it).

Nothing else is private. The seed and the deck order are in no event or view.

>>> from voice_spades.engine import Card, CardDrawn
>>> drawn = CardDrawn(1, Card.parse("QS"), False, Card.parse("2H"), 3)
>>> events_for(0, [drawn])
[CardDrawn(seat=1, shown=None, kept=False, received=None, cards_in_hand=3)]
>>> events_for(1, [drawn]) == [drawn]
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from voice_spades.engine import (
    CardDrawn,
    CardsExchanged,
    DrawFinished,
    Event,
    HandDealt,
    PlayerView,
)

PRIVATE_EVENTS = (HandDealt, DrawFinished, CardDrawn, CardsExchanged)
"""The event classes whose content depends on the viewer."""
WATCHER_SEAT = 0
"""A watcher sees the public facts of seat 0's view (with nothing of seat 0's own)."""


def event_for(viewer: int | None, event: Event) -> Event:
    """``event`` as ``viewer`` (a seat, or None for a watcher) may see it."""
    if isinstance(event, HandDealt | DrawFinished):
        hands = tuple(hand if seat == viewer else () for seat, hand in enumerate(event.hands))
        return dataclasses.replace(event, hands=hands)
    hidden: Any = None  # the wire's "hidden card": see the module's docstring
    if isinstance(event, CardDrawn) and event.seat != viewer:
        return dataclasses.replace(event, shown=hidden, received=hidden)
    if isinstance(event, CardsExchanged) and event.seat != viewer:
        return dataclasses.replace(event, given=tuple(hidden for _ in event.given),
                                   received=tuple(hidden for _ in event.received))
    return event


def events_for(viewer: int | None, events: Iterable[Event]) -> list[Event]:
    """Every event of ``events`` as ``viewer`` may see it, in order."""
    return [event_for(viewer, event) for event in events]


def watcher_view(view: PlayerView) -> PlayerView:
    """A seat's view with everything of that seat's own removed: what a watcher sees."""
    return dataclasses.replace(view, hand=0, known_out=0, draw_top=None, legal=())


def view_for(viewer: int | None, views: Any) -> PlayerView:
    """The view ``viewer`` gets from ``views`` (a callable from seat to its view, such as
    ``Match.view``): its own, or a watcher's from seat :data:`WATCHER_SEAT`."""
    if viewer is None:
        return watcher_view(views(WATCHER_SEAT))
    view: PlayerView = views(viewer)
    return view
