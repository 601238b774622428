"""Choices table talk can reach and nothing takes back: asked about unless the words
are clear.

Keeping or discarding the card shown in the two-player draw, giving the marked cards
back (or none) at the blind nil exchange, and going to sleep ("stop listening") are
each one short phrase, listened for at every such prompt, and table talk is heard as
them: "this coffee is cold" discarded the drawn card as "discard this card" (2 of
2,520 English table-talk tries on held-out voices, flite and Festival). Such a choice
is asked about ("Discard it?", "Stop listening?"): a draw or the exchange always, the
sleep word unless it was heard exactly, with no other action near, and both the
recognizer's confidence and the fit (:attr:`Reading.fit`) reach :data:`CLEAR_BAR`.
"""

from __future__ import annotations

from voice_spades.commands import Act, PlayCurrent
from voice_spades.engine import DrawChoice, Exchange, Phase
from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.understanding.grammar import Listening, PhraseTable
from voice_spades.voice.understanding.meaning import Reading

ALWAYS_ASKED = frozenset({"draw", "exchange"})
"""The choices asked about however clearly they were heard: the recognizer's own
measures do not tell table talk from them. Of 160 sentences said at the draw prompt by
held-out voices (flite, Festival, MBROLA, and espeak-ng's US and British ones), 7 were
carried out unasked under the earlier bars: "this coffee is cold" as "discard this
card" (flite, confidence and fit 0.98) and "discuss this card" (0.90-0.97, five
voices), where 43 of 48 right draws of the same voices were heard at 0.91 to 1.0. The
draw is itself a yes/no question ("Keep the five of hearts?"): a "yes" or a "no"
answers it at once, and the keys (K, D, Enter at the exchange) act at once too."""

CLEAR_BAR = 0.95
"""The recognizer's confidence and the :attr:`Reading.fit` from which "stop listening"
is obeyed unasked, in every language. Table talk "stop listening to him" was heard as
it at 0.91 and 0.92 (espeak-ng's US and British voices), where 23 of 24 right "stop
listening" and "pause listening" (flite, Festival, MBROLA) were heard at 0.96 and more
(one at 0.88, now asked). Italian and French sleep phrases, heard at 0.17-0.46 by the
English model, are asked about nearly always, rather than obeyed from 0.15 or 0.5."""


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
    sleep word heard exactly, no other action near, confidence and fit at
    :data:`CLEAR_BAR`."""
    if kind in ALWAYS_ASKED:
        return False
    return reading.cost == 0 and not reading.rivals \
        and reading.confidence >= CLEAR_BAR and reading.fit >= CLEAR_BAR


def ask_first(reading: Reading, table: PhraseTable, lexicon: Lexicon) -> bool:
    """True when ``reading`` is an irreversible choice not heard clearly: ask first."""
    kind = choice_kind(reading, table)
    return kind is not None and not clear(reading, lexicon, kind)
