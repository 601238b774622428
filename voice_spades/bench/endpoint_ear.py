"""The microphone path of ``bench voice --through-microphone`` on a virtual clock.

An :class:`Ear` feeds a clip to a :class:`~voice_spades.voice.audio.microphone.Microphone`
one frame at a time and models the early end's thread on the same clock, so that
each decision gets the time it would be made in the game (see
:mod:`voice_spades.bench.voice_endpoint`).
"""

from __future__ import annotations

from collections.abc import Callable

from voice_spades.bench.decode_time import decode_clock
from voice_spades.bench.voice import Outcome
from voice_spades.voice.audio.microphone import Microphone
from voice_spades.voice.audio.vad import SAMPLE_RATE, VadSettings
from voice_spades.voice.early_end import EarlyEnd
from voice_spades.voice.recognizers.base import Recognizer
from voice_spades.voice.understanding.grammar import PhraseTable

_FRAME = VadSettings().frame_bytes


class DeferredPauses:
    """The microphone as the early end's thread sees it: its call to end an utterance
    is noted, to be made when its decode would be done (see :class:`Ear`)."""

    def __init__(self, microphone: Microphone) -> None:
        self.microphone = microphone
        self.on_pause: Callable[[bytes, int], None] | None = None
        self.asked: list[int] = []

    def still_paused(self, pause: int) -> bool:
        """True while the utterance is still quiet since pause number ``pause``."""
        return self.microphone.still_paused(pause)

    def end_early(self, pause: int) -> bool:
        """Note the call (see :attr:`asked`); the microphone is asked later."""
        self.asked.append(pause)
        return True


class Ear:
    """One path: a microphone on a virtual clock, with or without the early end.

    The early end's thread is modelled: a pause waits until the thread is free (the
    newest replacing one not started, and dropped if speech resumed meanwhile); its
    decode runs with the clock stopped and takes its decoding time of virtual time, after
    which it may end the utterance (when the pause is long enough). The listener's
    own decode waits for a decode under way (one recognizer, one lock). A decode's
    time is that of :func:`~voice_spades.bench.decode_time.decode_clock`."""

    def __init__(self, recognizer: Recognizer, table: PhraseTable,
                 judge: Callable[[bytes], Outcome], early: bool,
                 vad: VadSettings | None = None) -> None:
        self.now = 0.0
        self.judge = judge
        self._spent = decode_clock(recognizer)
        """Seconds of decoding so far, as the bench counts them."""
        self.microphone = Microphone(clock=lambda: self.now, vad=vad)
        self.microphone.on_utterance = self._utterance
        self.early_end: EarlyEnd | None = None
        self._deferred = DeferredPauses(self.microphone)
        if early:
            self.early_end = EarlyEnd(recognizer, self._deferred, lambda: table.phrases,
                                      meanings=lambda: table.meanings,
                                      synchronous=True, clock=lambda: self.now)
            self.microphone.on_pause = self._pause
        self.decided: list[tuple[float, Outcome, bool, float]] = []
        """When each decision was made, what it was, whether it was ended early, and how
        long it waited for the decode of a pause after which speech went on."""
        self._free_at = 0.0
        """When the early end's thread is free (virtual)."""
        self._waiting: tuple[bytes, int, float] | None = None
        self._ends: list[tuple[float, int, bytes]] = []
        """Calls to end an utterance early: when due, the pause, its utterance."""
        self._ending: set[bytes] = set()
        """Utterances the microphone was told to end early."""
        self._decoded: tuple[bytes, float] | None = None
        self._due: float | None = None

    def hear(self, audio: bytes) -> None:
        """Feed ``audio`` frame by frame, the clock at the end of the frame fed."""
        for start in range(0, len(audio), _FRAME):
            self._catch_up()
            self.now = (start + _FRAME) / 2 / SAMPLE_RATE
            self.microphone.process(audio[start:start + _FRAME])
        self._catch_up()

    def _pause(self, utterance: bytes, number: int) -> None:
        self._waiting = (utterance, number, self.now)

    def _catch_up(self) -> None:
        """What the early end's thread did up to now."""
        while True:
            due = [end for end in self._ends if end[0] <= self.now]
            if due:
                self._ends = [end for end in self._ends if end[0] > self.now]
                for at, number, utterance in due:
                    self._due = at
                    self._ending.add(utterance)  # it may be delivered at once
                    try:
                        if not self.microphone.end_early(number):
                            self._ending.discard(utterance)
                    finally:
                        self._due = None
                continue
            if self._waiting is None or self._free_at > self.now:
                return
            (utterance, number, offered), self._waiting = self._waiting, None
            if not self.microphone.still_paused(number):
                continue
            assert self.early_end is not None
            start = max(offered, self._free_at)
            self._deferred.asked.clear()
            began = self._spent()
            self.early_end.pause(utterance, number)
            self._free_at = start + self._spent() - began
            self._decoded = (utterance, self._free_at)
            self._ends += [(self._free_at, n, utterance) for n in self._deferred.asked]

    def _utterance(self, utterance: bytes) -> None:
        began = self._spent()
        early = utterance in self._ending
        self._ending.discard(utterance)
        ready = self.now if self._due is None else self._due
        if self._waiting is not None and self._waiting[0] == utterance:
            self._waiting = None  # not started: the listener decodes it
        waited = 0.0
        if self._decoded is not None and self._decoded[0] == utterance:
            ready = max(ready, self._decoded[1])
        elif self._free_at > ready:
            waited, ready = self._free_at - ready, self._free_at
        outcome = self.judge(utterance)
        self.decided.append((ready + self._spent() - began, outcome, early, waited))
