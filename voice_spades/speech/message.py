"""What the narrator says: an :class:`Utterance` (its :class:`Priority` and
:class:`LineKind` are narration's)."""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.narration.lines import LineKind, Priority

__all__ = ["LineKind", "Priority", "Utterance"]


@dataclass(frozen=True)
class Utterance:
    """One sentence to speak.

    ``tag`` groups utterances that go stale together (``"trick-5"`` for the card
    plays of trick 5) so they can be cancelled at once; ``seat`` picks that
    seat's voice, if one was set; ``kind`` says what the sentence is (a game event
    is never dropped unheard, see :mod:`voice_spades.speech.queue_policy`). Queues
    and records tell utterances apart by identity: the same sentence said twice is two.
    """

    text: str
    priority: Priority = Priority.NORMAL
    tag: str | None = None
    seat: int | None = None
    kind: LineKind = LineKind.ANSWER
