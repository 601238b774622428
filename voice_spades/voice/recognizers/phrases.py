"""Phrase normalization shared by the recognizer backends.

Phrases arrive as the game writes them ("What’s on the table?"); recognizers
need plain lower-case words ("what's on the table"). :class:`PhraseSet` keeps
both so a recognizer can answer with the caller's own spelling.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'",
                              "\u00b4": "'"})
_NOT_WORD = re.compile(r"(?:[^\w' ]|_)+")


def normalize_phrase(phrase: str) -> str:
    """Return ``phrase`` as lower-case words separated by single spaces.

    Letters keep their accents (composed: "più", "cœur"); typographic apostrophes
    become ``'``; other punctuation becomes a space; apostrophes that do not sit
    inside a word are dropped.
    """
    text = unicodedata.normalize("NFC", phrase.translate(_APOSTROPHES).lower())
    text = text.replace("-", " ")
    text = _NOT_WORD.sub(" ", text)
    words = [word.strip("'") for word in text.split()]
    return " ".join(word for word in words if word)


@dataclass(frozen=True)
class PhraseSet:
    """The allowed phrases: normalized forms and the caller's spellings.

    ``normalized`` holds each distinct normalized phrase once, in first-seen
    order; ``original`` maps it back to the first spelling that produced it.
    """

    normalized: tuple[str, ...]
    original: dict[str, str]

    @classmethod
    def build(cls, phrases: Sequence[str]) -> PhraseSet:
        """Normalize ``phrases``, dropping empty ones and duplicates."""
        original: dict[str, str] = {}
        for phrase in phrases:
            norm = normalize_phrase(phrase)
            if norm and norm not in original:
                original[norm] = phrase
        return cls(tuple(original), original)

    def words(self) -> set[str]:
        """Return every distinct word used by the phrases."""
        return {word for phrase in self.normalized for word in phrase.split()}

    def __len__(self) -> int:
        return len(self.normalized)
