"""What input layers hand the session, and what they may ask it back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from voice_spades.commands import AnyIntent, Intent, Propose
from voice_spades.engine.cards import Card
from voice_spades.engine.view import PlayerView


@dataclass(frozen=True, slots=True)
class KeyPress:
    """A key press, turned into an intent on the session's own thread by ``resolve``
    (given whether a yes/no question is pending then), so keys typed ahead see the
    state their turn finds. ``None`` from ``resolve`` means the key does nothing."""

    label: str
    resolve: Callable[[bool], Intent | Propose | None]


@dataclass(frozen=True, slots=True)
class InputEnded:
    """The input stream closed: save the game and stop."""


QueueItem = AnyIntent | KeyPress | InputEnded
"""Anything that can be put on the session's queue."""


@dataclass(frozen=True, slots=True)
class GrammarContext:
    """What an input layer needs to interpret the player now (a voice grammar, say)."""

    view: PlayerView
    """The human's view: hand, legal actions (``view.legal``), phase, trick..."""
    question: str | None
    """The yes/no question waiting for an answer, if any."""
    cursor: Card | None
    """The card under the hand cursor."""
    typed_bid: str
    """Digits of a bid typed but not yet made."""
    marked: tuple[Card, ...]
    """Cards marked for the blind nil exchange."""
    over: bool
    """True once the match is over (only a new game or quitting remain)."""
