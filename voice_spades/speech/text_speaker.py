"""A speaker that writes plain text lines, for screen readers and braille displays."""

from __future__ import annotations

import re
import sys
import threading
from typing import TextIO

from voice_spades.speech.base import SpeakingCallback
from voice_spades.speech.message import Utterance

_ANSI = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_BREAKING_SPACES = re.compile(r"(?:(?![\u00a0\u2007\u202f])\s)+")
"""Spaces and line breaks, but not the no-break spaces, which French sets before ":"
(a braille display must not wrap the sign away from its word)."""


def plain_line(text: str) -> str:
    """``text`` as one plain line: no escape sequences, control characters or line breaks;
    no-break spaces are kept."""
    return _BREAKING_SPACES.sub(" ", _CONTROL.sub(" ", _ANSI.sub("", text))).strip(" ")


class TextSpeaker:
    """Writes each utterance as one plain line to ``stream`` (standard output by default).

    Every line is flushed at once. Text is never "speaking", so priorities and
    stopping have nothing to act on; the voice settings are accepted and ignored.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def say(self, u: Utterance) -> None:
        """Write ``u`` as one line (nothing for an empty text)."""
        line = plain_line(u.text)
        if not line:
            return
        stream = self._stream if self._stream is not None else sys.stdout
        with self._lock:
            stream.write(line + "\n")
            stream.flush()

    def stop(self) -> None:
        """Nothing to stop: lines are written at once."""

    def cancel(self, tag: str) -> None:
        """Nothing to cancel: lines are written at once."""

    def is_speaking(self) -> bool:
        """Always False."""
        return False

    def wait_idle(self, timeout: float) -> bool:
        """Always idle."""
        return True

    def set_rate(self, words_per_minute: int) -> None:
        """Ignored."""

    def set_voice(self, voice_id: str | None) -> None:
        """Ignored."""

    def set_seat_voice(self, seat: int, voice_id: str | None, pitch: int | None) -> None:
        """Ignored."""

    def list_voices(self) -> list[tuple[str, str]]:
        """No voices."""
        return []

    def on_speaking_changed(self, callback: SpeakingCallback) -> None:
        """Never called: text does not speak."""

    def close(self) -> None:
        """Flush the stream."""
        stream = self._stream if self._stream is not None else sys.stdout
        with self._lock:
            stream.flush()
