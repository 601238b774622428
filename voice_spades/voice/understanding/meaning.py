"""From what a recognizer heard to what the player means.

A grammar-bound recognizer returns one of the table's phrases, which is looked
up. Other text (an open-vocabulary recognizer, a partial hypothesis) is scored
against every phrase with a word-level edit distance whose costs come from the
lexicon: a homophone ("for" for "four") or a filler word ("the", "please")
costs little, any other word 1. It is accepted only when it is close to one meaning
and clearly closer to it than to any other, and never when it is the start of a
phrase (a decoder that stopped early); everything else is
:class:`~voice_spades.commands.NotUnderstood`.

The :class:`Reading` also lists the other legal actions that were nearly heard
(in the recognizer's alternatives, or a likely confusion away in the lexicon),
which :mod:`.confirmation` turns into a question.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from voice_spades.commands import Act, Cancel, Confirm, Intent, NotUnderstood, PlayCurrent
from voice_spades.engine import DrawChoice
from voice_spades.voice.lexicon import Lexicon, default_lexicon
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.understanding.grammar import Extreme, Meaning, PhraseTable

MAX_MATCH_COST = 0.6
"""Largest cost at which text that is not a phrase still matches one: two filler
words (0.3 each) or a few variants (0.1-0.2), never a plain wrong word (1)."""
MIN_MATCH_MARGIN = 0.4
"""A tolerant match must beat the best phrase of another meaning by this much."""
CLOSE_PHRASE_COST = 0.5
"""Another legal action whose phrase is this close (in lexicon cost) to the one
heard is a close second: "ace of hearts" and "eight of hearts" are 0.5 apart."""
CLOSE_PROBABILITY = 0.1
"""A recognizer alternative this probable (0-1) naming another legal action is a
close second. Measured with PocketSphinx on 2,256 synthesized clips (espeak-ng
and flite, per-prompt grammars): of 42 wrong legal card plays, 36 had such an
alternative, against 7% of the 806 right ones."""
SURE_CONFIDENCE = 0.95
"""A recognizer more confident (0-1) than this, with no close alternative, is taken at its word:
the lexicon's likely confusions are not asked about. Measured on 480 espeak-ng
clips: every wrong card or extreme heard above 0.5 had the right one among the
alternatives, and the confusion pairs asked about 7 right plays heard at 0.95 or
more."""
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'",
                              "\u00b4": "'"})
_NOT_WORD = re.compile(r"[^\w']|_")
_NOISE_TOKENS = frozenset({"[unk]", "<unk>", "[noise]", "<sil>", "[laughter]", "<s>", "</s>"})


@dataclass(frozen=True, slots=True)
class Reading:
    """What one recognition means in a phrase table."""

    intent: Intent | NotUnderstood
    meaning: Meaning | None
    """The phrase's state-free meaning (the benchmark compares these)."""
    phrase: str | None
    """The table phrase matched, or None."""
    cost: float
    """0 for a phrase heard exactly, else the tolerant match's cost."""
    confidence: float
    """The recognizer's confidence, 0 to 1."""
    rivals: tuple[Intent, ...] = ()
    """Other legal actions nearly heard."""
    others: tuple[Intent, ...] = ()
    """The other intents among the recognizer's alternatives, best first, however
    unlikely (a question about a bid may offer the best of them)."""
    fit: float = 1.0
    """How much the speech sounded like the phrase at all, before it is weighed against
    the other phrases (0-1): the recognizer's confidence over the phrase's share of
    its alternatives (with PocketSphinx, the phone-loop verification). Table talk
    forced into the grammar fits badly even when one phrase wins clearly."""
    unlike_share: float = 0.0
    """The share of the likeliest alternative that means no action (a query, a
    command): how nearly something other than an action was heard."""
    search_fit: float | None = None
    """The recognizer's :attr:`~voice_spades.voice.recognizers.base.Recognition.search_fit`
    (None: the fit is that measure)."""
    alone_fit: float | None = None
    """The recognizer's :attr:`~voice_spades.voice.recognizers.base.Recognition.alone_fit`
    (None: not measured)."""
    current_share: float = 0.0
    """The share of the likeliest alternative that acts on the card or cards chosen by key
    ("play it"): how nearly that was heard instead."""


def normalize(text: str, lexicon: Lexicon | None = None) -> str:
    """Lower-case words (accents kept, in their composed form), digits spelled out,
    punctuation and noise markers removed; a hyphen parts words ("dix-sept")."""
    lex = lexicon or default_lexicon()
    words = []
    text = unicodedata.normalize("NFC", text.lower()).translate(_APOSTROPHES)
    for raw in text.split():
        if raw in _NOISE_TOKENS:
            continue
        word = _NOT_WORD.sub(" ", raw).strip(" '")
        for part in word.split():
            part = part.strip("'")
            if part.isdecimal():
                part = lex.numbers.get(int(part), part)
            if part:
                words.append(part)
    return " ".join(words)


def phrase_cost(heard: Sequence[str], phrase: Sequence[str], lexicon: Lexicon,
                *, risky: bool = False) -> float:
    """Weighted word edit distance from ``heard`` to ``phrase`` (lexicon costs; with
    ``risky``, the risky pairs count as close too)."""
    previous = [0.0]
    for word in phrase:
        previous.append(previous[-1] + lexicon.gap_cost(word))
    for heard_word in heard:
        gap = lexicon.gap_cost(heard_word)
        current = [previous[0] + gap]
        for j, word in enumerate(phrase, start=1):
            current.append(min(previous[j] + gap,
                               current[j - 1] + lexicon.gap_cost(word),
                               previous[j - 1]
                               + lexicon.substitution_cost(heard_word, word, risky=risky)))
        previous = current
    return previous[-1]


def closest(text: str, table: PhraseTable,
            lexicon: Lexicon | None = None) -> tuple[str, float] | None:
    """The phrase ``text`` tolerantly matches, with its cost, or None if no phrase is
    close enough or two meanings are nearly as close."""
    lex = lexicon or default_lexicon()
    words = text.split()
    if not words:
        return None
    best: dict[Meaning, tuple[float, str]] = {}
    for phrase in table.meanings:
        phrase_words = phrase.split()
        if abs(len(phrase_words) - len(words)) > 3:
            continue
        cost = phrase_cost(words, phrase_words, lex)
        meaning = table.meanings[phrase]
        if meaning not in best or cost < best[meaning][0]:
            best[meaning] = (cost, phrase)
    ranked = sorted(best.values())
    if not ranked or ranked[0][0] > MAX_MATCH_COST:
        return None
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < MIN_MATCH_MARGIN:
        return None
    return ranked[0][1], ranked[0][0]


def read(heard: Recognition, table: PhraseTable, lexicon: Lexicon | None = None) -> Reading:
    """What ``heard`` means in ``table``: an intent, or NotUnderstood."""
    lex = lexicon or default_lexicon()
    text = normalize(heard.text or "", lex)
    confidence = heard.confidence
    if text in table.meanings:
        phrase, cost = text, 0.0
    elif text in table.prefixes:
        # A grammar-bound decoder stopped inside a phrase: what followed is unknown.
        return Reading(NotUnderstood(heard.text), None, None, 0.0, confidence)
    else:
        found = closest(text, table, lex)
        if found is None:
            return Reading(NotUnderstood(heard.text or None), None, None, 0.0, confidence)
        phrase, cost = found
    intent = table.intent(phrase)
    meaning = table.meanings[phrase]
    fit = heard.fit
    if intent is None:
        return Reading(NotUnderstood(heard.text), meaning, phrase, cost, confidence, fit=fit,
                       search_fit=heard.search_fit, alone_fit=heard.alone_fit)
    # The confidence in the meaning decides whether the recognizer was sure: "play the
    # jack of hearts" at 0.90 with "play jack of hearts" at 0.10 is sure of the card.
    confidence = _intent_confidence(confidence, phrase, heard.alternatives, table, lex)
    rivals: tuple[Intent, ...] = ()
    if isinstance(intent, Act | PlayCurrent):
        rivals = _rivals(intent, phrase, heard.alternatives, table, lex, confidence)
    weighed = [(other, share) for text, share in heard.alternatives
               if (other := table.intent(normalize(text, lex))) is not None and other != intent]
    others = tuple(dict.fromkeys(other for other, _ in weighed))
    unlike = max((share for other, share in weighed if not isinstance(other, Act | PlayCurrent)),
                 default=0.0)
    current = max((share for other, share in weighed if isinstance(other, PlayCurrent)),
                  default=0.0)
    return Reading(intent, meaning, phrase, cost, confidence, rivals, others, fit, unlike,
                   heard.search_fit, heard.alone_fit, current)


def _intent_confidence(confidence: float, phrase: str,
                       alternatives: Sequence[tuple[str, float]], table: PhraseTable,
                       lex: Lexicon) -> float:
    """The confidence in the meaning rather than in the phrase: alternatives that are
    other wordings of the same meaning ("play the highest heart" for "play highest
    heart", "two of spades" for "deuce of spades") add their share to the winner's."""
    if not alternatives:
        return confidence
    meaning = table.meanings.get(phrase)
    share = same = 0.0
    for text, probability in alternatives:
        other = normalize(text, lex)
        if other == phrase:
            share = max(share, probability)
        elif table.meanings.get(other) == meaning:
            same += probability
    if share <= 0 or same <= 0:
        return confidence
    return min(1.0, confidence * (share + same) / share)


def _opposite_places(heard: Meaning | None, other: Meaning | None) -> bool:
    """True for "highest heart" against "lowest heart": the stricter close probability
    a lexicon may set (:attr:`Lexicon.close_probability`, for its number words) is not
    applied to them, which sound nothing alike. In 540 Italian espeak-ng commands (two
    sets) no place was heard for its opposite, and an opposite heard at 0.02-0.1 asked
    about 5 of the 116 right plays of one set. Recorded (MBROLA) voices differ: one
    voice's "alta" is heard as "bassa" with full confidence, so that pair is asked
    about however sure the recognizer was (:attr:`Lexicon.always_risky`)."""
    return isinstance(heard, Extreme) and isinstance(other, Extreme) \
        and heard.suit == other.suit and heard.highest != other.highest


DRAW_RIVAL_SHARE = 0.01
"""The other draw choice heard more probable than this (0-1) is a rival: keeping and
discarding cannot be taken back. Measured with voice training (PocketSphinx adapted to each
espeak-ng voice, sets 600 and 606): "discard" was kept ("keep the card" at 0.97,
"discard" at 0.018), while no right draw of 100 had the other choice among its
alternatives above 0.01."""


def _other_draw(heard: Intent | None, other: Intent | None, probability: float) -> bool:
    """True for "keep" against "discard" nearly heard (:data:`DRAW_RIVAL_SHARE`)."""
    return probability > DRAW_RIVAL_SHARE and isinstance(heard, Act) \
        and isinstance(other, Act) and isinstance(heard.action, DrawChoice) \
        and isinstance(other.action, DrawChoice) and heard != other


def _rivals(intent: Intent, phrase: str, alternatives: Sequence[tuple[str, float]],
            table: PhraseTable, lex: Lexicon, confidence: float) -> tuple[Intent, ...]:
    """Actions other than ``intent`` in the alternatives (any of them parting from
    ``phrase`` on a :attr:`Lexicon.always_risky` pair), or legal actions a likely
    confusion away (unless the recognizer was sure: then only an always-risky word)."""
    found: list[Intent] = []

    # While the player chooses between offered actions ("Quattro? O tre?"), an answer
    # nearly heard ("sì" for "sei") is a rival too.
    kinds = (Act, PlayCurrent, Confirm, Cancel) if table.offered else (Act, PlayCurrent)

    def consider(other: Intent | None, *, held: bool = False) -> None:
        allowed = isinstance(other, kinds) if held else (
            other in table.legal or (bool(table.offered) and isinstance(other, Confirm | Cancel)))
        if other is not None and other != intent and allowed and other not in found:
            found.append(other)

    close = CLOSE_PROBABILITY if lex.close_probability is None else lex.close_probability
    heard_meaning = table.meanings.get(phrase)
    words = phrase.split()
    for alternative, probability in alternatives:
        other_phrase = normalize(alternative, lex)
        opposite = _opposite_places(heard_meaning, table.meanings.get(other_phrase))
        if probability >= (max(close, CLOSE_PROBABILITY) if opposite else close) \
                or _other_draw(intent, table.intent(other_phrase), probability) \
                or _parting_pair(words, other_phrase.split(), lex.always_risky) is not None:
            # Any action nearly heard, even one the rules forbid now: the player may
            # have named a card they may not play, and hearing a legal one instead
            # must not play it.
            consider(table.intent(other_phrase), held=True)
    if confidence > (SURE_CONFIDENCE if lex.sure_confidence is None else lex.sure_confidence):
        for other_phrase in table.meanings if lex.always_risky else ():
            other_words = other_phrase.split()
            at = _parting_pair(words, other_words, lex.always_risky)
            if at is not None and words[at + 1:] == other_words[at + 1:]:
                consider(table.intent(other_phrase))  # one always-risky word apart
        return tuple(found)
    for other_phrase in table.meanings:
        other_words = other_phrase.split()
        if abs(len(other_words) - len(words)) * lex.filler_cost > CLOSE_PHRASE_COST:
            continue
        other = table.intent(other_phrase)
        if other is None or other == intent:
            continue
        if phrase_cost(words, other_words, lex, risky=True) <= CLOSE_PHRASE_COST:
            consider(other)
    return tuple(found)


def _parting_pair(words: Sequence[str], other: Sequence[str],
                  pairs: frozenset[frozenset[str]]) -> int | None:
    """Where ``other`` first differs from ``words``, when the two words there are one
    of ``pairs`` (French "joue sept de cœur" and "joue cette carte": 1); else None."""
    for at, (word, other_word) in enumerate(zip(words, other, strict=False)):
        if word != other_word:
            return at if frozenset((word, other_word)) in pairs else None
    return None
