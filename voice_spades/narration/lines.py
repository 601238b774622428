"""What the narrator hands on: one sentence to print and speak, and its key hints."""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.speech.message import Priority


@dataclass(frozen=True, slots=True)
class Line:
    """One message: printed as a line of text and spoken.

    ``tag`` groups messages that go stale together (the card plays of one trick);
    ``seat`` is the seat the message is about, for per-seat voices.
    """

    message_id: str
    text: str
    priority: Priority = Priority.NORMAL
    tag: str | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Hints:
    """How the player triggers a few actions, named in prompts ("press Enter").

    The keyboard layer fills these from the keymap; a voice layer would give words.
    """

    confirm: str = "Enter"
    mark: str = "X"
    nil: str = "N"
    help: str = "F1"
    new: str = "Control N"
    quit: str = "Q"
