"""Keys that come before the prompt or question they would answer.

A key carries when the terminal read it; the session notes when each prompt and
question went out. A key that would act (play, bid, keep or discard, mark, yes or no)
and was read before the latest of them does nothing: in text mode with ``--pace 0``
an Enter read 40 ms before the play prompt was printed used to play the card under
the cursor on the player's turn.
"""

from __future__ import annotations

import math
import time

from voice_spades.commands import Act, Confirm, Intent, MarkCard, PlayCurrent, Propose, TypeDigit
from voice_spades.session.inputs import KeyPress

_ANSWERING = (Act, PlayCurrent, TypeDigit, Confirm, MarkCard, Propose)
"""Intents that answer a prompt or a question."""


class PromptClock:
    """When the latest prompt or question was said, and whether a key came before it."""

    def __init__(self) -> None:
        self.asked_at = -math.inf
        """When the latest prompt or question went out (``time.perf_counter``, as
        :attr:`KeyPress.read_at`)."""
        self._told = -math.inf

    def asked(self) -> None:
        """A prompt or question has just gone out."""
        self.asked_at = time.perf_counter()

    def too_early(self, key: KeyPress, intent: Intent | Propose) -> bool:
        """True for a key that would answer a prompt or question said after it was read."""
        return key.read_at is not None and key.read_at < self.asked_at \
            and isinstance(intent, _ANSWERING)

    def first_told(self) -> bool:
        """True the first time a key too early for the latest prompt is told about: the
        player hears it once, not for every key typed ahead."""
        first = self._told != self.asked_at
        self._told = self.asked_at
        return first
