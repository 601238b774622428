"""What the narrator hands on: one sentence to print and speak, its priority, and the
key hints named in prompts."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum

from voice_spades.narration.catalog import render


class Priority(IntEnum):
    """How a line treats speech that is already playing or queued.

    ``LOW`` waits until nothing else is being said or waiting, then is spoken (it
    never cuts anything; a few wait at most); ``NORMAL`` waits its turn and is never
    cut off by another NORMAL; ``HIGH`` cuts the current sentence at once and clears the queue.
    """

    LOW = 0
    NORMAL = 1
    HIGH = 2


class LineKind(Enum):
    """What a line is to the listener; the speech output orders and keeps lines by it.

    ``EVENT`` lines tell what happened in the game (a bid, a card, a trick won, the
    scores): they are never dropped unheard, only skipped when the player asks.
    ``ANSWER`` lines answer the player (a query, the cursor, a refusal): a newer one
    replaces an older one not yet spoken. ``PROMPT`` lines say what the player is to
    do now: a newer one replaces an older one not yet spoken.
    """

    EVENT = "event"
    ANSWER = "answer"
    PROMPT = "prompt"


@dataclass(frozen=True, slots=True)
class Line:
    """One message: printed as a line of text and spoken.

    ``tag`` groups messages that go stale together (the card plays of one trick);
    ``seat`` is the seat the message is about, for per-seat voices and sounds placed
    by seat; ``kind`` says whether it tells a game event, answers the player or
    prompts them; ``result``, on the line that ends a hand, is ``"made"`` or ``"set"``:
    the listener's side's contract (None when it had none), for a sound cue.
    """

    message_id: str
    text: str
    priority: Priority = Priority.NORMAL
    tag: str | None = None
    seat: int | None = None
    kind: LineKind = LineKind.ANSWER
    result: str | None = None


@dataclass(frozen=True, slots=True)
class Hints:
    """How the player triggers a few actions, named in prompts ("press Enter").

    The keyboard layer fills these from the keymap; a voice layer would give words.
    The defaults are the default keymap's keys.
    """

    confirm: str = field(default_factory=lambda: render("key.name.enter"))
    mark: str = field(default_factory=lambda: render("key.name.char", key="X"))
    nil: str = field(default_factory=lambda: render("key.name.char", key="N"))
    help: str = field(default_factory=lambda: render("key.name.function", n=1))
    new: str = field(default_factory=lambda: render("key.name.ctrl", key="N"))
    quit: str = field(default_factory=lambda: render("key.name.char", key="Q"))
    yes: str = field(default_factory=lambda: render("key.name.char", key="Y"))
    no: str = field(default_factory=lambda: render("key.name.char", key="N"))
    keep: str = field(default_factory=lambda: render("key.name.char", key="K"))
    discard: str = field(default_factory=lambda: render("key.name.char", key="D"))
