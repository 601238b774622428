"""Turning the PocketSphinx recognizer's raw search scores into a decision.

The verification compares the winner with the free phone loop; the alternatives
weigh the ranked phrases against each other. Both work per frame, so that long
and short utterances are judged alike.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable

from voice_spades.voice.recognizers.phrases import PhraseSet
from voice_spades.voice.recognizers.pocketsphinx_grammar import GrammarPlan
from voice_spades.voice.recognizers.pocketsphinx_tuning import PocketSphinxTuning

Ranked = list[tuple[str, int]]
"""Normalized phrases, best first, with their raw log scores."""


def verification(gap: float, tuning: PocketSphinxTuning) -> float:
    """How phrase-like the speech is, in [0, 1], from the per-frame gap between the
    winner and the free phone loop (a logistic centred on ``tuning.verify_center``)."""
    return _logistic(gap, tuning.verify_center, tuning.verify_scale)


def alone_verification(gap: float, tuning: PocketSphinxTuning) -> float:
    """:func:`verification` of the winner searched alone, from its gap per frame of
    speech (a logistic centred on ``tuning.alone_center``)."""
    return _logistic(gap, tuning.alone_center, tuning.alone_scale)


def _logistic(gap: float, center: float, scale: float) -> float:
    return 1.0 / (1.0 + math.exp(-(gap - center) / scale))


def alternatives(ranked: Ranked, frames: int, tuning: PocketSphinxTuning, plan: GrammarPlan,
                 phrases: PhraseSet) -> tuple[tuple[str, float], ...]:
    """Probabilities of the ranked phrases, in the caller's spelling; homophones share
    their group's weight."""
    top = ranked[0][1]
    temperature = tuning.score_temperature * frames
    weights = [math.exp((score - top) / temperature) for _, score in ranked]
    total = sum(weight * (1 + len(plan.homophones[text]))
                for (text, _), weight in zip(ranked, weights, strict=True))
    return tuple(
        (phrases.original[member], weight / total)
        for (text, _), weight in zip(ranked, weights, strict=True)
        for member in (text, *plan.homophones[text])
    )


def runner_up_candidates(ranked: Ranked, plan: GrammarPlan, groups: dict[str, Hashable],
                         other_meanings: bool) -> tuple[str, ...]:
    """The phrases the next runner-up is searched among: all but those ranked already
    (with ``other_meanings``, all but those meaning the same as one of them)."""
    found = {text for text, _ in ranked}
    if other_meanings and groups:
        meant = {groups.get(text) for text in found} - {None}
        found |= {p for p, group in groups.items() if group in meant}
    return tuple(p for p in plan.decodable if p not in found)


def beginnings(decodable: tuple[str, ...]) -> tuple[str, ...]:
    """The phrases, then every beginning of one that is no phrase itself."""
    known = set(decodable)
    extra = dict.fromkeys(
        beginning for phrase in decodable
        for beginning in itertools.accumulate(phrase.split()[:-1], lambda a, b: f"{a} {b}")
        if beginning not in known)
    return decodable + tuple(extra)
