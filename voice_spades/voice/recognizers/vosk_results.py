"""Reading Vosk's answers against the allowed phrases (no model needed).

Vosk decodes against a grammar, the JSON list of allowed phrases plus
``"[unk]"``, which soaks up speech that is none of them. It answers with an
n-best list (``SetMaxAlternatives``); each entry's ``confidence`` is a
log-likelihood, so the entries' shares of the summed likelihood are their
probabilities. ``"[unk]"`` and other non-phrases keep their share, which lowers
the confidence of the phrases beside them. The best entry must be one of the
allowed phrases; ``"[unk]"``, empty text or any other word sequence is a
rejection. Utterances that Vosk's endpointing cut in parts are merged by
:func:`combine_segments`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

UNKNOWN = "[unk]"
"""Vosk's catch-all grammar entry for speech outside the phrases."""


def grammar_json(phrases: Sequence[str], unknown: bool = True) -> str:
    """Return the Vosk grammar for ``phrases``: a JSON list of them plus ``"[unk]"``
    (left out when ``unknown`` is False: a model whose vocabulary lacks it).

    Letters outside ASCII stay as they are: Vosk reads ``"\\u00e8"`` as those six
    characters, a word no model knows, and would silently drop it ("più", "trèfle").
    """
    entries = [*phrases, UNKNOWN] if unknown else list(phrases)
    return json.dumps(entries, ensure_ascii=False)


@dataclass(frozen=True)
class Heard:
    """One Vosk result read against the allowed phrases.

    ``text`` is an allowed phrase (normalized spelling) or None for a
    rejection, whose ``reason`` says why. ``alternatives`` are the allowed
    phrases among the n-best entries with their probabilities, best first.
    ``raw_text`` is what Vosk said, "[unk]" included.
    """

    text: str | None
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    raw_text: str
    reason: str | None = None


def parse_result(result: str | Mapping[str, Any], phrases: Collection[str],
                 score_scale: float = 1.0) -> Heard:
    """Read a Vosk result (its JSON text or the decoded object) against ``phrases``.

    Two shapes are understood. With ``SetMaxAlternatives(n)``:
    ``{"alternatives": [{"text": ..., "confidence": <log-likelihood>}, ...]}``;
    the probability of each entry is its softmax share of the log-likelihoods
    (times ``score_scale``). Without: ``{"text": ..., "result": [{"word",
    "conf", "start", "end"}, ...]}``; the confidence is the mean word
    ``conf`` (1.0 when Vosk gave no words). "[unk]", empty text and text that
    is not an allowed phrase are rejections.
    """
    data: Mapping[str, Any] = json.loads(result) if isinstance(result, str) else result
    if "alternatives" in data:
        entries = [(str(e.get("text", "")).strip(), float(e.get("confidence", 0.0)))
                   for e in data.get("alternatives") or ()]
        shares = _softmax([score * score_scale for _, score in entries])
        ranked = list(zip([text for text, _ in entries], shares, strict=True))
    else:
        text = str(data.get("text", "")).strip()
        words = data.get("result") or ()
        confs = [float(w["conf"]) for w in words if "conf" in w]
        ranked = [(text, sum(confs) / len(confs) if confs else 1.0)]
    return _decide(ranked, phrases)


def _softmax(scores: Sequence[float]) -> list[float]:
    if not scores:
        return []
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def _decide(ranked: Sequence[tuple[str, float]], phrases: Collection[str]) -> Heard:
    """Pick the best of ``ranked`` (text, probability), which need not be sorted."""
    merged: dict[str, float] = {}
    for text, share in ranked:
        merged[text] = merged.get(text, 0.0) + share
    order = sorted(merged.items(), key=lambda item: item[1], reverse=True)
    alternatives = tuple((text, share) for text, share in order if text in phrases)
    if not order or not order[0][0]:
        return Heard(None, 0.0, alternatives, "", "heard nothing")
    best, share = order[0]
    if best in phrases:
        return Heard(best, share, alternatives, best)
    reason = ("speech outside the allowed phrases" if UNKNOWN in best.split()
              else "not one of the allowed phrases")
    return Heard(None, 0.0, alternatives, best, reason)


def combine_segments(segments: Sequence[Heard]) -> Heard:
    """Merge the results of one utterance that Vosk's endpointing split in parts.

    Empty segments (silence) are ignored. Exactly one distinct phrase among
    the segments (the rest "[unk]", a cough say) is accepted; two different
    phrases are a rejection listing both.
    """
    spoken = [heard for heard in segments if heard.raw_text]
    if not spoken:
        return Heard(None, 0.0, (), "", "heard nothing")
    accepted = [heard for heard in spoken if heard.text is not None]
    if not accepted:
        return spoken[-1]
    if len({heard.text for heard in accepted}) == 1:
        return max(accepted, key=lambda heard: heard.confidence)
    alternatives = tuple(pair for heard in accepted for pair in heard.alternatives[:1])
    raw = " / ".join(heard.raw_text for heard in spoken)
    return Heard(None, 0.0, alternatives, raw, "heard more than one phrase")
