"""Choices table talk can reach and nothing takes back: asked about unless the words
are clear.

Keeping or discarding the card shown in the two-player draw, giving the marked cards
back (or none) at the blind nil exchange, and going to sleep ("stop listening") are
each one short phrase, listened for at every such prompt, and table talk is heard as
them: "this coffee is cold" discarded the drawn card as "discard this card" (2 of
2,520 English table-talk tries on held-out voices, flite and Festival). Such a choice
is asked about ("Discard it?", "Stop listening?"): a draw or the exchange always, the
sleep word unless it was heard exactly, with no other action near, and both the
recognizer's confidence and the fit (:attr:`Reading.fit`) reach the bars below.
"""

from __future__ import annotations

from voice_spades.commands import Act, PlayCurrent
from voice_spades.engine import DrawChoice, Exchange, Phase
from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.understanding.grammar import Listening, PhraseTable
from voice_spades.voice.understanding.meaning import Reading

ALWAYS_ASKED = frozenset({"draw", "exchange"})
"""The choices asked about however clearly they were heard: the recognizer's own
measures do not tell table talk from them. Said by flite's voice, "this coffee is
cold" was heard as "discard this card" at the draw prompt with a confidence and a fit
of 0.98, where right draws of the same held-out voices were heard at 0.91 to 1.0. The
draw is itself a yes/no question ("Keep the five of hearts?"): a "yes" or a "no"
answers it at once, and the keys (K, D, Enter at the exchange) act at once too."""

CLEAR_BARS: dict[str, tuple[float, float]] = {"en": (0.9, 0.8), "it": (0.9, 0.8),
                                              "fr": (0.9, 0.8)}
"""Per language, the recognizer's confidence and the :attr:`Reading.fit` from which
"stop listening" is obeyed unasked (a language not listed: no bar)."""


def choice_kind(reading: Reading, table: PhraseTable) -> str | None:
    """"draw", "exchange" (the marked cards given back, or none) or "sleep" ("stop
    listening") for an irreversible choice; None for anything else."""
    meaning = reading.meaning
    if isinstance(meaning, Listening):
        return None if meaning.on else "sleep"
    if isinstance(meaning, Act) and isinstance(meaning.action, DrawChoice):
        return "draw"
    if isinstance(meaning, Act) and isinstance(meaning.action, Exchange):
        return "exchange"
    if isinstance(meaning, PlayCurrent) and table.phase == Phase.EXCHANGE:
        return "exchange"
    return None


def clear(reading: Reading, lexicon: Lexicon, kind: str = "sleep") -> bool:
    """True when ``reading`` was heard clearly enough to carry out the irreversible
    choice ``kind`` unasked: never a draw or the exchange (:data:`ALWAYS_ASKED`); the
    sleep word heard exactly, no other action near, confidence and fit at the
    language's bars."""
    if kind in ALWAYS_ASKED:
        return False
    bars = CLEAR_BARS.get(lexicon.language)
    if bars is None:
        return True
    confidence, fit = bars
    return reading.cost == 0 and not reading.rivals \
        and reading.confidence >= confidence and reading.fit >= fit


def ask_first(reading: Reading, table: PhraseTable, lexicon: Lexicon) -> bool:
    """True when ``reading`` is an irreversible choice not heard clearly: ask first."""
    kind = choice_kind(reading, table)
    return kind is not None and not clear(reading, lexicon, kind)
