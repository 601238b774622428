"""Speech through the player's own screen reader (NVDA, JAWS, Orca, Speech Dispatcher),
by prism (PyPI ``prismatoid``, imported as ``prism``), or for Speech Dispatcher by the
game's own client (:mod:`.speechd_client`).

:class:`ScreenReaderSpeaker` implements the :class:`~voice_spades.speech.base.Speaker`
and :class:`~voice_spades.speech.base.Interruptible` protocols over one prism backend
(:class:`ReaderBackend`). A screen reader keeps a queue of its own, and a stop empties
it (NVDA, JAWS) or cuts only the message playing (Speech Dispatcher); so the speaker
keeps the game's queue itself, by :mod:`~voice_spades.speech.queue_policy`, and hands
the reader ONE line at a time. What that guarantees, and what it cannot:

* A key cuts the line being spoken and nothing else: the game events still waiting are
  in our queue, never in the reader's, and an event cut is said again whole after the
  key's answer. A low-priority line never cuts anything (it is dropped when busy).
* "Done" is known exactly only where the backend says when it is speaking (Speech
  Dispatcher through the game's own client, :mod:`.speechd_client`, from the daemon's
  end events; an NVDA whose controller answers isSpeaking, ZDSR, SAPI, OneCore): asked
  every :data:`POLL` s. JAWS and Orca cannot say; a line there is taken as done after
  an estimate of its length at the reader's rate (:mod:`.reader_pacing`), which errs
  long: a short pause may follow a line, but a line is never stacked behind another
  in the reader's queue, where a key could not reach it; a key pressed in that pause
  cuts a line already said whole, which is said again.
* ``spoken`` in the record means handed to the reader and not cut by the game: the
  reader's own keys (Control in NVDA and JAWS) can silence it without the game knowing.
* Every line also goes to the braille display where the backend has braille (its
  ``output`` call speaks and brailles).
* The reader's voice and rate are the player's: voices and seat voices are ignored,
  and the rate is changed only by :meth:`ScreenReaderSpeaker.set_rate` (the faster and
  slower keys), relative to the reader's own rate, where the backend allows it.

Every call into prism is made on the speaker's own thread (a backend must not be used
from two threads at once), so a reader that hangs never blocks the game's threads; a
reader that fails makes :meth:`~ScreenReaderSpeaker.say` raise
:class:`~voice_spades.errors.SetupError` (``speech_choice.reader_lost``), and the
announcer goes on in text.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

from voice_spades.errors import SetupError
from voice_spades.speech.message import Utterance
from voice_spades.speech.queue_policy import DEFAULT_QUEUE_SIZE
from voice_spades.speech.queued_speaker import QueuedSpeaker
from voice_spades.speech.reader_pacing import (
    ASSUMED_WPM,
    GAME_RATE,
    estimated_seconds,
    speechd_fraction,
    speechd_wpm,
)
from voice_spades.speech.record import Outcome

_log = logging.getLogger(__name__)

POLL = 0.02
"""Seconds between two questions to a backend that says when it is speaking."""
START_GRACE = 0.6
"""Seconds a backend that says when it speaks may take to start; a line it never
reports speaking is taken as done after that."""
HOLD = 2.0
"""Seconds the speaker keeps quiet after :meth:`ScreenReaderSpeaker.interrupt`, waiting
for the key's answer (any new line ends the wait)."""
STOP_WAIT = 0.5
"""Seconds :meth:`~ScreenReaderSpeaker.interrupt` and ``stop`` wait for the reader to
be told to stop."""
class ReaderBackend(Protocol):
    """The part of a ``prism.Backend`` the speaker uses (tests fake it for the Windows and
    macOS readers, which cannot run here)."""

    @property
    def name(self) -> str:
        """The backend's name, as prism says it."""
        ...

    @property
    def features(self) -> Any:
        """A ``prism.BackendFeatures``."""
        ...

    @property
    def speaking(self) -> bool:
        """True while the reader speaks (only where ``supports_is_speaking``)."""
        ...

    rate: float
    """0 (slowest) to 1 (fastest), where ``supports_get_rate``/``supports_set_rate``."""

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Speak ``text`` (queued behind the reader's own speech)."""
        ...

    def output(self, text: str, interrupt: bool = False) -> None:
        """Speak and braille ``text``."""
        ...

    def stop(self) -> None:
        """Stop speaking."""
        ...


@dataclass(frozen=True, slots=True)
class Abilities:
    """What a backend can do, read once from its features."""

    speaking: bool
    braille: bool
    stop: bool
    get_rate: bool
    set_rate: bool

    @classmethod
    def of(cls, backend: ReaderBackend) -> Abilities:
        """Read ``backend.features``."""
        f = backend.features
        return cls(speaking=bool(f.supports_is_speaking),
                   braille=bool(f.supports_braille and f.supports_output),
                   stop=bool(f.supports_stop), get_rate=bool(f.supports_get_rate),
                   set_rate=bool(f.supports_set_rate))


class ScreenReaderSpeaker(QueuedSpeaker):
    """Speaks through a screen reader; see the module documentation for what it keeps
    of the :class:`~voice_spades.speech.base.Speaker` semantics. ``reader`` is the
    name the player knows ("NVDA"); ``backend`` an initialized prism backend;
    ``reads_console`` whether the reader reads new console text by itself."""

    def __init__(self, backend: ReaderBackend, reader: str, *,
                 queue_size: int = DEFAULT_QUEUE_SIZE, reads_console: bool = False) -> None:
        super().__init__(queue_size)
        self.reader = reader
        self.reads_console = reads_console
        """True when the reader also reads new console text by itself (NVDA, JAWS,
        Orca): the lines it speaks must not be printed too."""
        self._backend = backend
        self._can = Abilities.of(backend)
        self._base_fraction = self._read_rate()
        self._wpm = (speechd_wpm(self._base_fraction)
                     if self._base_fraction is not None else float(ASSUMED_WPM))
        self._started = 0.0
        self._next_poll = 0.0
        self._done_at = 0.0
        self._seen_speaking = False
        self._stop_pending = False
        self._new_fraction: float | None = None
        self._speaking = False
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="ScreenReaderSpeaker")
        self._thread.start()

    # --- the Speaker protocol -------------------------------------------------

    def interrupt(self) -> None:
        """A key was pressed: cut the line being spoken, keep the queue (an event cut is
        said again after the answer), and wait at most :data:`HOLD` seconds for the
        key's answer. Returns once the reader was told to stop."""
        with self._cond:
            self._hold_until = time.monotonic() + HOLD
            self._cut_current(Outcome.CUT, Outcome.INTERRUPTED)
            self._wait_stopped()

    def stop(self) -> None:
        """The player skips: drop the queue and cut the line being spoken."""
        with self._cond:
            self._queue.clear(Outcome.SKIPPED)
            self._report_removed()
            self._cut_current(Outcome.SKIPPED, Outcome.SKIPPED)
            self._hold_until = 0.0
            self._wait_stopped()

    def set_rate(self, words_per_minute: int) -> None:
        """Speak faster or slower than the reader's own rate (which stands for
        :data:`GAME_RATE`), where the backend allows it; else nothing changes."""
        if not self._can.set_rate or self._base_fraction is None:
            return
        start_wpm = speechd_wpm(self._base_fraction)
        wanted = start_wpm * max(1, words_per_minute) / GAME_RATE
        with self._cond:
            self._new_fraction = speechd_fraction(wanted)
            self._wpm = speechd_wpm(self._new_fraction)
            self._cond.notify_all()

    def set_voice(self, voice_id: str | None) -> None:
        """Ignored: the reader's voice is the player's."""

    def set_seat_voice(self, seat: int, voice_id: str | None, pitch: int | None) -> None:
        """Ignored: the reader has one voice."""

    def list_voices(self) -> list[tuple[str, str]]:
        """None: the voice is chosen in the screen reader."""
        return []

    def close(self) -> None:
        """Forget the queue and end the thread; the line with the reader is let finish
        (a backend with a connection of its own, Speech Dispatcher's, closes it: the
        daemon finishes the line)."""
        with self._cond:
            self._closed = True
            self._queue.clear(Outcome.SKIPPED)
            self._report_removed()
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)
        close = getattr(self._backend, "close", None)  # a connection of the game's own
        if callable(close) and not self._thread.is_alive():
            try:
                close()
            except Exception:  # closing must not fail the game
                _log.info("closing the reader's connection failed", exc_info=True)

    # --- internals (callers hold self._cond unless said) --------------------------------

    def _read_rate(self) -> float | None:
        if not self._can.get_rate:
            return None
        try:
            return float(self._backend.rate)
        except Exception:  # a reader that cannot say its rate: assume one
            return None

    def _stop_current(self) -> None:
        self._stop_pending = True
        self._cond.notify_all()

    def _wait_stopped(self) -> None:
        self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._cond.wait_for(lambda: not self._stop_pending or self._closed, STOP_WAIT)

    def _next_step(self) -> tuple[str, Utterance | None, float | None]:
        """Wait for something to do: ("stop"|"rate"|"speak"|"poll"|"quiet"|"end")."""
        while True:
            now = time.monotonic()
            if self._closed:
                return "end", None, None
            if self._stop_pending:
                return "stop", None, None
            if self._new_fraction is not None:
                fraction, self._new_fraction = self._new_fraction, None
                return "rate", None, fraction
            if self._current is not None:
                due = min(self._next_poll, self._done_at)
                if now >= due:
                    return "poll", self._current, None
                self._cond.wait(due - now)
                continue
            if self._queue and now >= self._hold_until:
                u = self._queue.pop()
                assert u is not None
                self._current = u
                self._cut = None
                self._started = now
                self._seen_speaking = False
                limit = estimated_seconds(u.text, self._wpm)
                self._done_at = now + (limit * 2 + 3 if self._can.speaking else limit)
                self._next_poll = now + POLL if self._can.speaking else self._done_at
                return "speak", u, None
            if self._speaking and not self._queue:
                return "quiet", None, None
            self._cond.wait(self._hold_until - now if self._queue else None)

    def _run(self) -> None:
        while True:
            with self._cond:
                step, u, fraction = self._next_step()
                if step == "quiet":
                    self._speaking = False
                started = step == "speak" and not self._speaking
                if step == "speak":
                    self._speaking = True
            if step == "end":
                if self._speaking:
                    self._speaking = False
                    self._notify(False)
                return
            try:
                self._do(step, u, fraction, started)
            except Exception as error:  # the reader went away: say so once, go on in text
                _log.info("screen reader failed: %r", error)
                self._fail()

    def _do(self, step: str, u: Utterance | None, fraction: float | None,
            started: bool) -> None:
        """Carry out one step, with no lock held (prism calls may take a while)."""
        if step == "quiet":
            self._notify(False)
        elif step == "stop":
            if self._can.stop:
                self._backend.stop()
            with self._cond:
                self._stop_pending = False
                self._current = None
                self._cond.notify_all()
        elif step == "rate" and fraction is not None:
            self._backend.rate = fraction
        elif step == "speak" and u is not None:
            if started:
                self._notify(True)
            if self._can.braille:
                self._backend.output(u.text, False)
            else:
                self._backend.speak(u.text, False)
        elif step == "poll" and u is not None:
            self._poll(u)

    def _poll(self, u: Utterance) -> None:
        now = time.monotonic()
        done = now >= self._done_at
        if not done and self._can.speaking:
            speaking = bool(self._backend.speaking)
            with self._cond:
                self._seen_speaking = self._seen_speaking or speaking
                done = (not speaking and
                        (self._seen_speaking or now - self._started >= START_GRACE))
                self._next_poll = now + POLL
        if not done:
            return
        with self._cond:
            if self._current is u and self._cut is None:
                self._report(u, Outcome.SPOKEN)
                self._current = None
                self._cond.notify_all()

    def _fail(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._error = SetupError("speech_choice.reader_lost", reader=self.reader)
            if self._current is not None and self._cut is None:
                self._report(self._current, Outcome.FAILED)
            self._current = None
            self._stop_pending = False
            self._queue.clear(Outcome.FAILED)
            self._report_removed()
            self._closed = True
            self._cond.notify_all()
