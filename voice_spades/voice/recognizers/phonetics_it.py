"""Italian words in PocketSphinx's English phones, by Italian spelling rules.

PocketSphinx ships an English acoustic model only. It can still hear a small
Italian grammar when every Italian word is written in its phone set (ARPAbet);
Italian spelling maps to sounds almost rule by rule, so the pronunciations come
from the rules in ``phonetics_it.toml`` (data) applied here (code): longest
spelling first, with a condition on the letter that follows, then the English
model's likely hearings of each Italian sound as alternatives.

>>> pronounce("quattro")[0], "K W AA T ER OW" in pronounce("quattro")
('K W AA T R OW', True)
>>> pronounce("più")[0], pronounce("cinque")[0], pronounce("gli")[0]
('P Y UW', 'CH IY N K W EH', 'L Y IY')
"""

from __future__ import annotations

import itertools
import tomllib
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULES_FILE = Path(__file__).with_name("phonetics_it.toml")
VOWEL_PHONES = frozenset(("AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY",
                          "OW", "OY", "UH", "UW"))


@dataclass(frozen=True, slots=True)
class SpellingRules:
    """The rules of ``phonetics_it.toml``: (spelling, condition, alternatives) longest
    spelling first, and the letter classes the conditions use."""

    rules: tuple[tuple[str, str, tuple[str, ...]], ...]
    vowels: frozenset[str]
    front: frozenset[str]
    voiced: frozenset[str]
    r_after_consonant: tuple[str, ...]
    max_variants: int


@cache
def spelling_rules(path: Path = RULES_FILE) -> SpellingRules:
    """The rules file, read and checked once."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    rules = []
    for spelling, condition, phones in data["rules"]:
        if condition not in ("", "front", "vowel", "consonant", "end", "voiced", "glide",
                             "velar"):
            raise ValueError(f"{path.name}: unknown condition {condition!r} for {spelling!r}")
        rules.append((spelling, condition, tuple(p.strip() for p in phones.split("|"))))
    rules.sort(key=lambda rule: -len(rule[0]))  # stable: the file's order among equals
    return SpellingRules(tuple(rules), frozenset(data["vowels"]), frozenset(data["front"]),
                         frozenset(data["voiced"]),
                         tuple(data["r_after_consonant"].split("|")), int(data["max_variants"]))


def _letters(word: str) -> str:
    """The word's letters as the rules read them: lower case, no apostrophe, double
    consonants single ("quattro" -> "quatro")."""
    text = unicodedata.normalize("NFC", word.lower()).replace("'", "").replace("\u2019", "")
    out: list[str] = []
    for letter in text:
        if out and letter == out[-1] and letter not in "aeiouàèéìíòóùú":
            continue
        out.append(letter)
    return "".join(out)


def _holds(condition: str, letters: str, start: int, end: int, rules: SpellingRules) -> bool:
    after = letters[end] if end < len(letters) else ""
    before = letters[start - 1] if start > 0 else ""
    match condition:
        case "":
            return True
        case "front":
            return after in rules.front and after != ""
        case "vowel":
            return after in rules.vowels and after != ""
        case "consonant":
            return after != "" and after not in rules.vowels
        case "end":
            return after == ""
        case "voiced":
            return after in rules.voiced and after != ""
        case "velar":  # a hard c or g, q or k follows: "tengo", "cinque", "anche"
            following = letters[end + 1] if end + 1 < len(letters) else ""
            if after in ("q", "k"):
                return True
            return after in ("c", "g") and following not in rules.front
        case _:  # "glide": between a consonant and a vowel
            return before != "" and before not in rules.vowels and after in rules.vowels \
                and after != ""


def segments(word: str, rules: SpellingRules | None = None) -> list[tuple[str, ...]]:
    """The word as a list of sounds, each a tuple of alternative phone strings."""
    rules = rules or spelling_rules()
    letters = _letters(word)
    found: list[tuple[str, ...]] = []
    at = 0
    while at < len(letters):
        found_rule = next(((spelling, phones) for spelling, condition, phones in rules.rules
                           if letters.startswith(spelling, at)
                           and _holds(condition, letters, at, at + len(spelling), rules)), None)
        if found_rule is None:
            raise ValueError(f"no Italian spelling rule reads {letters[at]!r} in {word!r}")
        spelling, phones = found_rule
        end = at + len(spelling)
        if phones != ("",):
            if phones == ("R",) and found and found[-1][0].split()[-1] not in VOWEL_PHONES:
                phones = rules.r_after_consonant
            if not (found and len(phones) == 1 and found[-1] == phones
                    and phones[0] not in VOWEL_PHONES):
                found.append(phones)
        at = end
    return found


def pronounce(word: str, rules: SpellingRules | None = None) -> list[str]:
    """Pronunciations of an Italian word in ARPAbet, the most likely first: every
    combination of the alternatives, fewest departures from the first choice first,
    at most the rules' ``max_variants``."""
    rules = rules or spelling_rules()
    sounds = segments(word, rules)
    choices = [range(len(options)) for options in sounds]
    ranked = sorted(itertools.product(*choices), key=lambda picks: sum(p > 0 for p in picks))
    spoken: list[str] = []
    for picks in ranked:
        text = " ".join(" ".join(sounds[i][p].split()) for i, p in enumerate(picks))
        text = " ".join(text.split())
        if text and text not in spoken:
            spoken.append(text)
        if len(spoken) >= rules.max_variants:
            break
    return spoken
