"""The spoken vocabulary, loaded from ``lexicon.toml``.

Vocabulary is data: rank, suit and number words, the phrase templates of every
action, query, answer and command, the filler words a player may add or drop, and
the likely mishearings with their substitution costs: variants (homophones an
open-vocabulary recognizer may write) and risky pairs (grammar words that
recognizers confuse), and pronunciations the recognizer's dictionary lacks.
:mod:`.understanding.grammar` expands it into phrases; :mod:`.understanding.meaning`
scores what was heard with its costs; the PocketSphinx recognizer adds the
pronunciations to its dictionary.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from voice_spades.commands import Control, Query

LEXICON_FILE = Path(__file__).with_name("lexicon.toml")
"""The lexicon shipped with the game."""

ACTION_KEYS = ("card", "highest", "lowest", "play-it", "bid", "nil", "blind-nil",
               "no-blind-nil", "keep", "discard", "mark", "exchange-marked", "no-exchange")
ANSWER_KEYS = ("yes", "no", "cancel")
LISTENING_KEYS = ("sleep", "wake")
_ARPABET = re.compile(r"[A-Z]{1,2}( [A-Z]{1,2})*")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Words and phrase templates; see ``lexicon.toml`` for the placeholders."""

    ranks: Mapping[int, tuple[str, ...]]
    numbers: Mapping[int, str]
    actions: Mapping[str, tuple[str, ...]]
    answers: Mapping[str, tuple[str, ...]]
    queries: Mapping[Query, tuple[str, ...]]
    commands: Mapping[Control, tuple[str, ...]]
    listening: Mapping[str, tuple[str, ...]]
    """The sleep word: "sleep" phrases stop listening, "wake" phrases start again."""
    fillers: frozenset[str]
    filler_cost: float
    variants: Mapping[frozenset[str], float]
    """Homophones and spelling variants: ("four", "for")."""
    risky: Mapping[frozenset[str], float]
    """Grammar words recognizers confuse: ("eight", "ace")."""
    pronunciations: Mapping[str, tuple[str, ...]]
    """Extra ARPAbet pronunciations per word: {"hearts": ("HH AA T S",)}."""

    def substitution_cost(self, heard: str, said: str, *, risky: bool = False) -> float:
        """Cost of hearing ``heard`` where a phrase has ``said``: 0 if equal, the
        variant's cost for a known variant (and, with ``risky``, a risky pair's),
        else 1."""
        if heard == said:
            return 0.0
        pair = frozenset((heard, said))
        cost = self.variants.get(pair, 1.0)
        return min(cost, self.risky.get(pair, 1.0)) if risky else cost

    def gap_cost(self, word: str) -> float:
        """Cost of a word heard but not in the phrase, or the other way round."""
        return self.filler_cost if word in self.fillers else 1.0


def load_lexicon(path: Path = LEXICON_FILE) -> Lexicon:
    """Read and check a lexicon file; raises ValueError on an unknown key."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    queries = {Query(key): tuple(value) for key, value in data["queries"].items()}
    commands = {Control(key): tuple(value) for key, value in data["commands"].items()}
    actions = {key: tuple(value) for key, value in data["actions"].items()}
    answers = {key: tuple(value) for key, value in data["answers"].items()}
    listening = {key: tuple(value) for key, value in data["listening"].items()}
    for keys, found, section in ((ACTION_KEYS, actions, "actions"),
                                 (ANSWER_KEYS, answers, "answers"),
                                 (LISTENING_KEYS, listening, "listening")):
        if set(keys) != set(found):
            raise ValueError(f"lexicon [{section}] must define exactly {', '.join(keys)}")
    variants: dict[frozenset[str], float] = {}
    for group in data.get("variants", []):
        for pair in group["pairs"]:
            variants[frozenset(pair)] = float(group["cost"])
    risky = data.get("risky", {"cost": 1.0, "pairs": []})
    pronunciations = {word: tuple(phones)
                      for word, phones in data.get("pronunciations", {}).items()}
    for word, spoken in pronunciations.items():
        for phones in spoken:
            if not _ARPABET.fullmatch(phones):
                raise ValueError(f"lexicon [pronunciations] {word}: {phones!r} is not "
                                 "ARPAbet phones separated by spaces")
    return Lexicon(
        ranks={int(rank): tuple(words) for rank, words in data["ranks"].items()},
        numbers={int(n): word for n, word in data["numbers"].items()},
        actions=actions, answers=answers, queries=queries, commands=commands,
        listening=listening,
        fillers=frozenset(data["fillers"]["words"]),
        filler_cost=float(data["fillers"]["cost"]),
        variants=variants,
        risky={frozenset(pair): float(risky["cost"]) for pair in risky["pairs"]},
        pronunciations=pronunciations)


@cache
def default_lexicon() -> Lexicon:
    """The shipped lexicon, loaded once."""
    return load_lexicon()
