"""Bot pacing: computer players wait for the narrator, so the listener can follow."""

from __future__ import annotations

import time
from collections.abc import Callable

POLL = 0.05
"""Seconds between looks at a busy narrator."""


class Pacer:
    """Decides when a bot may act.

    A bot acts once the narrator has finished what it was saying (``is_busy`` is
    False) and ``min_gap`` seconds of quiet have followed, however long that takes: a
    long answer (the help) holds the bots, so no game event is printed while the
    player cannot hear it. The session goes on answering keys while a bot waits.
    ``is_busy`` must fall False when there is no speech (text only) or the speaker
    failed; the speakers bound every sentence, so the wait always ends.
    """

    def __init__(self, is_busy: Callable[[], bool], min_gap: float = 0.3,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.is_busy = is_busy
        self.min_gap = min_gap
        self.clock = clock
        self._last_said = self._last_busy = clock()

    def said_something(self) -> None:
        """Note that the narrator was just given something to say."""
        self._last_said = self.clock()

    def wait_time(self) -> float:
        """Seconds until a bot may act; 0 when it may act now."""
        now = self.clock()
        if self.is_busy():
            self._last_busy = now
            return POLL
        quiet_since = max(self._last_said, self._last_busy)
        return max(0.0, self.min_gap - (now - quiet_since))
