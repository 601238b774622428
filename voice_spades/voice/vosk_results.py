"""Reading Vosk's JSON results into ranked phrases.

Vosk answers in two shapes. With ``SetMaxAlternatives(n)``::

    {"alternatives": [{"confidence": 232.6, "result": [...], "text": "bid four"},
                      {"confidence": 225.1, "result": [...], "text": "bid for"}]}

where ``confidence`` is an unbounded lattice score (bigger is better) and the
words carry no confidence. Without alternatives::

    {"result": [{"conf": 0.93, "end": 1.2, "start": 0.9, "word": "bid"}, ...],
     "text": "bid four"}

with a posterior ``conf`` per word. Nothing heard is ``{"text": ""}``. Out of
grammar speech shows up as the ``[unk]`` word.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

UNKNOWN = "[unk]"


@dataclass(frozen=True)
class VoskHeard:
    """One Vosk segment, reduced to what the game needs.

    ``candidates`` are (text, probability) best first, probabilities summing
    to 1 over the listed texts; ``word_confidence`` is the lowest per-word
    confidence when Vosk gave them (the shape without alternatives).
    """

    candidates: tuple[tuple[str, float], ...]
    word_confidence: float | None

    @property
    def text(self) -> str:
        """The best text ('' when nothing was heard)."""
        return self.candidates[0][0] if self.candidates else ""


def parse_result(raw: str | Mapping[str, Any], score_scale: float = 10.0) -> VoskHeard:
    """Parse one Vosk result (``Result()``/``FinalResult()`` JSON or its dict).

    Alternative scores become probabilities by a softmax of ``score /
    score_scale``; alternatives with the same text are merged.
    """
    data: Mapping[str, Any] = json.loads(raw) if isinstance(raw, str) else raw
    alternatives = data.get("alternatives")
    if isinstance(alternatives, list):
        return _from_alternatives(alternatives, score_scale)
    text = _clean(data.get("text", ""))
    if not text:
        return VoskHeard((), None)
    words = data.get("result") or []
    confidences = [float(w["conf"]) for w in words if isinstance(w, dict) and "conf" in w]
    return VoskHeard(((text, 1.0),), min(confidences) if confidences else None)


def _from_alternatives(alternatives: Iterable[Any], score_scale: float) -> VoskHeard:
    scored: dict[str, float] = {}
    for item in alternatives:
        if not isinstance(item, dict):
            continue
        text = _clean(item.get("text", ""))
        score = float(item.get("confidence", 0.0))
        if text not in scored or score > scored[text]:
            scored[text] = score
    if not scored or set(scored) == {""}:
        return VoskHeard((), None)
    top = max(scored.values())
    weights = {text: math.exp((score - top) / score_scale) for text, score in scored.items()}
    total = sum(weights.values())
    ranked = sorted(((text, weight / total) for text, weight in weights.items()),
                    key=lambda pair: pair[1], reverse=True)
    return VoskHeard(tuple(ranked), None)


def _clean(text: object) -> str:
    return " ".join(str(text).split()) if text else ""


def has_unknown(text: str) -> bool:
    """True when Vosk put out-of-grammar speech into ``text``."""
    return UNKNOWN in text.split()


def grammar_json(phrases: Iterable[str]) -> str:
    """The grammar argument of ``KaldiRecognizer``: the phrases plus ``[unk]``."""
    return json.dumps([*phrases, UNKNOWN])
