"""The one exception family of voice_spades.

Every error a player can cause or meet derives from :class:`SpadesError`. It carries
what to say as data, a catalog message id and named fields (:attr:`SpadesError.message`),
never a ready-made sentence: :mod:`voice_spades.narration` renders it in the player's
language. ``str(error)`` is a developer's form for logs and tracebacks.

>>> error = InvalidInputError("input.not_a_suit", text="stars")
>>> error.message
Message('input.not_a_suit', text='stars')
>>> isinstance(error, ValueError)
True
"""

from __future__ import annotations

from typing import Any

from voice_spades.messages import Message


class SpadesError(Exception):
    """Base class of every voice_spades error: a catalog message id and its fields."""

    def __init__(self, message_id: str, /, **fields: Any) -> None:
        super().__init__(message_id)
        self.message = Message(message_id, **fields)

    @property
    def message_id(self) -> str:
        """The catalog id of what to tell the player."""
        return self.message.id

    @property
    def fields(self) -> dict[str, Any]:
        """The named values the message's sentence is filled with."""
        return dict(self.message.fields)

    def __str__(self) -> str:
        return repr(self.message)


class InvalidInputError(SpadesError, ValueError):
    """Text that does not name a card, bid or command ("queen of nothing")."""


class IllegalActionError(SpadesError, ValueError):
    """A well-formed action the rules forbid now ("You must follow hearts...")."""


class InvalidStateError(SpadesError, ValueError):
    """A saved state that breaks the rules (a duplicate card, a bad bid...)."""


class SetupError(SpadesError):
    """Something missing on this machine (a model, a microphone, speakers).

    The message says what is missing and how the game carries on.
    """
