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
from voice_spades.engine import Action, Bid, Card, PlayerView
from voice_spades.messages import Message
from voice_spades.narration import Answers, HandRecord, Line


class Request(Enum):
    """Something only the session can do for the turn (it owns the output, the save,
    the match and the input hooks)."""

    REPEAT = "repeat"
    SILENCE = "silence"
    FASTER = "faster"
    SLOWER = "slower"
    VERBOSITY = "verbosity"
    LISTEN = "listen"
    SLEEP = "sleep"
    """Voice stops listening ("stop listening", asked about and answered yes)."""
    GET_VOICE_MODEL = "get-voice-model"
    """Download the Vosk model of the game's language (offered, and answered yes)."""
    SAVE_AND_QUIT = "save-and-quit"
    NEW_GAME = "new-game"
    KEYS_HELP = "keys-help"
    """The keys, else what can be said."""
    VOICE_HELP = "voice-help"
    """What can be said now."""
    HISTORY = "history"
    """The recent messages."""
    PREVIOUS_MESSAGE = "previous-message"
    """History: one message back."""
    NEXT_MESSAGE = "next-message"
    """History: one message forward."""
    NEWEST_MESSAGE = "newest-message"
    """History: the newest message."""
    OLDEST_MESSAGE = "oldest-message"
    """History: the oldest message kept."""
    ALL_KEYS = "all-keys"
    """Every key, not only those for now."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What one intent comes to, in the order the session carries it out: the
    ``request`` first, then the lines to ``say``, then the ``action`` (already checked
    legal) applied to the match. ``names`` is the card under the cursor when the lines
    name it (the session then watches whether they are heard whole)."""

    say: tuple[Line, ...] = ()
    action: Action | None = None
    request: Request | None = None
    names: Card | None = None


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
    seed: int = 0
    """The match's seed: the hint's Hard player samples from it, so a hint repeats."""
    previous: HandRecord | None = None
    """The hand the match finished last, for the looks back (L, the previous hand)."""

    def bid_refusals(self) -> list[Message]:
        """Why some bids in range are not allowed now (no hell, suicide)."""
        return [reason for tricks in range(self.view.rules.hand_size + 1)
                if (reason := self.refusal(Bid(tricks))) is not None]
