"""What a player missed while their line was down, said in a few short lines: "While you
were away: 5 cards played, 1 trick won, the last by West." Then the chat and the comings
and goings they missed, and their turn if it is theirs."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import BidMade, CardPlayed, Event, HandScored, PlayerView, Seat, TrickWon
from voice_spades.messages import Message
from voice_spades.table import Note

MISSED_NOTES = 5
"""At most this many missed presence and chat notes are said after the summary (the
latest); the history keeps the summary, so a long absence stays a few lines."""


class AwaySummary:
    """Counts what the stream brought while the player was away."""

    def __init__(self) -> None:
        self.bids = 0
        self.plays = 0
        self.tricks = 0
        self.last_winner: int | None = None
        self.hands: list[int] = []
        self.view: PlayerView | None = None
        """The view after the last missed state: the table jumps to it."""
        self.missed: list[Note] = []

    @property
    def empty(self) -> bool:
        """True when nothing came while away (the line was back at once)."""
        return self.view is None and not self.missed

    def missed_state(self, events: Sequence[Event], view: PlayerView) -> None:
        """A state message that came while away."""
        for event in events:
            if isinstance(event, BidMade):
                self.bids += 1
            elif isinstance(event, CardPlayed):
                self.plays += 1
            elif isinstance(event, TrickWon):
                self.tricks += 1
                self.last_winner = event.winner
            elif isinstance(event, HandScored):
                self.hands.append(event.hand_number)
        self.view = view

    def missed_note(self, note: Note) -> None:
        """A presence or chat message that came while away."""
        self.missed.append(note)

    def notes(self) -> list[Note]:
        """The catch-up: one summary line, then the latest missed notes."""
        parts: list[Message] = []
        if self.bids:
            parts.append(Message("table.away.bids", n=self.bids))
        if self.plays:
            parts.append(Message("table.away.plays", n=self.plays))
        if self.tricks and self.last_winner is not None:
            parts.append(Message("table.away.tricks", n=self.tricks, seat=Seat(self.last_winner)))
        for number in self.hands:
            parts.append(Message("table.away.hand", number=number))
        if not parts:
            parts.append(Message("table.away.nothing"))
        return [Note(Message("table.away", what=tuple(parts))), *self.missed[-MISSED_NOTES:]]

    def public_events(self) -> tuple[Event, ...]:
        """The events to play on return: none (the summary said them); the view jumps."""
        return ()
