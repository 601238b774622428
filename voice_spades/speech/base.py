"""The :class:`Speaker` protocol every speech output implements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from voice_spades.speech.message import Utterance
from voice_spades.speech.record import OutcomeCallback

SpeakingCallback = Callable[[bool], None]
"""Called with ``True`` when a speaker starts talking and ``False`` when it falls silent."""


@runtime_checkable
class Speaker(Protocol):
    """A speech output.

    Semantics shared by every implementation:

    * ``say`` never blocks the caller; a ``HIGH`` utterance cuts the current one
      and goes first, replacing the answers not yet spoken; a ``NORMAL`` one waits
      its turn and is spoken whole; a ``LOW`` one waits until nothing else is said.
      Game events (``kind`` EVENT) are never dropped unheard: a speaker that keeps a
      queue follows :mod:`voice_spades.speech.queue_policy`.
    * ``stop`` is the player's choice to skip: it drops everything queued.
    """

    def say(self, u: Utterance) -> None:
        """Queue ``u`` by its priority and return at once."""
        ...

    def stop(self) -> None:
        """Fall silent at once and clear the queue."""
        ...

    def cancel(self, tag: str) -> None:
        """Drop queued utterances tagged ``tag`` and cut the current one if it has it."""
        ...

    def is_speaking(self) -> bool:
        """True while something is being spoken or waits in the queue."""
        ...

    def wait_idle(self, timeout: float) -> bool:
        """Block until the speaker is idle; False if ``timeout`` seconds passed first."""
        ...

    def set_rate(self, words_per_minute: int) -> None:
        """Set the speaking rate for utterances that start from now on."""
        ...

    def set_voice(self, voice_id: str | None) -> None:
        """Set the default voice (an id from :meth:`list_voices`); None restores the default."""
        ...

    def set_seat_voice(self, seat: int, voice_id: str | None, pitch: int | None) -> None:
        """Give ``seat`` its own voice and/or pitch (0-99); None keeps the default."""
        ...

    def list_voices(self) -> list[tuple[str, str]]:
        """The installed voices as ``(id, name)`` pairs."""
        ...

    def on_speaking_changed(self, callback: SpeakingCallback) -> None:
        """Register ``callback`` to hear when speech starts and stops (to mute a microphone)."""
        ...

    def close(self) -> None:
        """Stop speaking and release the speaker's processes and files."""
        ...


@runtime_checkable
class Interruptible(Protocol):
    """A speaker that can be cut by a key without losing what it has queued, and says
    what became of each utterance (the queued speakers do)."""

    def interrupt(self) -> None:
        """Cut the current sentence now and keep the queue (a game event cut is said again
        after the key's answer); wait a moment for that answer before going on."""
        ...

    def on_outcome(self, callback: OutcomeCallback) -> None:
        """Register ``callback(utterance, outcome)``, called as each utterance is settled."""
        ...
