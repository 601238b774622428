"""The bounded utterance queue and its priority rules, shared by the queued speakers."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from enum import Enum

from voice_spades.speech.message import Priority, Utterance

DEFAULT_QUEUE_SIZE = 16


class Admission(Enum):
    """What :meth:`UtteranceQueue.offer` did with an utterance."""

    QUEUED = "queued"
    """Queued behind what is playing."""
    INTERRUPT = "interrupt"
    """Queued alone; the caller must cut the utterance that is playing."""
    DROPPED = "dropped"
    """Not queued (a LOW utterance while busy)."""


class UtteranceQueue:
    """A bounded FIFO of utterances that applies the priority rules.

    Not thread-safe: the speaker that owns it holds its own lock.
    """

    def __init__(self, maxsize: int = DEFAULT_QUEUE_SIZE) -> None:
        if maxsize < 1:
            raise ValueError("the queue must hold at least one utterance")
        self._items: deque[Utterance] = deque()
        self._maxsize = maxsize

    def offer(self, u: Utterance, busy: bool) -> Admission:
        """Apply the priority rules to ``u``; ``busy`` says something is playing now."""
        if u.priority is Priority.HIGH:
            self._items.clear()
            self._items.append(u)
            return Admission.INTERRUPT if busy else Admission.QUEUED
        if u.priority is Priority.LOW and (busy or self._items):
            return Admission.DROPPED
        if len(self._items) >= self._maxsize:
            self._drop_oldest()
        self._items.append(u)
        return Admission.QUEUED

    def _drop_oldest(self) -> None:
        # A HIGH message is the one the player most needs: drop anything else first.
        for index, queued in enumerate(self._items):
            if queued.priority is not Priority.HIGH:
                del self._items[index]
                return
        self._items.popleft()

    def pop(self) -> Utterance | None:
        """The next utterance to speak, or None."""
        return self._items.popleft() if self._items else None

    def remove_tag(self, tag: str) -> int:
        """Drop every queued utterance tagged ``tag``; return how many went."""
        kept = [u for u in self._items if u.tag != tag]
        dropped = len(self._items) - len(kept)
        self._items = deque(kept)
        return dropped

    def clear(self) -> None:
        """Drop everything queued."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Utterance]:
        return iter(list(self._items))
