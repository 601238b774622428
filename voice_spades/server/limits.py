"""How much a client may do: the connections of one address, the rate of messages, the
wrong codes, the chat.

Each limiter takes the time as an argument (``time.monotonic()`` in the server), so the
tests drive them without waiting.
"""

from __future__ import annotations

from collections import deque

from voice_spades.protocol.wire import (
    CHAT_PER_WINDOW,
    CHAT_WINDOW,
    CODE_TRIES,
    CODE_WINDOW,
    RATE_BURST,
    RATE_CLOSE,
    RATE_PER_SECOND,
    RATE_WINDOW,
)


class MessageRate:
    """A connection's messages: a token bucket (``allow``) and a flood count
    (``flooding``: more than :data:`RATE_CLOSE` in :data:`RATE_WINDOW` seconds)."""

    def __init__(self, now: float, per_second: float = RATE_PER_SECOND,
                 burst: int = RATE_BURST, close_after: int = RATE_CLOSE,
                 window: float = RATE_WINDOW) -> None:
        self.per_second, self.burst = per_second, burst
        self.close_after, self.window = close_after, window
        self.tokens = float(burst)
        self.at = now
        self.recent: deque[float] = deque()

    def allow(self, now: float) -> bool:
        """Count one message; whether it is within the rate."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        self.recent.append(now)
        while self.recent and self.recent[0] <= now - self.window:
            self.recent.popleft()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    @property
    def flooding(self) -> bool:
        """More messages in the window than a client ever needs: close the connection."""
        return len(self.recent) > self.close_after


class CodeTries:
    """Wrong table codes per client address: :data:`CODE_TRIES` in :data:`CODE_WINDOW`
    seconds, then refused for :data:`CODE_WINDOW` seconds."""

    def __init__(self, tries: int = CODE_TRIES, window: float = CODE_WINDOW) -> None:
        self.tries, self.window = tries, window
        self.failures: dict[str, deque[float]] = {}
        self.locked: dict[str, float] = {}

    def blocked(self, address: str, now: float) -> bool:
        """Whether ``address`` may not try a code now."""
        until = self.locked.get(address)
        if until is not None and now < until:
            return True
        self.locked.pop(address, None)
        return False

    def failed(self, address: str, now: float) -> None:
        """A wrong code from ``address``."""
        times = self.failures.setdefault(address, deque())
        times.append(now)
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.tries:
            self.locked[address] = now + self.window
            times.clear()
        if len(self.failures) > 10_000:  # forget quiet addresses, so memory stays bounded
            for key in [k for k, v in self.failures.items() if not v][:5_000]:
                del self.failures[key]


class ChatRate:
    """Chat lines per player: :data:`CHAT_PER_WINDOW` in :data:`CHAT_WINDOW` seconds."""

    def __init__(self, per_window: int = CHAT_PER_WINDOW, window: float = CHAT_WINDOW) -> None:
        self.per_window, self.window = per_window, window
        self.times: dict[str, deque[float]] = {}

    def allow(self, who: str, now: float) -> bool:
        """Count a chat line of ``who``; whether it may be said."""
        times = self.times.setdefault(who, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.per_window:
            return False
        times.append(now)
        return True


CONNECTIONS_PER_ADDRESS = 20
"""Open connections one address may have (``serve --max-connections``): a household or
a club behind one router plays a few tables at most, each player one line."""

MOST_CONNECTIONS_PER_ADDRESS = 100_000
"""The highest ``--max-connections``: the bench's simulated players all come from
127.0.0.1."""


class AddressConnections:
    """Open connections per client address, up to ``most`` each."""

    def __init__(self, most: int = CONNECTIONS_PER_ADDRESS) -> None:
        self.most = most
        self.open: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address``; False (not counted) past the cap."""
        count = self.open.get(address, 0)
        if count >= self.most:
            return False
        self.open[address] = count + 1
        return True

    def closed(self, address: str) -> None:
        """An admitted connection from ``address`` ended."""
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)
