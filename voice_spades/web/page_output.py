"""The session's output when a page shows the table: every line also goes to the page's
log, and the page's "screen reader" switch moves the lines from the game's voice to
printed text only, so the player's reader reads the page instead."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from voice_spades.narration import Line
from voice_spades.session.output import Output

RECENT_KEPT = 50
"""Lines a silent output keeps for the history keys."""


class PageOutput:
    """Implements :class:`~voice_spades.session.output.Output` over ``voiced`` (the
    game's usual output) and ``quiet`` (printed lines only); ``said`` is told every
    batch of lines (once the page is up)."""

    def __init__(self, voiced: Output, quiet: Output,
                 said: Callable[[Sequence[Line]], None] | None = None) -> None:
        self.voiced = voiced
        self.quiet = quiet
        self.said = said or (lambda _lines: None)
        self._reader = threading.Event()

    @property
    def reader(self) -> bool:
        """True while the page's screen reader switch is on (the game's voice silent)."""
        return self._reader.is_set()

    def set_reader(self, on: bool) -> None:
        """Turn the page's screen reader switch on (the game's voice stops now) or off."""
        if on:
            self._reader.set()
            self.voiced.silence()
        else:
            self._reader.clear()

    @property
    def active(self) -> Output:
        """Where lines go now."""
        return self.quiet if self.reader else self.voiced

    def emit(self, lines: Sequence[Line]) -> None:
        """Say ``lines`` and show them in the page's log."""
        self.active.emit(lines)
        self.said(lines)

    def interrupt(self) -> None:
        """Cut the sentence being spoken."""
        self.active.interrupt()

    def silence(self) -> None:
        """Stop speaking and drop what is queued."""
        self.active.silence()

    def cancel(self, tag: str) -> None:
        """Drop queued speech tagged ``tag``."""
        self.active.cancel(tag)

    def is_busy(self) -> bool:
        """True while speech plays or waits."""
        return self.active.is_busy()

    def wait_idle(self, timeout: float) -> bool:
        """Wait for speech to finish."""
        return self.active.wait_idle(timeout)

    def repeat_last(self) -> None:
        """Say the last message again."""
        self.active.repeat_last()

    def recent(self, count: int) -> list[str]:
        """The last ``count`` messages."""
        return self.active.recent(count)

    def change_rate(self, step: int) -> bool:
        """Speak faster or slower."""
        return self.active.change_rate(step)

    def close(self) -> None:
        """Release both outputs."""
        self.voiced.close()
        self.quiet.close()


class SilentOutput:
    """Implements :class:`~voice_spades.session.output.Output` for a seat played only in
    a browser: nothing is printed or spoken here (the page shows and may speak each
    line)."""

    def __init__(self) -> None:
        self._said: list[str] = []

    def emit(self, lines: Sequence[Line]) -> None:
        """Keep the lines' texts for :meth:`recent`."""
        self._said = [*self._said, *(line.text for line in lines)][-RECENT_KEPT:]

    def interrupt(self) -> None:
        """Nothing is spoken here."""

    def silence(self) -> None:
        """Nothing is spoken here."""

    def cancel(self, tag: str) -> None:
        """Nothing is queued here."""

    def is_busy(self) -> bool:
        """Never busy."""
        return False

    def wait_idle(self, timeout: float) -> bool:
        """Always idle."""
        return True

    def repeat_last(self) -> None:
        """The page shows the log: nothing to repeat here."""

    def recent(self, count: int) -> list[str]:
        """The last ``count`` lines."""
        return self._said[-count:] if count > 0 else []

    def change_rate(self, step: int) -> bool:
        """No speech here."""
        return False

    def close(self) -> None:
        """Nothing to release."""
