"""What the narrator says: an :class:`Utterance` (its :class:`Priority` is narration's)."""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.narration.lines import Priority

__all__ = ["Priority", "Utterance"]


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
