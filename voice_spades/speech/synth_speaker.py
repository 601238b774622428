"""The machinery shared by the speakers that synthesize with pyttsx3.

:class:`SynthSpeaker` owns the queue and one thread that takes utterances off it,
synthesizes each in the worker process (:class:`~voice_spades.speech.synth.SynthClient`)
and hands the WAV file to the subclass (to play it, or to keep it).
"""

from __future__ import annotations

import itertools
import logging
import re
import tempfile
import threading
import time
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path

from voice_spades.errors import InvalidInputError, SetupError
from voice_spades.speech.message import Utterance
from voice_spades.speech.queue_policy import DEFAULT_QUEUE_SIZE
from voice_spades.speech.queued_speaker import QueuedSpeaker
from voice_spades.speech.record import Outcome
from voice_spades.speech.synth import SynthClient, SynthesisError

_log = logging.getLogger(__name__)

DEFAULT_RATE = 200
MIN_RATE, MAX_RATE = 80, 500
DEFAULT_PITCH = 50
STOP_WAIT = 0.5
"""Seconds :meth:`SynthSpeaker.stop` waits for the sound to end before it returns."""
HOLD = 2.0
"""Seconds the speaker keeps quiet after :meth:`SynthSpeaker.interrupt`, waiting for the
key's answer (any new utterance ends the wait), before it goes on with the queue."""

FinishedCallback = Callable[[Utterance, bool], None]
"""Called with each utterance taken off the queue and whether it was delivered whole."""

_VARIANT = re.compile(r"\+[A-Za-z0-9_]+\Z")


class SynthSpeaker(QueuedSpeaker):
    """A queued speaker that synthesizes with pyttsx3 in a worker process.

    Implements the :class:`~voice_spades.speech.base.Speaker` and
    :class:`~voice_spades.speech.base.Interruptible` protocols; subclasses say what to
    do with each synthesized WAV file in :meth:`_deliver`. ``synth`` replaces the
    worker process (tests).
    """

    def __init__(self, rate: int | None = None, voice: str | None = None, *,
                 queue_size: int = DEFAULT_QUEUE_SIZE, synth: SynthClient | None = None) -> None:
        super().__init__(queue_size)
        self._synth = synth if synth is not None else SynthClient()
        self._cancel = threading.Event()
        self._speaking = False
        self._finished: list[FinishedCallback] = []
        self._rate = DEFAULT_RATE
        self._voice: str | None = None
        self._seat_voices: dict[int, tuple[str | None, int | None]] = {}
        self._voices: list[tuple[str, str]] | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="voice-spades-speech-",
                                                ignore_cleanup_errors=True)
        self._numbers = itertools.count(1)
        try:
            self._synth.start()
            if rate is not None:
                self.set_rate(rate)
            if voice is not None:
                self.set_voice(voice)
        except BaseException:
            self._synth.close()
            self._tmp.cleanup()
            raise
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"{type(self).__name__}-queue")
        self._thread.start()

    # --- what subclasses do -------------------------------------------------

    @abstractmethod
    def _deliver(self, u: Utterance, wav: Path, cancel: threading.Event) -> bool:
        """Do something with ``wav``, the synthesized ``u``; stop early once ``cancel`` is set.

        Returns True if delivered whole. Raises SetupError if the output failed for good.
        """

    def _abort_delivery(self) -> None:
        """Cut a delivery in progress at once (called from the caller's thread)."""

    def _wav_path(self, number: int, u: Utterance) -> Path:
        """Where utterance number ``number`` is synthesized to."""
        return Path(self._tmp.name) / f"{number}.wav"

    # --- the Speaker protocol ---------------------------------------------------

    def interrupt(self) -> None:
        """A key was pressed: cut the sentence now, keep what is queued, and wait (at most
        :data:`HOLD` seconds) for the key's answer. A game event cut goes back in the
        queue, to be said whole again after the answer; an answer or prompt cut is not
        said again. Returns once the sound has stopped."""
        with self._cond:
            self._hold_until = time.monotonic() + HOLD
            self._cut_current(Outcome.CUT, Outcome.INTERRUPTED)
            self._cond.notify_all()
            if threading.current_thread() is not self._thread:
                self._cond.wait_for(lambda: self._current is None, STOP_WAIT)

    def stop(self) -> None:
        """Fall silent and clear the queue (the player chose to skip it); returns once the
        sound has stopped."""
        with self._cond:
            self._queue.clear(Outcome.SKIPPED)
            self._report_removed()
            self._cut_current(Outcome.SKIPPED, Outcome.SKIPPED)
            self._hold_until = 0.0
            self._cond.notify_all()
            if threading.current_thread() is not self._thread:
                self._cond.wait_for(lambda: self._current is None, STOP_WAIT)

    def set_rate(self, words_per_minute: int) -> None:
        """Set the rate (clamped to 80-500 words a minute) for utterances from now on."""
        self._rate = max(MIN_RATE, min(MAX_RATE, int(words_per_minute)))

    def set_voice(self, voice_id: str | None) -> None:
        """Set the default voice by id or name; raise InvalidInputError if there is none."""
        self._voice = None if voice_id is None else self._resolve_voice(voice_id)

    def set_seat_voice(self, seat: int, voice_id: str | None, pitch: int | None) -> None:
        """Give ``seat`` its own voice and/or pitch (0-99); None keeps the default."""
        voice = None if voice_id is None else self._resolve_voice(voice_id)
        if pitch is not None:
            pitch = max(0, min(99, int(pitch)))
        self._seat_voices[seat] = (voice, pitch)

    def list_voices(self) -> list[tuple[str, str]]:
        """The installed voices as ``(id, name)`` pairs."""
        if self._voices is None:
            try:
                self._voices = self._synth.voices()
            except SynthesisError as error:
                _log.info("could not list voices: %s", error)
                return []
        return list(self._voices)

    def on_finished(self, callback: FinishedCallback) -> None:
        """Call ``callback(utterance, whole)`` after each utterance taken off the queue."""
        self._finished.append(callback)

    @property
    def error(self) -> SetupError | None:
        """Why this speaker stopped working, if it did."""
        return self._error

    def close(self) -> None:
        """Stop, end the thread and the worker process, and remove temporary files."""
        with self._cond:
            self._closed = True
            self._queue.clear(Outcome.SKIPPED)
            self._report_removed()
            self._cut_current(Outcome.SKIPPED, Outcome.SKIPPED)
            self._cond.notify_all()
        self._synth.close()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)
        self._tmp.cleanup()

    # --- internals ------------------------------------------------------------------

    def _resolve_voice(self, voice_id: str) -> str:
        wanted = voice_id.strip()
        variant = _VARIANT.search(wanted)
        base = wanted[:variant.start()] if variant else wanted
        for ident, name in self.list_voices():
            if base.lower() in (ident.lower(), name.lower(), ident.lower().rsplit("/", 1)[-1]):
                return ident + (variant.group() if variant else "")
        raise InvalidInputError("speech.no_voice", voice=voice_id)

    def _stop_current(self) -> None:
        self._cancel.set()
        self._abort_delivery()

    def _held(self) -> bool:
        return time.monotonic() < self._hold_until

    def _take_next(self) -> Utterance | None:
        """Wait for the next utterance (caller holds self._cond); None once closed."""
        while not self._closed:
            if self._queue and not self._held():
                return self._queue.pop()
            if not self._queue and self._speaking:
                return None  # gone quiet (a skip emptied the queue): the run loop says so
            wait = self._hold_until - time.monotonic() if self._queue else None
            self._cond.wait(wait)
        return None

    def _settings_for(self, u: Utterance) -> tuple[str | None, int]:
        voice, pitch = self._seat_voices.get(u.seat, (None, None)) if u.seat is not None \
            else (None, None)
        return voice or self._voice, DEFAULT_PITCH if pitch is None else pitch

    def _run(self) -> None:
        while True:
            with self._cond:
                went_quiet = self._speaking and (self._closed or not self._queue)
                if went_quiet:
                    self._speaking = False
                    self._cond.notify_all()
            if went_quiet:
                self._notify(False)
            with self._cond:
                u = self._take_next()
                if u is None:
                    if self._speaking:
                        continue  # back to the top, to tell the callbacks it went quiet
                    return
                self._current = u
                self._cut = None
                self._cancel = cancel = threading.Event()
                started = not self._speaking
                self._speaking = True
            if started:
                self._notify(True)
            whole = False
            try:
                whole = self._speak(u, cancel)
            except SetupError as error:
                _log.info("speech output failed: %s", error)
                with self._cond:
                    if not self._closed:
                        self._error = error
                    self._queue.clear(Outcome.FAILED)
                    self._report_removed()
            except Exception:  # one bad utterance must not end speech for the game
                _log.exception("could not speak %r", u.text)
            finally:
                with self._cond:
                    self._settle(u, whole)
                    self._current = None
                    self._cond.notify_all()
            for finished in self._finished:
                finished(u, whole)

    def _settle(self, u: Utterance, whole: bool) -> None:
        """Report what became of ``u`` once its delivery ended (caller holds self._cond)."""
        if whole:
            if self._cut is Outcome.CUT:
                self._queue.discard(u)  # the cut came as the last sample played
            self._report(u, Outcome.SPOKEN)
        elif self._cut is None:
            self._report(u, Outcome.FAILED)

    def _speak(self, u: Utterance, cancel: threading.Event) -> bool:
        voice, pitch = self._settings_for(u)
        path = self._wav_path(next(self._numbers), u)
        try:
            self._synth.synth(u.text, path, self._rate, voice, pitch)
        except SynthesisError as error:
            _log.info("could not synthesize %r: %s", u.text, error)
            return False
        if cancel.is_set():
            path.unlink(missing_ok=True)
            return False
        return self._deliver(u, path, cancel)
