"""The queue that the game's own voice and the screen-reader speaker share.

:class:`QueuedSpeaker` keeps the lines waiting to be said by the rules of
:mod:`~voice_spades.speech.queue_policy`, the line being said, and the callbacks
told of each line's fate; a subclass runs the thread that says the lines and says
how a line being said is stopped (:meth:`QueuedSpeaker._stop_current`).
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod

from voice_spades.errors import SetupError
from voice_spades.narration.lines import LineKind
from voice_spades.speech.base import SpeakingCallback
from voice_spades.speech.message import Utterance
from voice_spades.speech.queue_policy import Admission, UtteranceQueue
from voice_spades.speech.record import Outcome, OutcomeCallback

_log = logging.getLogger(__name__)


class QueuedSpeaker(ABC):
    """Lines queued by the queue's rules, one said at a time (see the module text).

    Subclasses hold ``self._cond`` while they touch the queue or ``self._current``,
    set ``self._current`` to the line being said and back to None when it is settled,
    and clear ``self._cut`` when the next line starts.
    """

    def __init__(self, queue_size: int) -> None:
        self._cond = threading.Condition()
        self._queue = UtteranceQueue(queue_size)
        self._current: Utterance | None = None
        self._cut: Outcome | None = None
        self._hold_until = 0.0
        self._error: SetupError | None = None
        self._closed = False
        self._callbacks: list[SpeakingCallback] = []
        self._outcomes: list[OutcomeCallback] = []

    @abstractmethod
    def _stop_current(self) -> None:
        """Stop the line being said now (caller holds ``self._cond``)."""

    def say(self, u: Utterance) -> None:
        """Queue ``u`` by the queue's rules (:mod:`~voice_spades.speech.queue_policy`);
        raise SetupError if this speaker has failed or is closed."""
        if not u.text.strip():
            return
        with self._cond:
            self._check()
            if self._queue.offer(u, busy=self._current is not None) is Admission.INTERRUPT:
                self._cut_current(Outcome.CUT, Outcome.INTERRUPTED)
            self._hold_until = 0.0
            self._report_removed()
            self._cond.notify_all()

    def cancel(self, tag: str) -> None:
        """Drop queued lines tagged ``tag`` and cut the line being said if it has it
        (stale card plays: the trick's summary names them)."""
        with self._cond:
            self._queue.remove_tag(tag, Outcome.FOLDED)
            self._report_removed()
            if self._current is not None and self._current.tag == tag:
                self._cut_current(Outcome.FOLDED, Outcome.FOLDED)

    def is_speaking(self) -> bool:
        """True while a line is being said or waits in the queue."""
        with self._cond:
            return self._current is not None or len(self._queue) > 0

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing is being said or queued (or the speaker is closed); False
        on timeout."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._closed or (self._current is None and not self._queue), timeout)

    def on_speaking_changed(self, callback: SpeakingCallback) -> None:
        """Call ``callback(True)`` when speech starts and ``callback(False)`` when all is
        said (from the speaker's thread; it must not block)."""
        self._callbacks.append(callback)

    def on_outcome(self, callback: OutcomeCallback) -> None:
        """Call ``callback(utterance, outcome)`` whenever a line is settled: said whole,
        cut, replaced, skipped... (with the speaker's lock held, so in order: it must be
        quick and must not call the speaker)."""
        self._outcomes.append(callback)

    # --- for subclasses (callers hold self._cond) ----------------------------------------

    def _check(self) -> None:
        if self._error is not None:
            raise SetupError(self._error.message_id, **self._error.fields)
        if self._closed:
            raise SetupError("speech.closed")

    def _cut_current(self, event: Outcome, other: Outcome) -> None:
        """Cut the line being said: a game event's outcome is ``event`` (CUT puts it
        back in the queue, to be said whole again), anything else's ``other``."""
        u = self._current
        if u is None or self._cut is not None:
            return
        outcome = event if u.kind is LineKind.EVENT else other
        if outcome is Outcome.CUT:
            self._queue.requeue(u)
        self._cut = outcome
        self._report(u, outcome)
        self._stop_current()

    def _report(self, u: Utterance, outcome: Outcome) -> None:
        for callback in self._outcomes:
            try:
                callback(u, outcome)
            except Exception:
                _log.exception("outcome callback failed")

    def _report_removed(self) -> None:
        for u, outcome in self._queue.take_removed():
            self._report(u, outcome)

    def _notify(self, speaking: bool) -> None:
        for callback in self._callbacks:
            try:
                callback(speaking)
            except Exception:
                _log.exception("speaking-changed callback failed")
