"""Where the room bench's commands are lost: each scene's command decoded again in
easier conditions, to tell which step lost it.

``voice-spades bench voice --room --offline --causes`` keeps, for each scene, what
the voice detector was given (the microphone's audio after echo cancellation) and
the utterances it delivered, then decodes, with the scene's own grammar:

1. the command alone, dry, at its level (what the recognizer makes of the speech);
2. the command through the room (its reverberation), no noise, no narrator;
3. the same with the room's noise (the echo removed perfectly);
4. the audio after cancellation over the command's span (from a moment before its
   speech to just after), as an ideal detector would cut it.

A command not understood is put down to the first step that loses it:
``recognizer`` (1 fails), ``reverberation`` (2 fails), ``noise`` (3 fails), ``missed``
(no utterance was delivered for it: the echo gate or the detector never opened),
``echo`` (4 fails: what is left of the narrator's echo), else ``cut`` (the
delivered utterance is cut or placed worse than the command's span). Each scene also
gets where its utterance began and ended against the command's speech.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from voice_spades.bench.voice import decode_one
from voice_spades.bench.voice_room_run import Book, OfflineRunner
from voice_spades.voice.testing.room import RATE, Floats, Noise, convolve, impulse_responses

CAUSES = ("recognizer", "reverberation", "noise", "missed", "echo", "cut")
"""Why a command was not understood, in the order the steps are tried."""
ROOM_CAUSES = CAUSES[:3]
"""The causes that lose a command with no narrator and a perfect cut: the recognizer's
own share, which no echo canceller, gate or detector can win back."""
BEFORE = 0.3
"""Seconds before the command's speech an ideal cut begins."""
AFTER = 0.6
"""Seconds after its speech an ideal cut ends (the recognizer trims the quiet)."""


@dataclass(frozen=True, slots=True)
class SceneCause:
    """What the easier conditions made of one scene's command (see the module doc)."""

    number: int
    kind: str
    understood: bool
    dry: bool
    reverberant: bool
    room: bool
    span: bool | None
    """None when the command's speech never reached the microphone."""
    delivered: bool
    start: float | None = None
    """Where the command's utterance began, from the start of its speech (s)."""
    end: float | None = None
    """Where it ended, from the end of its speech (s)."""

    @property
    def cause(self) -> str | None:
        """The step that lost the command (one of :data:`CAUSES`), None if understood."""
        if self.understood:
            return None
        if not self.dry:
            return "recognizer"
        if not self.reverberant:
            return "reverberation"
        if not self.room:
            return "noise"
        if not self.delivered:
            return "missed"
        if not self.span:
            return "echo"
        return "cut"


def _pcm(samples: Floats | np.ndarray[Any, Any]) -> bytes:
    return np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2").tobytes()


def _decode(book: Book, pcm: bytes) -> bool:
    book.recognizer.set_phrases(book.table.phrases)
    return decode_one(book.recognizer, book.table, pcm, book.scene.clip.transcript,
                      book.expected, False, book.kind, book.prompt).correct


def _padded(samples: Floats, start: float, end: float) -> Floats:
    """``samples`` from ``start`` - :data:`BEFORE` to ``end`` + :data:`AFTER` seconds,
    with silence where the clip has none."""
    out = np.zeros(round((end - start + BEFORE + AFTER) * RATE), dtype=np.float32)
    first = round((start - BEFORE) * RATE)
    low, high = max(0, first), min(len(samples), first + len(out))
    if high > low:
        out[low - first:high - first] = samples[low:high]
    return out


def without_narrator(book: Book, seed: int) -> tuple[bool, bool, bool]:
    """Whether the command is understood dry, through the room, and through the room
    with its noise (no narrator), each cut to its speech as an ideal detector would."""
    command, (start, end) = book.command, book.span
    dry = _decode(book, _pcm(_padded(command, start, end)))
    wet = convolve(command, impulse_responses(book.scene.room)[1])[:len(command)]
    cut = _padded(wet.astype(np.float32), start, end)
    noisy = cut + Noise(book.scene.noise, seed).block(len(cut))
    return dry, _decode(book, _pcm(cut)), _decode(book, _pcm(noisy))


def explain(runner: OfflineRunner, understood: bool, seed: int) -> SceneCause:
    """The causes of the scene ``runner`` just played (built with ``keep_audio``)."""
    book = runner.book
    if book is None:
        raise ValueError("the runner has played no scene")
    dry, reverberant, room = without_narrator(book, seed)
    speech = book.speech
    if speech is None:
        return SceneCause(book.scene.number, book.scene.kind, understood, dry, reverberant,
                          room, None, False)
    times = np.array([t for t, _ in runner.heard])
    heard = b"".join(frame for _, frame in runner.heard)
    first = int(np.searchsorted(times, speech[0] - BEFORE))
    last = int(np.searchsorted(times, speech[1] + AFTER))
    span = _decode(book, heard[first * 640:last * 640]) if last > first else False
    where = {frame: at for at, frame in reversed(runner.heard)}
    start = end = None
    for _, utterance in runner.delivered:
        began = where.get(utterance[:640])
        if began is None:
            continue
        ended = began + len(utterance) / 2 / RATE
        if began <= speech[1] and ended >= speech[0]:
            start, end = began - speech[0], ended - speech[1]
            break
    return SceneCause(book.scene.number, book.scene.kind, understood, dry, reverberant,
                      room, span, start is not None, start, end)


def cause_counts(causes: list[dict[str, Any]], kind: str) -> dict[str, int]:
    """Scenes of ``kind`` ("during", "after") per cause, and how many were understood
    (``causes``: a run's, as :func:`explain` gave them with their ``cause``)."""
    counted = Counter(c["cause"] or "understood" for c in causes if c["kind"] == kind)
    return {name: counted.get(name, 0) for name in ("understood", *CAUSES)}


def at_best(causes: list[dict[str, Any]], kind: str) -> tuple[int, int]:
    """Of the scenes of ``kind``, how many a perfect echo canceller, gate and detector
    could have understood (all but those lost to :data:`ROOM_CAUSES`), and how many
    there were: the most the recognizer allows in these rooms."""
    scenes = [c for c in causes if c["kind"] == kind]
    return sum(c["cause"] not in ROOM_CAUSES for c in scenes), len(scenes)
