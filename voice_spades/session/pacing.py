"""Bot pacing: computer players wait for the narrator, so the listener can follow."""

from __future__ import annotations

import time
from collections.abc import Callable

POLL = 0.05
"""Seconds between looks at a busy narrator."""
MAX_WAIT = 20.0
"""Longest a bot waits for the narrator: longer than the longest sentence (a hand read
out at the start of a hand), so nothing is overtaken; any key cuts the wait short."""


class Pacer:
    """Decides when a bot may act.

    A bot acts once the narrator has finished what it was saying (``is_busy`` is
    False) and ``min_gap`` seconds of quiet have followed; or, whatever the narrator
    is doing, once ``max_wait`` seconds have passed since something was last said.
    """

    def __init__(self, is_busy: Callable[[], bool], min_gap: float = 0.3,
                 max_wait: float = MAX_WAIT, clock: Callable[[], float] = time.monotonic) -> None:
        self.is_busy = is_busy
        self.min_gap = min_gap
        self.max_wait = max_wait
        self.clock = clock
        self._last_said = self._last_busy = clock()

    def said_something(self) -> None:
        """Note that the narrator was just given something to say."""
        self._last_said = self.clock()

    def wait_time(self) -> float:
        """Seconds until a bot may act; 0 when it may act now."""
        now = self.clock()
        if now - self._last_said >= self.max_wait:
            return 0.0
        if self.is_busy():
            self._last_busy = now
            return min(POLL, self.max_wait - (now - self._last_said))
        quiet_since = max(self._last_said, self._last_busy)
        return max(0.0, self.min_gap - (now - quiet_since))
