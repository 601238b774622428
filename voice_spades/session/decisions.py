"""What the player's turn reads (:class:`TurnTable`) and what it decides (:class:`Decision`).

The turn (:class:`~voice_spades.session.turns.PlayerTurn`) never touches the session:
it reads a table and returns a decision, which the session carries out (apply the
action, say the lines, do the request).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from voice_spades.commands import Act, Command, PlayCurrent
from voice_spades.engine import Action, Bid, PlayerView
from voice_spades.messages import Message
from voice_spades.narration import Answers, Line


class Request(Enum):
    """Something only the session can do for the turn (it owns the output, the save,
    the match and the input hooks)."""

    REPEAT = "repeat"
    SILENCE = "silence"
    FASTER = "faster"
    SLOWER = "slower"
    VERBOSITY = "verbosity"
    LISTEN = "listen"
    SAVE_AND_QUIT = "save-and-quit"
    NEW_GAME = "new-game"
    KEYS_HELP = "keys-help"
    """The keys, else what can be said."""
    VOICE_HELP = "voice-help"
    """What can be said now."""
    HISTORY = "history"
    """The recent messages."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What one intent comes to, in the order the session carries it out: the
    ``request`` first, then the lines to ``say``, then the ``action`` (already checked
    legal) applied to the match."""

    say: tuple[Line, ...] = ()
    action: Action | None = None
    request: Request | None = None


NOTHING = Decision()
"""A decision to do and say nothing."""


def saying(*lines: Line) -> Decision:
    """A decision that only says ``lines``."""
    return Decision(say=lines)


@dataclass(frozen=True, slots=True)
class Question:
    """A yes/no question waiting for its answer, and what a yes does."""

    text: str
    on_yes: Act | PlayCurrent | Command | Request


@dataclass(frozen=True, slots=True)
class TurnTable:
    """What the turn reads to decide: the player's view now, whether the match is over,
    the narration that words the answers, and the engine's reason an action is refused."""

    view: PlayerView
    over: bool
    answers: Answers
    refusal: Callable[[Action], Message | None]
    """Why an action is illegal now (``Match.refusal``); None when it is legal."""

    def bid_refusals(self) -> list[Message]:
        """Why some bids in range are not allowed now (no hell, suicide)."""
        return [reason for tricks in range(self.view.rules.hand_size + 1)
                if (reason := self.refusal(Bid(tricks))) is not None]
