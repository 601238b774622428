"""Turning allowed phrases into a PocketSphinx finite-state grammar.

Each phrase becomes one path of words from the start state to the final
state, with shared leading words merged (a prefix tree), so the decoder can
only ever answer with a complete allowed phrase. Words the dictionary lacks are
reported, and phrases that sound exactly alike are grouped so the decoder
chooses among distinguishable phrases only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# Cap on spelled-out pronunciations per phrase when looking for homophones.
_MAX_VARIANTS = 32

Transition = tuple[int, int, float, str]
Lookup = Callable[[str], str | None]


def pronunciations(word: str, lookup: Lookup) -> list[str]:
    """Return every dictionary pronunciation of ``word`` ("word", "word(2)", ...)."""
    found: list[str] = []
    first = lookup(word)
    if first is None:
        return found
    found.append(first)
    for variant in itertools.count(2):
        phones = lookup(f"{word}({variant})")
        if phones is None:
            return found
        found.append(phones)
    return found  # pragma: no cover - itertools.count never ends


@dataclass(frozen=True)
class GrammarPlan:
    """What will go into the grammar for one set of normalized phrases.

    ``decodable`` are the phrases the decoder chooses among; ``homophones``
    maps each of them to the other phrases that sound identical (they are
    reported as equally likely alternatives); ``unknown_words`` lists words
    missing from the dictionary, whose phrases were left out;
    ``phone_counts`` gives the fewest phones each decodable phrase can have.
    """

    decodable: tuple[str, ...]
    homophones: dict[str, tuple[str, ...]]
    unknown_words: tuple[str, ...]
    dropped: tuple[str, ...]
    phone_counts: dict[str, int]


def plan_grammar(phrases: Sequence[str], lookup: Lookup) -> GrammarPlan:
    """Check ``phrases`` against the dictionary and group homophones."""
    unknown: list[str] = []
    dropped: list[str] = []
    word_prons: dict[str, list[str]] = {}
    for phrase in phrases:
        for word in phrase.split():
            if word not in word_prons:
                word_prons[word] = pronunciations(word, lookup)
                if not word_prons[word]:
                    unknown.append(word)
    owner_of_sound: dict[str, str] = {}
    homophones: dict[str, list[str]] = {}
    phone_counts: dict[str, int] = {}
    decodable: list[str] = []
    for phrase in phrases:
        options = [word_prons[word] for word in phrase.split()]
        if any(not option for option in options):
            dropped.append(phrase)
            continue
        sounds = [" ".join(combo)
                  for combo in itertools.islice(itertools.product(*options), _MAX_VARIANTS)]
        owner = next((owner_of_sound[s] for s in sounds if s in owner_of_sound), None)
        if owner is None:
            decodable.append(phrase)
            homophones[phrase] = []
            phone_counts[phrase] = sum(min(len(p.split()) for p in option) for option in options)
            owner = phrase
        else:
            homophones[owner].append(phrase)
        for sound in sounds:
            owner_of_sound.setdefault(sound, owner)
    return GrammarPlan(
        tuple(decodable),
        {phrase: tuple(others) for phrase, others in homophones.items()},
        tuple(unknown),
        tuple(dropped),
        phone_counts,
    )


def prefix_tree(phrases: Sequence[str]) -> tuple[list[Transition], int]:
    """Return FSG transitions (from, to, probability, word) and the final state.

    State 0 is the start and state 1 the final state; phrases sharing leading
    words share states. All probabilities are 1 so no phrase is favoured.
    """
    final = 1
    states: dict[tuple[str, ...], int] = {(): 0}
    transitions: list[Transition] = []
    seen: set[tuple[int, int, str]] = set()

    def add(source: int, target: int, word: str) -> None:
        if (source, target, word) not in seen:
            seen.add((source, target, word))
            transitions.append((source, target, 1.0, word))

    for phrase in phrases:
        words = phrase.split()
        for depth in range(len(words) - 1):
            key = tuple(words[: depth + 1])
            if key not in states:
                states[key] = len(states) + 1  # +1 skips the final state's number
            add(states[tuple(words[:depth])], states[key], words[depth])
        add(states[tuple(words[:-1])], final, words[-1])
    return transitions, final


GARBAGE_FILE = Path(__file__).with_name("garbage_words.txt")
"""Common English words, most probable first, for :func:`garbage_loop`."""


@cache
def garbage_vocabulary() -> tuple[str, ...]:
    """The words of :data:`GARBAGE_FILE` (comments and blank lines left out)."""
    lines = GARBAGE_FILE.read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@cache
def language_garbage(language: str) -> tuple[str, ...]:
    """Common words of ``language`` for its garbage model (``garbage_words_<language>.txt``
    beside this module), empty when there is no such list."""
    path = GARBAGE_FILE.with_name(f"garbage_words_{language}.txt")
    if not path.is_file():
        return ()
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def garbage_loop(phrases: Sequence[str], transitions: Sequence[Transition], final: int,
                 words: int, probability: float,
                 first: Sequence[str] = ()) -> list[Transition]:
    """Transitions of a garbage model beside the phrases: any sequence of the first
    ``words`` common words that no phrase uses (``first``, then English's), each costing
    ``probability``. Speech that is no phrase (table talk) fits such a sequence better
    than any phrase, and the decoder answers with it: a rejection. Empty when ``words``
    is 0."""
    if words <= 0:
        return []
    # A phrase word tagged with its language ("it:no") rules out the English "no" too.
    used = {form for phrase in phrases for word in phrase.split()
            for form in (word, word.rpartition(":")[2])}
    vocabulary = [w for w in (*first, *garbage_vocabulary()) if w not in used][:words]
    loop = 1 + max((max(a, b) for a, b, _, _ in transitions), default=final)
    out: list[Transition] = []
    for word in vocabulary:
        out += [(0, loop, probability, word), (loop, loop, probability, word),
                (0, final, probability, word), (loop, final, probability, word)]
    return out
