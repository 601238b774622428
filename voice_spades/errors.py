"""The one exception family of voice_spades.

Every error a player can cause or meet derives from :class:`SpadesError`; its
message is a plain sentence that can be spoken as it is.
"""

from __future__ import annotations


class SpadesError(Exception):
    """Base class of every voice_spades error; ``str(error)`` is speakable."""


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
