"""What became of each line said: spoken whole, cut and said again, skipped by the player...

The speakers report an :class:`Outcome` for every utterance they let go of; the
:class:`SpeechRecord` keeps one :class:`Said` entry per printed line with its latest
outcome, so history can tell a line that was heard from one the player skipped, and
a test can prove that no game event went unheard.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from voice_spades.narration.lines import LineKind
from voice_spades.speech.message import Utterance


class Outcome(Enum):
    """What a speaker did with one utterance."""

    PENDING = "pending"
    """Queued or playing: not settled yet."""
    SPOKEN = "spoken"
    """Played to the end."""
    CUT = "cut"
    """Stopped mid-sentence by an answer; queued again, to be said whole after it."""
    INTERRUPTED = "interrupted"
    """An answer or prompt stopped mid-sentence by a key; not said again."""
    REPLACED = "replaced"
    """An answer or prompt never started: a newer one took its place."""
    SKIPPED = "skipped"
    """Dropped because the player silenced speech (or quit): the player's choice."""
    FOLDED = "folded"
    """A card play dropped because its trick is over: the trick's summary names it."""
    DROPPED = "dropped"
    """A low-priority line not said because the speaker was busy, or an answer pushed
    out of a full queue."""
    FAILED = "failed"
    """Could not be synthesized or played (the speaker failed)."""
    PRINTED = "printed"
    """Printed only: there is no speaker."""


OutcomeCallback = Callable[[Utterance, Outcome], None]
"""Called with an utterance and what became of it (any thread; it must not block)."""


@dataclass(slots=True)
class Said:
    """One printed line and what became of it in speech."""

    text: str
    kind: LineKind
    outcome: Outcome
    cuts: int = 0
    """How many times it was cut by an answer and queued again."""


class SpeechRecord:
    """The last ``size`` lines printed, each with its latest :class:`Outcome`. Thread-safe."""

    def __init__(self, size: int = 500) -> None:
        self._entries: deque[tuple[Utterance, Said]] = deque(maxlen=size)
        self._by_utterance: dict[int, Said] = {}
        self._lock = threading.Lock()

    def add(self, u: Utterance, outcome: Outcome) -> None:
        """Note that ``u`` was printed, with its first outcome."""
        with self._lock:
            if len(self._entries) == self._entries.maxlen:
                old, _ = self._entries[0]
                self._by_utterance.pop(id(old), None)
            said = Said(u.text, u.kind, outcome)
            self._entries.append((u, said))  # holding ``u`` keeps its id unique
            self._by_utterance[id(u)] = said

    def settle(self, u: Utterance, outcome: Outcome) -> None:
        """Note what became of ``u`` (ignored for an utterance not recorded here)."""
        with self._lock:
            said = self._by_utterance.get(id(u))
            if said is None:
                return
            if outcome is Outcome.CUT:
                said.cuts += 1
            said.outcome = outcome

    def entries(self, n: int | None = None) -> list[Said]:
        """Copies of the last ``n`` entries (all if None), oldest first."""
        with self._lock:
            items = [Said(s.text, s.kind, s.outcome, s.cuts) for _, s in self._entries]
        if n is None:
            return items
        return items[len(items) - n:] if 0 < n < len(items) else items if n > 0 else []

    def texts(self) -> list[str]:
        """Every recorded line's text, oldest first."""
        with self._lock:
            return [s.text for _, s in self._entries]
