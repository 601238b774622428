"""What the narrator says: an :class:`Utterance` and its :class:`Priority`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Priority(IntEnum):
    """How an utterance treats speech that is already playing or queued.

    ``LOW`` is spoken only when the speaker is idle, otherwise dropped (it never
    piles up); ``NORMAL`` waits its turn and is never cut off by another NORMAL;
    ``HIGH`` cuts the current sentence at once and clears the queue.
    """

    LOW = 0
    NORMAL = 1
    HIGH = 2


@dataclass(frozen=True)
class Utterance:
    """One sentence to speak.

    ``tag`` groups utterances that go stale together (``"trick-5"`` for the card
    plays of trick 5) so they can be cancelled at once; ``seat`` picks that
    seat's voice, if one was set.
    """

    text: str
    priority: Priority = Priority.NORMAL
    tag: str | None = None
    seat: int | None = None
