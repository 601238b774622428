"""How a bench on a virtual clock counts the time a decode takes: measured, or modelled.

The room bench and ``bench voice --through-microphone`` stop their virtual clock
while the recognizer decodes, then move it on by the decode's time. Measured
(``--decode-time measured``), that time is the deciding thread's CPU time plus the
waits the recognizer reports for its phone-loop process (``parallel_wait_seconds``).
It varies by tens of milliseconds from run to run and over a session, and in the
room that is enough to move a command from the early end (~250 ms) to the full
quiet (~650 ms): the same code and seed gave median latencies of 319 and 592 ms.

Modelled (``--decode-time modelled``, the default), every decode the recognizer
really runs is counted as :data:`MODELLED_OVERHEAD` plus :data:`MODELLED_REAL_TIME_FACTOR`
times the audio's length, and one answered from the results it keeps (the same
audio with the same phrases again) as nothing, so a run with a fixed seed gives the
same figures every time. The CPU time is measured all the same and reported beside
them (:class:`DecodeTimes`), so a model kinder than the machine shows.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from voice_spades.voice.early_end import PartialDecoder
from voice_spades.voice.recognizers.base import (
    GroupingRecognizer,
    Recognition,
    Recognizer,
    audio_seconds,
)

MODELLED_REAL_TIME_FACTOR = 0.1
"""Seconds of decoding per second of audio. PocketSphinx with the per-prompt grammar
measured 0.087 (median of 300 espeak-ng commands; 0.069-0.106 from the 10th to the
90th percentile) on this project's 2-core machines."""
MODELLED_OVERHEAD = 0.01
"""Seconds every decode costs whatever its length (loading the phrases, reading the
answer)."""
DECODE_TIMES = ("modelled", "measured")
"""The values of ``--decode-time``."""

_Result = TypeVar("_Result", Recognition, Recognition | None)


def measured_clock(recognizer: object) -> Callable[[], float]:
    """The calling thread's CPU time, plus the waits ``recognizer`` says it would have
    had for a process of its own beside it with a core free (``parallel_wait_seconds``,
    when it has one)."""
    def clock() -> float:
        return time.thread_time() + float(getattr(recognizer, "parallel_wait_seconds", 0.0))
    return clock


@dataclass(slots=True)
class DecodeTimes:
    """The decodes a :class:`TimedRecognizer` ran: audio, measured and modelled seconds."""

    audio: list[float] = field(default_factory=list)
    measured: list[float] = field(default_factory=list)
    modelled: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, float | int | None]:
        """Decodes run, the real-time factor measured and modelled, and the share of
        decodes that took longer than modelled."""
        heard = sum(self.audio)
        slower = sum(m > c for m, c in zip(self.measured, self.modelled, strict=True))
        return {
            "decodes": len(self.audio),
            "measured_real_time_factor": round(sum(self.measured) / heard, 4) if heard else None,
            "modelled_real_time_factor": round(sum(self.modelled) / heard, 4) if heard else None,
            "slower_than_modelled": round(slower / len(self.audio), 4) if self.audio else None,
        }


class TimedRecognizer:
    """``recognizer`` with every decode timed: :attr:`times` keeps the figures and
    :meth:`clock` tells the time a bench counts (modelled or measured, by ``modelled``).

    Everything else is the recognizer's own. Use :func:`timed`, which keeps the
    recognizer's kind (a :class:`PartialDecoder` stays one)."""

    def __init__(self, recognizer: Recognizer, modelled: bool = True) -> None:
        self.inner = recognizer
        self.name = recognizer.name
        self.modelled = modelled
        self.times = DecodeTimes()
        self.counted = 0.0
        """Modelled seconds of decoding so far."""
        self._phrases: Hashable = None
        self._stream = bytearray()
        self._kept: OrderedDict[Hashable, None] = OrderedDict()
        self._keeps = int(getattr(recognizer, "kept_results", 0))
        self._measure = measured_clock(recognizer)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.inner, attribute)

    def clock(self) -> float:
        """Seconds of decoding so far, as the bench counts them (compare two readings)."""
        return self.counted if self.modelled else self._measure()

    def set_phrases(self, phrases: Sequence[str]) -> None:
        """The recognizer's ``set_phrases``."""
        self.inner.set_phrases(phrases)
        self._phrases = tuple(phrases)

    def set_grouped_phrases(self, phrases: Sequence[str], groups: Sequence[Hashable]) -> None:
        """The recognizer's ``set_grouped_phrases`` (its ``set_phrases`` if it has none)."""
        if isinstance(self.inner, GroupingRecognizer):
            self.inner.set_grouped_phrases(phrases, groups)
        else:
            self.inner.set_phrases(phrases)
        self._phrases = (tuple(phrases), tuple(groups))

    def decode(self, audio: bytes) -> Recognition:
        """The recognizer's ``decode``, timed."""
        return self._timed(audio, lambda: self.inner.decode(audio))

    def start(self) -> None:
        """The recognizer's ``start``."""
        self._stream = bytearray()
        self.inner.start()

    def feed(self, chunk: bytes) -> None:
        """The recognizer's ``feed``."""
        self._stream.extend(chunk)
        self.inner.feed(chunk)

    def finish(self) -> Recognition:
        """The recognizer's ``finish``, timed as a decode of what was fed."""
        audio, self._stream = bytes(self._stream), bytearray()
        return self._timed(audio, self.inner.finish)

    def _timed(self, audio: bytes, decode: Callable[[], _Result]) -> _Result:
        key = (audio, self._phrases)
        if key in self._kept:  # answered from the recognizer's kept results
            self._kept.move_to_end(key)
            return decode()
        began = self._measure()
        result = decode()
        measured = self._measure() - began
        modelled = MODELLED_OVERHEAD + MODELLED_REAL_TIME_FACTOR * audio_seconds(audio)
        self.counted += modelled
        self.times.audio.append(audio_seconds(audio))
        self.times.measured.append(measured)
        self.times.modelled.append(modelled)
        if result is not None and self._keeps:
            self._kept[key] = None
            while len(self._kept) > self._keeps:
                self._kept.popitem(last=False)
        return result


class TimedPartialDecoder(TimedRecognizer):
    """A :class:`TimedRecognizer` around a :class:`PartialDecoder`."""

    def decode_unless_unfinished(self, audio: bytes) -> Recognition | None:
        """The recognizer's ``decode_unless_unfinished``, timed."""
        inner = self.inner
        assert isinstance(inner, PartialDecoder)
        return self._timed(audio, lambda: inner.decode_unless_unfinished(audio))


def timed(recognizer: Recognizer, modelled: bool = True) -> TimedRecognizer:
    """``recognizer`` with its decodes timed (see :class:`TimedRecognizer`)."""
    kind = TimedPartialDecoder if isinstance(recognizer, PartialDecoder) else TimedRecognizer
    return kind(recognizer, modelled)


def decoding_line(decode_time: str, f: Mapping[str, float | int | None]) -> str:
    """How decodes were counted (``decode_time``), and what they measured (``f``,
    :meth:`DecodeTimes.summary`): a line of a bench's report."""
    if not f["decodes"]:
        return f"decoding counted as {decode_time}: no decodes"
    slower = f["slower_than_modelled"]
    assert isinstance(slower, float | int)
    return (f"decoding counted as {decode_time}: {f['decodes']} decodes, real-time factor "
            f"measured {f['measured_real_time_factor']}, modelled "
            f"{f['modelled_real_time_factor']}; {slower:.0%} took longer than modelled")


def decode_clock(recognizer: object) -> Callable[[], float]:
    """The clock a bench times ``recognizer``'s decodes by: the :class:`TimedRecognizer`'s
    own, or else the measured one."""
    if isinstance(recognizer, TimedRecognizer):
        return recognizer.clock
    return measured_clock(recognizer)
