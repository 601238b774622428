"""Intents: what a player means, whether they pressed a key or said it.

Keys and voice both produce these; the session alone decides what they do.
Nothing about the game lives in the input layers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from voice_spades.engine import Action, BlindNilChoice, Card, DrawChoice, Phase, Suit
from voice_spades.messages import Message


@dataclass(frozen=True, slots=True)
class Act:
    """Take a game action: a bid, a card, a draw or blind nil decision, an exchange."""

    action: Action


@dataclass(frozen=True, slots=True)
class PlayCurrent:
    """Play the card under the hand cursor ("play it", Enter)."""


class Query(Enum):
    """Questions a player can ask at any time, whoever's turn it is."""

    TABLE = "table"            # cards on the table
    SUIT_LED = "suit-led"
    SCORES = "scores"          # scores and bags
    WHOSE_TURN = "whose-turn"
    HAND = "hand"              # read my whole hand
    SUIT = "suit"              # read one suit of my hand (needs ``suit``)
    LEGAL = "legal"            # what can I play / bid now
    GAME_INFO = "game-info"    # bids and tricks per player, trick number
    BIDS = "bids"
    LAST_TRICK = "last-trick"
    HELP = "help"              # the keys
    WHAT_CAN_I_SAY = "what-can-i-say"
    HISTORY = "history"        # recent messages
    PREVIOUS_MESSAGE = "previous-message"  # history: one message back
    NEXT_MESSAGE = "next-message"          # history: one message forward
    NEWEST_MESSAGE = "newest-message"      # history: the newest message
    OLDEST_MESSAGE = "oldest-message"      # history: the oldest message kept
    PREVIOUS_HAND = "previous-hand"        # the previous hand, a trick at a time, then its score
    TRICKS_NEEDED = "tricks-needed"        # tricks each side still needs; contracts made
    TARGET = "target"                      # the target score and the bag penalty
    NEXT_PLAYER = "next-player"            # one player's bid and tricks; again: the next
    CURRENT_CARD = "current-card"  # the card under the hand cursor
    HINT = "hint"              # what the Hard player would do here, and why
    ALL_KEYS = "all-keys"      # every key (HELP: the keys for now, a few at a time)


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask a question; ``suit`` is set for :attr:`Query.SUIT`."""

    query: Query
    suit: Suit | None = None


class Move(Enum):
    """Hand cursor movements."""

    NEXT_CARD = "next-card"
    PREVIOUS_CARD = "previous-card"
    NEXT_SUIT = "next-suit"
    PREVIOUS_SUIT = "previous-suit"
    HIGHEST = "highest"
    LOWEST = "lowest"


@dataclass(frozen=True, slots=True)
class MoveCursor:
    """Move through the hand by card or suit; speaks the card reached."""

    move: Move


@dataclass(frozen=True, slots=True)
class JumpToSuit:
    """Put the cursor on a suit's first card."""

    suit: Suit


@dataclass(frozen=True, slots=True)
class StartBid:
    """The B key: say what bids are possible and wait for one."""


@dataclass(frozen=True, slots=True)
class TypeDigit:
    """A digit key while bidding (bids above 9 take two digits)."""

    digit: int


@dataclass(frozen=True, slots=True)
class MarkCard:
    """Blind nil exchange: mark a card to give back, or unmark it (``None``: the card
    under the hand cursor). Confirming plays the exchange of the marked cards."""

    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Confirm:
    """Answer a pending question: yes (True) or no (False).

    ``reflex`` marks the confirm key (Enter), which players press by reflex: it says yes
    to a yes/no question ("Bid nil?") but never makes the choice of a two-way decision
    (keep or discard, blind nil); there it says the question again, naming its keys."""

    yes: bool
    reflex: bool = False


@dataclass(frozen=True, slots=True)
class Cancel:
    """Drop what is pending (a typed bid, a question)."""


class Control(Enum):
    """Session commands that are not about the cards."""

    REPEAT = "repeat"
    SILENCE = "silence"
    FASTER = "faster"
    SLOWER = "slower"
    SAVE_AND_QUIT = "save-and-quit"
    NEW_GAME = "new-game"
    VERBOSITY = "verbosity"    # cycle brief / normal / verbose
    LISTEN = "listen"          # push-to-talk: start listening
    SLEEP = "sleep"            # stop listening: "stop listening" heard unclearly, then yes
    GET_VOICE_MODEL = "get-voice-model"  # download the Vosk model offered, once said yes


@dataclass(frozen=True, slots=True)
class Command:
    """A session command."""

    control: Control


class ChatStep(Enum):
    """What a chat intent does."""

    OPEN = "open"
    """Open the line to type a message (the keyboard then takes the keys as text)."""
    SEND = "send"
    """Send the typed text to the table."""
    MUTE = "mute"
    """Stop or start saying the table's chat."""


@dataclass(frozen=True, slots=True)
class Chat:
    """Table talk at a shared table: open the line, send ``text``, or mute chat."""

    step: ChatStep
    text: str = ""


Intent = (Act | PlayCurrent | Ask | MoveCursor | JumpToSuit | StartBid | TypeDigit | MarkCard
          | Confirm | Cancel | Command | Chat)
"""Anything a player can mean."""


@dataclass(frozen=True, slots=True)
class Propose:
    """An uncertain or irreversible intent (a spoken bid, a card heard with low
    confidence, a "save and quit" heard with doubt): the session asks ``question``
    and waits for :class:`Confirm`.

    ``question`` is a catalog message (``Message("question.nil")``), which the session
    words for the player; text is taken as already worded by the catalog.
    """

    intent: Act | PlayCurrent | Command
    question: Message | str


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """Speech that matched nothing: the session answers "Sorry, say again" (and then
    ``hint``, when the voice layer has advice to add, such as how to train it)."""

    heard: str | None = None
    hint: Message | None = None


AnyIntent = Intent | Propose | NotUnderstood
"""Every intent, including the voice layer's proposals and misses."""


def answered_decision(phase: Phase, yes: bool) -> Action | None:
    """What a yes or a no with no question pending decides at ``phase``, on the player's
    turn: the blind nil choice or the two-player draw, whose prompt is a yes/no
    question; None at any other phase.

    >>> answered_decision(Phase.DRAW, False)
    DrawChoice(keep=False)
    >>> answered_decision(Phase.PLAY, True) is None
    True
    """
    if phase == Phase.BLIND_NIL:
        return BlindNilChoice(yes)
    if phase == Phase.DRAW:
        return DrawChoice(yes)
    return None
