"""What the session needs of a table, local or remote, and what it tells its watchers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from voice_spades.engine import (
    Action,
    Bid,
    Event,
    HandScored,
    Outcome,
    PlayerView,
    RuleOptions,
    Trick,
)
from voice_spades.messages import Message
from voice_spades.storage import SaveStore


@dataclass(frozen=True, slots=True)
class PreviousHand:
    """The hand the match finished last: its bids, its tricks in order, its score (the
    review keys look back at it)."""

    number: int
    bids: tuple[Bid | None, ...]
    tricks: tuple[Trick, ...]
    result: HandScored


@dataclass(frozen=True, slots=True)
class Note:
    """Something said at the table that is not a game event: who sat down, left,
    dropped or came back, a chat message, a server's refusal. ``chat`` notes are said at
    low priority (never cutting a prompt or a game event) and may be muted."""

    message: Message
    chat: bool = False


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The table as the session's watchers get it after each change: the player's seat
    and view, the events just applied (in order), whose turn it is, whether the match is
    over."""

    seat: int
    view: PlayerView
    events: tuple[Event, ...] = ()
    to_act: int | None = None
    over: bool = False
    notes: tuple[Note, ...] = field(default=())


class Table(Protocol):
    """A match as the player at :attr:`seat` plays it."""

    @property
    def seat(self) -> int:
        """The player's seat (0 is South; any seat may be the player's)."""

    @property
    def watching(self) -> bool:
        """True for a watcher, who holds no seat: the game is said with every seat by
        its name, and it is never the watcher's turn."""

    @property
    def rules(self) -> RuleOptions:
        """The match's rules."""

    @property
    def seed(self) -> int:
        """A number the hint's sampling starts from, so that a hint asked twice repeats."""

    @property
    def to_act(self) -> int | None:
        """The seat to act now, None when the match is over (or nobody may act yet)."""

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""

    def view(self) -> PlayerView:
        """The player's view now."""

    def refusal(self, action: Action) -> Message | None:
        """Why the player may not take ``action`` now; None when it looks legal."""

    def act(self, action: Action) -> list[Event]:
        """Take the player's action; the events it caused here and now (a remote table
        returns none: they come back from the server through :meth:`advance`). Raises
        :class:`~voice_spades.errors.IllegalActionError` when refused at once."""

    def pending(self) -> bool:
        """True when something is to happen without the player (a bot is to move, news
        from a server is waiting)."""

    def advance(self) -> list[Event]:
        """Make the next thing that happens without the player happen; its events."""

    def notes(self) -> list[Note]:
        """What was said at the table since the last call (presence, chat, refusals)."""

    def chat(self, text: str) -> Message | None:
        """Send a chat message to the table; why not, when it cannot go (no one to
        talk to at a local table, too long, too fast)."""

    def opening_events(self) -> list[Event]:
        """The events of the match's start (the first deal), to narrate a new match."""

    def previous(self) -> PreviousHand | None:
        """The hand finished last, None before the first one ends."""

    def outcome(self) -> Outcome | None:
        """How the match ended, None while it goes on."""

    def save(self, store: SaveStore, settings: Mapping[str, object]) -> None:
        """Save the match where the player can resume it (raises OSError if the disk
        refuses); a table kept elsewhere (a server) saves nothing here."""

