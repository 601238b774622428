"""The seam between the game and a speech recognizer.

The game tells a recognizer which complete phrases may be said now
(:meth:`Recognizer.set_phrases`); the recognizer turns 16 kHz mono 16-bit
little-endian PCM into one of those phrases, or rejects it. A rejection
(``text is None``) means noise, silence or speech outside the phrases; the
game then asks again instead of guessing.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

SAMPLE_RATE = 16000
BYTES_PER_SECOND = 2 * SAMPLE_RATE


@dataclass(frozen=True)
class Recognition:
    """What a recognizer heard in one utterance.

    ``text`` is exactly one of the phrases given to ``set_phrases`` (same
    spelling), or None when the utterance was rejected. ``confidence`` is in
    [0, 1]. ``alternatives`` lists the best phrases with a probability each,
    best first (the accepted phrase included), so a caller can offer a choice
    when two are close. ``reason`` says why an utterance was rejected, for logs and
    benchmarks (developers): the player hears "Sorry, say again".
    """

    text: str | None
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    audio_seconds: float
    decode_seconds: float
    reason: str | None = None
    search_fit: float | None = None
    """How well the audio fitted the phrase by the recognizer's first measure, where
    :attr:`fit` weighs in another (PocketSphinx verifying the winner searched alone as
    well); None when the fit is that measure. The early end
    (:mod:`voice_spades.voice.early_end`) was measured on it."""
    alone_fit: float | None = None
    """How well the audio fitted the phrase searched alone (a grammar of that phrase
    only), where the recognizer measured it (PocketSphinx with ``verify_alone``);
    None where it did not. Table talk forced into the grammar fits worse so."""

    @property
    def rejected(self) -> bool:
        """True when nothing in the allowed phrases was recognized."""
        return self.text is None

    @property
    def fit(self) -> float:
        """How well the audio fitted the phrase heard, whatever the phrases beside it:
        the confidence over the share the phrase has among the alternatives (the
        confidence when it lists none). A near tie between two phrases lowers the
        confidence, not the fit; speech unlike any phrase lowers both."""
        share = dict(self.alternatives).get(self.text or "", 0.0)
        if share <= 0:
            return self.confidence
        return min(1.0, self.confidence / share)


@runtime_checkable
class Recognizer(Protocol):
    """A speech recognizer restricted to the phrases allowed at this moment.

    Streaming use: ``start()``, then ``feed(chunk)`` as audio arrives, then
    ``finish()`` for the result; ``decode(audio)`` does all three at once.
    """

    name: str

    def set_phrases(self, phrases: Sequence[str]) -> None:
        """Allow exactly these complete phrases (lower-case words) from now on."""
        ...

    def decode(self, audio: bytes) -> Recognition:
        """Recognize one whole utterance of 16 kHz mono int16 little-endian PCM."""
        ...

    def start(self) -> None:
        """Begin a streamed utterance."""
        ...

    def feed(self, chunk: bytes) -> None:
        """Add audio to the streamed utterance."""
        ...

    def finish(self) -> Recognition:
        """End the streamed utterance and return what was recognized."""
        ...


@runtime_checkable
class GroupingRecognizer(Recognizer, Protocol):
    """A recognizer that can also be told which phrases mean the same ("dichiaro
    quattro", "quattro"), so that the alternatives it offers are other meanings."""

    def set_grouped_phrases(self, phrases: Sequence[str], groups: Sequence[Hashable]) -> None:
        """Allow exactly ``phrases``; ``groups[i]`` is what ``phrases[i]`` means."""
        ...


def load_phrases(recognizer: Recognizer, phrases: Sequence[str],
                 groups: Sequence[Hashable]) -> None:
    """Give ``recognizer`` the phrases allowed now, with their meanings if it uses them."""
    if isinstance(recognizer, GroupingRecognizer):
        recognizer.set_grouped_phrases(phrases, groups)
    else:
        recognizer.set_phrases(phrases)


def audio_seconds(audio: bytes) -> float:
    """Return the duration of 16 kHz mono int16 PCM in seconds."""
    return len(audio) / BYTES_PER_SECOND


def rejection(reason: str, audio: bytes, decode_seconds: float,
              alternatives: tuple[tuple[str, float], ...] = ()) -> Recognition:
    """Build the Recognition of a rejected utterance."""
    return Recognition(None, 0.0, alternatives, audio_seconds(audio), decode_seconds, reason)
