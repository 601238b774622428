"""Ending an utterance at a short pause when what was said is already a whole command.

The microphone's detector waits ~600 ms of quiet before an utterance is over, so
that the pause inside "queen ... of hearts" does not split it. Most commands need
no such wait: :class:`EarlyEnd` decodes the utterance so far after a very short
pause (~100 ms, :attr:`~voice_spades.voice.audio.vad.VadSettings.decode_quiet_seconds`),
on its own thread so the microphone never waits, and ends the utterance when the
pause reaches ~200 ms (:attr:`~voice_spades.voice.audio.vad.VadSettings.early_quiet_seconds`,
or when the decode is done, if later) if the answer is a whole allowed phrase,
that fitted the audio well, that no longer allowed phrase of another meaning begins
with ("queen" waits when "queen of hearts" may be said; "yes" does not wait for
"yes please"). The decode thus runs while the pause goes on.
A grammar holds only whole phrases, so the beginning of one ("exchange the
marked") would be heard as the nearest whole one; a recognizer that can
(:class:`PartialDecoder`) also searches the beginnings, and one that wins keeps
the utterance open. A pause may still be heard as a whole phrase with a little noise
for its last word ("exchange" as "exchange them", "bid" as "bids"): :func:`cut_short`
keeps those open where a longer phrase of another meaning may follow.
Speech that resumes before the utterance ends cancels it (the microphone checks);
a decode under way then runs to its end (the recognizer cannot be interrupted),
and only the newest pause waiting for the thread is decoded after it. The
utterance delivered at a pause is exactly the one decoded there, and so is one
delivered at the full quiet when nothing more was said: :meth:`EarlyEnd.heard`
gives the listener that result instead of a second decode.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from voice_spades.commands import Act, PlayCurrent
from voice_spades.engine import Bid, BlindNilChoice
from voice_spades.voice.recognizers.base import Recognition, Recognizer

_log = logging.getLogger(__name__)

MIN_FIT = 0.8
"""Fit (:attr:`~voice_spades.voice.recognizers.base.Recognition.fit`, or its
``search_fit`` where the recognizer gives one: these bars were measured on it) below
which an utterance is not ended early (it waits for the full quiet). With the fit
that weighs in PocketSphinx's verification of the winner searched alone, right
commands at a pause in the room bench fitted 0.23-0.76 where the search's own fit was
0.81-0.99, and 9 of 32 early ends were lost (median latency 232 -> 530 ms). The fit, not the
confidence: a near tie between two whole phrases ("discard the card", "discard this
card") is not speech that may go on, and waiting does not settle it. On 300 espeak-ng
commands 227 rather than 195 ended early, no outcome changed, and the median latency
went from 321 to 297 ms (300 MBROLA commands: 278 rather than 272, 261 ms as before);
on 240 commands with a pause of 0.25-0.4 s spliced inside, 1 more outcome of 240 got
worse. A lower bar on the confidence (0.6) cut more commands with a pause inside them
(2 more outcomes worse of 248)."""
ASKED_MIN_FIT = 0.4
"""The :data:`MIN_FIT` of a bid or the blind nil decision, which are asked about
("Bid ten?") before they are made. In the room bench bids heard at fits of 0.45-0.76
waited for the full quiet, half a second more; with this bar the median latency there
went from 328 to 232 ms (56% rather than 47% within 300 ms; seed 1: with seed 2 no bid
was heard that loosely, and the scenes came out the same). With a pause inside the
command (347 clips, ``--pause-inside``) bids were understood 72.4 -> 74.1% and no more
wrong ones went unasked, with bid questions off too; 600 commands said whole: 264 ->
262 ms, outcomes unchanged."""
RIVAL_PROBABILITY = 0.1
"""An alternative at least this likely that could go on ("queen" under "queen of
hearts") keeps the utterance open."""

class Pauses(Protocol):
    """Where the pauses come from: a :class:`~voice_spades.voice.audio.microphone.Microphone`."""

    on_pause: Callable[[bytes, int], None] | None

    def still_paused(self, pause: int) -> bool:
        """True while the utterance is still quiet since pause number ``pause``."""
        ...

    def end_early(self, pause: int) -> bool:
        """End the utterance at pause ``pause`` (when long enough); False when too late."""
        ...


@dataclass(frozen=True, slots=True)
class PauseDecode:
    """One utterance decoded at a pause."""

    utterance: bytes
    started: float
    """When the decode began, on the early end's clock."""
    seconds: float
    """How long it took."""

    @property
    def done(self) -> float:
        """When the decode was done, on the early end's clock."""
        return self.started + self.seconds


@runtime_checkable
class PartialDecoder(Protocol):
    """A recognizer that can tell the beginning of a phrase from a whole one."""

    def decode_unless_unfinished(self, audio: bytes) -> Recognition | None:
        """Decode ``audio``; None when it sounds like the beginning of a phrase."""
        ...


def continued(phrase: str, phrases: Sequence[str],
              meanings: Mapping[str, object] | None = None) -> bool:
    """True when some phrase of ``phrases`` is ``phrase`` and more words, and (when
    ``meanings`` tells what phrases mean) means something else: "yes" may end where
    "yes please" may be said, since what follows would change nothing."""
    start = phrase + " "
    if meanings is None or phrase not in meanings:
        return any(other.startswith(start) for other in phrases)
    return any(other.startswith(start) and meanings.get(other) != meanings[phrase]
               for other in phrases)


def cut_short(phrase: str, phrases: Sequence[str],
              meanings: Mapping[str, object] | None = None) -> bool:
    """True when a pause may have cut the player short and a little noise been heard as
    the end of ``phrase``, which then waits for the full quiet:

    * ``phrase`` names the card or cards chosen by key ("exchange them", "play it":
      acted on with no question) and the words before its last also begin a phrase of
      another meaning ("exchange ten of hearts");
    * ``phrase`` is such a beginning and an "s" ("bids" where "bid nine" may be said).

    On 240 espeak-ng commands said with a pause of 0.25-0.4 s inside, "exchange ... ten
    of hearts" ended at the pause as "exchange them" (fit 0.91) and gave the marked cards
    back unasked; with the first rule no wrong action went unasked there. On 347 more
    (manifest ``--pause-inside --seed 600 --count 400``), "bid ... nine" and four more
    bids ended at the pause as the query "bids" (fit 0.95-0.997). With both rules the
    two sets were understood 88.33 -> 90.00% and 85.59 -> 87.03% (89.91% and 92.08%
    without any early end), and on 600 commands said whole the median latency through
    the microphone went from 261 to 264 ms.
    """
    if meanings is None:
        return False
    meaning = meanings.get(phrase)
    words = phrase.split()
    if isinstance(meaning, PlayCurrent) and len(words) >= 2:
        start = " ".join(words[:-1]) + " "
    elif phrase.endswith("s"):
        start = phrase[:-1] + " "
    else:
        return False
    return any(other.startswith(start) and meanings.get(other) != meaning
               for other in phrases)


def is_whole(heard: Recognition, phrases: Sequence[str],
             min_fit: float = MIN_FIT, meanings: Mapping[str, object] | None = None) -> bool:
    """Whether ``heard`` is a command that cannot go on: an allowed phrase heard with
    a fit of at least ``min_fit`` (:data:`ASKED_MIN_FIT` for a bid, when ``meanings``
    tells), which neither it nor a likely alternative
    begins a longer allowed phrase (of another meaning, when ``meanings`` tells)."""
    if heard.text is None or heard.text not in phrases:
        return False
    meaning = meanings.get(heard.text) if meanings is not None else None
    asked = isinstance(meaning, Act) and isinstance(meaning.action, Bid | BlindNilChoice)
    fit = heard.fit if heard.search_fit is None else heard.search_fit
    if fit < (min(min_fit, ASKED_MIN_FIT) if asked else min_fit):
        return False
    likely = [heard.text, *(text for text, probability in heard.alternatives
                            if probability >= RIVAL_PROBABILITY)]
    return not any(continued(text, phrases, meanings) or cut_short(text, phrases, meanings)
                   for text in likely)


class EarlyEnd:
    """Decodes the microphone's pauses and ends utterances that are whole commands.

    ``phrases`` gives the phrases loaded in ``recognizer`` now, and ``meanings``, if
    given, what they mean (see :func:`continued`; speech going on after an early end
    is dropped, so ending at "yes" where "yes please" may follow changes nothing). With
    ``synchronous`` the decode runs on the microphone's thread (a virtual clock that
    does not run on meanwhile); otherwise on a thread of its own, the newest pause
    replacing one not yet started. ``clock`` says when a decode starts, ``timer``
    how long it takes (:attr:`last_decode`; a bench on a virtual clock counts CPU
    time).
    """

    def __init__(self, recognizer: Recognizer, microphone: Pauses,
                 phrases: Callable[[], Sequence[str]], *,
                 meanings: Callable[[], Mapping[str, object]] | None = None,
                 min_fit: float = MIN_FIT, synchronous: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 timer: Callable[[], float] = time.perf_counter) -> None:
        self.recognizer = recognizer
        self.microphone = microphone
        self.phrases = phrases
        self.meanings = meanings
        self.min_fit = min_fit
        self.synchronous = synchronous
        self.clock = clock
        self.timer = timer
        self.offered = 0
        """Pauses decoded."""
        self.ended = 0
        """Utterances ended early (or to be ended when the pause is long enough)."""
        self.last_decode: PauseDecode | None = None
        """The last pause decoded: a virtual clock that stood still while it ran adds
        its ``seconds`` to tell when its utterance could be acted on."""
        self._cond = threading.Condition()
        self._next: tuple[bytes, int] | None = None
        self._busy: bytes | None = None
        self._last: tuple[bytes, tuple[str, ...], Recognition] | None = None
        self._closed = False
        self._thread: threading.Thread | None = None
        microphone.on_pause = self.pause

    def pause(self, utterance: bytes, number: int) -> None:
        """The microphone paused after ``utterance`` (its ``on_pause``)."""
        if self.synchronous:
            self._consider(utterance, number)
            return
        with self._cond:
            if self._closed:
                return
            self._next = (utterance, number)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="early-end",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def heard(self, utterance: bytes) -> Recognition | None:
        """What was decoded from exactly ``utterance`` at its pause, with the phrases
        loaded now (waiting for a decode under way); None when it was not."""
        with self._cond:
            if self._next is not None and self._next[0] == utterance:
                self._next = None  # not started: the caller decodes it
                return None
            self._cond.wait_for(lambda: self._busy != utterance)
            last = self._last
        if last is not None and last[0] == utterance and last[1] == tuple(self.phrases()):
            return last[2]
        return None

    def close(self) -> None:
        """Stop the thread (pauses are ignored from now on)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        if self.microphone.on_pause == self.pause:
            self.microphone.on_pause = None

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or self._next is not None)
                if self._closed:
                    return
                assert self._next is not None
                (utterance, number), self._next = self._next, None
            if not self.microphone.still_paused(number):
                continue  # speech went on, or the utterance ended: no decode needed
            try:
                self._consider(utterance, number)
            except Exception:  # the utterance still ends at the full quiet
                _log.exception("deciding an early end failed")

    def _consider(self, utterance: bytes, number: int) -> None:
        phrases = tuple(self.phrases())
        if not phrases:
            return
        self.offered += 1
        began = self.clock()
        started = self.timer()
        with self._cond:
            self._busy = utterance
        heard: Recognition | None = None
        try:
            if isinstance(self.recognizer, PartialDecoder):
                heard = self.recognizer.decode_unless_unfinished(utterance)
                if heard is None:
                    return
            else:
                heard = self.recognizer.decode(utterance)
        finally:
            self.last_decode = PauseDecode(utterance, began, self.timer() - started)
            with self._cond:
                self._busy = None
                if heard is not None:
                    self._last = (utterance, phrases, heard)
                self._cond.notify_all()
        meanings = self.meanings() if self.meanings is not None else None
        if is_whole(heard, phrases, self.min_fit, meanings) \
                and self.microphone.end_early(number):
            self.ended += 1
