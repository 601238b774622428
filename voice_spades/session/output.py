"""Where the session's lines go: the :class:`Output` protocol it talks to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from voice_spades.narration.lines import Line


class Output(Protocol):
    """Prints every line and speaks it. Every method returns at once and may be called
    from any thread (speech runs in its own worker)."""

    def emit(self, lines: Sequence[Line]) -> None:
        """Print each line and speak the batch, in order. A batch of answers (lines of kind
        ANSWER) is said at once, cutting the sentence playing; game events are never
        dropped unheard, only skipped by :meth:`silence`."""
        ...

    def interrupt(self) -> None:
        """A key was pressed: cut the sentence being spoken at once, keeping the game
        events still waiting (they are said after the key's answer)."""
        ...

    def silence(self) -> None:
        """Stop speaking at once and drop what is queued: the player's explicit skip."""
        ...

    def cancel(self, tag: str) -> None:
        """Drop queued speech tagged ``tag`` (and cut it if it is playing)."""
        ...

    def is_busy(self) -> bool:
        """True while something is spoken or queued (always False in text only)."""
        ...

    def wait_idle(self, timeout: float) -> bool:
        """Block until speech has finished, at most ``timeout`` seconds."""
        ...

    def repeat_last(self) -> None:
        """Print and speak the last message again."""
        ...

    def recent(self, count: int) -> list[str]:
        """The last ``count`` messages, oldest first."""
        ...

    def change_rate(self, step: int) -> bool:
        """Speak faster (positive) or slower; False when there is no speech."""
        ...

    def close(self) -> None:
        """Release the speech worker."""
        ...
