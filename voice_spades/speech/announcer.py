"""The narrator's mouth: every message goes out as a text line and, if there is one, as speech."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TextIO

from voice_spades.errors import SpadesError
from voice_spades.narration import render, render_message
from voice_spades.speech.base import Interruptible, Speaker
from voice_spades.speech.message import Priority, Utterance
from voice_spades.speech.record import Outcome, Said, SpeechRecord
from voice_spades.speech.text_speaker import TextSpeaker

_log = logging.getLogger(__name__)

SPEECH_FAILED = "speech.failed"
"""What is said when the speaker fails with no reason of its own."""


class Announcer:
    """Fans each utterance out to the text lines (always) and to an optional speaker.

    Keeps a history for "repeat" and "what was said", with what became of each line
    in speech (:meth:`record`). If the speaker fails at any time, one line says so and
    the game goes on in text only.

    ``print_spoken=False`` (a screen reader that also reads the console speaks the
    lines) prints a line only when the speaker cannot say it: while the speaker works,
    each line goes to the player once, through it; a line the speaker failed on, and
    every line after, is printed.
    """

    def __init__(self, speaker: Speaker | None = None, *, stream: TextIO | None = None,
                 text: Speaker | None = None, history_size: int = 500,
                 print_spoken: bool = True) -> None:
        self._speaker = speaker
        self._text: Speaker = text if text is not None else TextSpeaker(stream)
        self._record = SpeechRecord(history_size)
        self._lock = threading.RLock()
        self._print_spoken = print_spoken
        if isinstance(speaker, Interruptible):
            speaker.on_outcome(self._settle)

    @property
    def speaker(self) -> Speaker | None:
        """The speech output, or None once there is none (never given, or failed)."""
        return self._speaker

    def say(self, message: str | Utterance, priority: Priority = Priority.NORMAL,
            tag: str | None = None, seat: int | None = None) -> None:
        """Announce ``message``; a string takes ``priority``, ``tag`` and ``seat``."""
        u = message if isinstance(message, Utterance) else Utterance(message, priority, tag, seat)
        if not u.text.strip():
            return
        with self._lock:
            self._record.add(u, Outcome.PENDING if self._speaker is not None
                             else Outcome.PRINTED)
            self._emit(u)

    def history(self, n: int | None = None) -> list[str]:
        """The last ``n`` messages printed (all kept if None), oldest first: every one,
        whether it was spoken, is still waiting, or was skipped."""
        items = self._record.texts()
        if n is None:
            return items
        return items[len(items) - n:] if 0 < n < len(items) else items if n > 0 else []

    def record(self, n: int | None = None) -> list[Said]:
        """The last ``n`` messages printed (all kept if None), oldest first, each with its
        kind and what became of it in speech (spoken, skipped...)."""
        return self._record.entries(n)

    def last(self) -> str | None:
        """The last message, or None."""
        items = self._record.texts()
        return items[-1] if items else None

    def repeat_last(self) -> None:
        """Say the last message again, cutting whatever is being said (not added to history)."""
        with self._lock:
            last = self.last()
            if last is not None:
                self._emit(Utterance(last, Priority.HIGH))

    def interrupt(self) -> None:
        """A key was pressed: cut the sentence being spoken and keep what is queued (game
        events are said after the key's answer). A speaker that cannot keep its queue
        is stopped."""
        with self._lock:
            self._to_speaker(lambda s: s.interrupt() if isinstance(s, Interruptible)
                             else s.stop())

    def silence(self) -> None:
        """Stop speaking now and forget what is queued: the player chose to skip it (the
        lines stay in the history, marked skipped)."""
        with self._lock:
            self._to_speaker(lambda s: s.stop())

    def cancel(self, tag: str) -> None:
        """Drop queued speech tagged ``tag`` and cut it if it is playing."""
        with self._lock:
            self._to_speaker(lambda s: s.cancel(tag))

    def close(self) -> None:
        """Close the speaker (the text stream stays open)."""
        with self._lock:
            speaker, self._speaker = self._speaker, None
        if speaker is not None:
            try:
                speaker.close()
            except Exception:
                _log.exception("closing the speaker failed")

    def _emit(self, u: Utterance) -> None:
        printed = self._print_spoken or self._speaker is None
        if printed:
            self._text.say(u)
        self._to_speaker(lambda s: s.say(u))
        if not printed and self._speaker is None:
            self._text.say(u)  # the speaker failed on it: printed, so it is not lost

    def _settle(self, u: Utterance, outcome: Outcome) -> None:
        self._record.settle(u, outcome)
        if outcome is Outcome.FAILED and not self._print_spoken:
            self._text.say(u)  # queued when the reader went: printed, so it is not lost

    def _to_speaker(self, action: Callable[[Speaker], None]) -> None:
        speaker = self._speaker
        if speaker is None:
            return
        try:
            action(speaker)
        except Exception as error:
            self._speech_failed(error)

    def _speech_failed(self, error: Exception) -> None:
        _log.info("speech output failed: %r", error)
        self.close()
        line = render_message(error.message) if isinstance(error, SpadesError) \
            else render(SPEECH_FAILED)
        failure = Utterance(line, Priority.HIGH)
        self._record.add(failure, Outcome.PRINTED)
        self._text.say(failure)
