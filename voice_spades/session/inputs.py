"""What input layers hand the session, and what they may ask it back."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from voice_spades.commands import AnyIntent, Intent, Propose
from voice_spades.engine import Card, PlayerView


@dataclass(frozen=True, slots=True)
class KeyPress:
    """A key press, turned into an intent on the session's own thread by ``resolve``
    (given whether a yes/no question is pending then), so keys typed ahead see the
    state their turn finds. ``None`` from ``resolve`` means the key does nothing."""

    label: str
    resolve: Callable[[bool], Intent | Propose | None]
    read_at: float | None = None
    """When the key was read (``time.perf_counter``: ``time.monotonic`` steps by 15.6 ms
    on Windows, and an Enter 40 ms early must not tie), or None for input read only once the
    game waits (lines of key names): a key that would act, read before the prompt or
    question it would answer was said, does nothing."""


@dataclass(frozen=True, slots=True)
class InputEnded:
    """The input stream closed: save the game and stop."""


QueueItem = AnyIntent | KeyPress | InputEnded
"""Anything that can be put on the session's queue."""


@dataclass(frozen=True, slots=True)
class GrammarContext:
    """What an input layer needs to interpret the player now (a voice grammar, say)."""

    view: PlayerView
    """The human's view: hand, legal actions (``view.legal``), phase, trick..."""
    question: str | None
    """The yes/no question waiting for an answer, if any."""
    cursor: Card | None
    """The card under the hand cursor."""
    typed_bid: str
    """Digits of a bid typed but not yet made."""
    marked: tuple[Card, ...]
    """Cards marked for the blind nil exchange."""
    over: bool
    """True once the match is over (only a new game or quitting remain)."""
    shared: bool = False
    """True at a shared table (the chat keys work there)."""


class Inbox:
    """The session's queue: input threads :meth:`put` items, the session thread
    :meth:`take` s them in order. ``waiting`` is set while the session waits for the
    player with nothing queued (a piped input reads its next line then)."""

    def __init__(self) -> None:
        self._queue: queue.Queue[QueueItem] = queue.Queue()
        self._lock = threading.Lock()
        self.waiting = threading.Event()

    def put(self, item: QueueItem) -> None:
        """Queue ``item``. Thread-safe."""
        with self._lock:
            self.waiting.clear()
            self._queue.put(item)

    def wait_for_player(self) -> None:
        """Say the session waits for the player, unless something is queued already."""
        with self._lock:
            if self._queue.empty():
                self.waiting.set()

    def take(self, timeout: float) -> QueueItem | None:
        """The next item, waiting at most ``timeout`` seconds; None if none came."""
        try:
            item = self._queue.get(timeout=timeout) if timeout > 0 else self._queue.get_nowait()
        except queue.Empty:
            return None
        self.waiting.clear()
        return item
