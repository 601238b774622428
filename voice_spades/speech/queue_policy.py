"""The utterance queue and its rules, shared by the queued speakers.

The queue holds the answers to the player first, then the game's own flow (events
and prompts) in the order it happened:

* a ``HIGH`` utterance (an answer to a key) goes first and cuts what is playing; it
  replaces the answers not yet spoken, never the game's events;
* a ``NORMAL`` answer waits behind the answers already queued, ahead of the flow;
* a ``NORMAL`` event or prompt waits its turn at the end; a prompt not yet spoken is
  stale once a newer prompt or event comes (the player acted: the game moved on), and
  goes;
* a ``LOW`` utterance (chat) waits until nothing else is playing or queued, then is
  said: it never cuts anything, and anything but another ``LOW`` goes before it; at
  most :data:`LOW_WAITING` wait, and past that the oldest waiting one goes unsaid (its
  line is printed and in the history all the same);
* an event cut by an answer goes back in front of the flow, to be said whole again
  (whole, because a sentence resumed mid-word is not understood);
* the bound counts answers and prompts only: game events are never pushed out.

Every utterance the queue lets go of without it being spoken is kept in
:meth:`UtteranceQueue.take_removed` with the reason, for the speaker to report.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from enum import Enum

from voice_spades.narration.lines import LineKind
from voice_spades.speech.message import Priority, Utterance
from voice_spades.speech.record import Outcome

DEFAULT_QUEUE_SIZE = 16
LOW_WAITING = 8
"""LOW utterances kept waiting for a quiet moment: a table's chat is at most five
messages in ten seconds per player, so eight is a busy table's worth while a trick and
its result are said; older ones are dropped (``Outcome.DROPPED``), newest kept."""


class Admission(Enum):
    """What :meth:`UtteranceQueue.offer` did with an utterance."""

    QUEUED = "queued"
    """Queued behind what is playing."""
    INTERRUPT = "interrupt"
    """Queued first; the caller must cut the utterance that is playing."""
    DROPPED = "dropped"
    """Not queued."""
    WAITING = "waiting"
    """A LOW utterance, kept until nothing else is playing or queued."""


def is_flow(u: Utterance) -> bool:
    """True for the game's own flow (events and prompts), which keeps its order."""
    return u.kind is not LineKind.ANSWER


class UtteranceQueue:
    """A FIFO of utterances that applies the rules above.

    Not thread-safe: the speaker that owns it holds its own lock.
    """

    def __init__(self, maxsize: int = DEFAULT_QUEUE_SIZE) -> None:
        if maxsize < 1:
            raise ValueError("the queue must hold at least one utterance")
        self._items: deque[Utterance] = deque()
        self._low: deque[Utterance] = deque()
        """LOW utterances waiting for quiet, oldest first."""
        self._maxsize = maxsize
        self._removed: list[tuple[Utterance, Outcome]] = []

    def offer(self, u: Utterance, busy: bool) -> Admission:
        """Apply the rules to ``u``; ``busy`` says something is playing now."""
        if u.priority is Priority.HIGH:
            self._remove(lambda q: q.kind is LineKind.ANSWER, Outcome.REPLACED)
            self._items.appendleft(u)
            self._bound()
            return Admission.INTERRUPT if busy else Admission.QUEUED
        if u.priority is Priority.LOW and (busy or self._items or self._low):
            self._low.append(u)
            while len(self._low) > LOW_WAITING:
                self._removed.append((self._low.popleft(), Outcome.DROPPED))
            return Admission.WAITING
        if is_flow(u):
            self._remove(lambda q: q.kind is LineKind.PROMPT, Outcome.REPLACED)
        if is_flow(u):
            self._items.append(u)
        else:
            self._items.insert(self._flow_start(), u)
        self._bound()
        return Admission.QUEUED

    def requeue(self, u: Utterance) -> None:
        """Put ``u``, cut by an answer, back in front of the flow (behind the answers)."""
        self._items.insert(self._flow_start(), u)

    def discard(self, u: Utterance) -> bool:
        """Take ``u`` (this very utterance) out of the queue; False if it was not in it."""
        for index, queued in enumerate(self._items):
            if queued is u:
                del self._items[index]
                return True
        return False

    def _flow_start(self) -> int:
        return next((i for i, q in enumerate(self._items) if is_flow(q)), len(self._items))

    def _bound(self) -> None:
        # Answers and prompts count and make room, oldest first, never a HIGH one;
        # events neither count nor go (the bots' pace bounds them).
        while sum(q.kind is not LineKind.EVENT for q in self._items) > self._maxsize:
            index = next((i for i, q in enumerate(self._items)
                          if q.kind is not LineKind.EVENT and q.priority is not Priority.HIGH),
                         None)
            if index is None:
                return
            self._removed.append((self._items[index], Outcome.DROPPED))
            del self._items[index]

    def _remove(self, which: Callable[[Utterance], bool], outcome: Outcome) -> list[Utterance]:
        gone = [q for q in self._items if which(q)]
        if gone:
            self._items = deque(q for q in self._items if not which(q))
            self._removed.extend((q, outcome) for q in gone)
        return gone

    def pop(self) -> Utterance | None:
        """The next utterance to speak (a waiting LOW one once nothing else is
        queued), or None."""
        if self._items:
            return self._items.popleft()
        return self._low.popleft() if self._low else None

    def head(self) -> Utterance | None:
        """The next utterance to speak, left in the queue; None if empty."""
        if self._items:
            return self._items[0]
        return self._low[0] if self._low else None

    def remove_tag(self, tag: str, outcome: Outcome = Outcome.FOLDED) -> int:
        """Drop every queued utterance tagged ``tag``; return how many went."""
        return len(self._remove(lambda q: q.tag == tag, outcome))

    def clear(self, outcome: Outcome = Outcome.SKIPPED) -> None:
        """Drop everything queued, the waiting LOW utterances too."""
        self._remove(lambda q: True, outcome)
        self._removed.extend((q, outcome) for q in self._low)
        self._low.clear()

    def take_removed(self) -> list[tuple[Utterance, Outcome]]:
        """The utterances let go of since the last call, and why."""
        removed, self._removed = self._removed, []
        return removed

    def __len__(self) -> int:
        return len(self._items) + len(self._low)

    def __iter__(self) -> Iterator[Utterance]:
        return iter([*self._items, *self._low])
