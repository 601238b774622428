"""Words of a language other than English in PocketSphinx's English phone set.

PocketSphinx's built-in model is English; to hear Italian or French the decoder is
given each word of the phrases as a separate dictionary entry, tagged with its
language ("it:re", so that the English "re" keeps its own sounds and neither leaks
into the other), whose pronunciations are:

* Italian: the lexicon's hand-written ones, then those of the spelling rules
  (:mod:`.phonetics_it`);
* French: the lexicon's hand-written ones only (French spelling is far from its
  sounds; ``lexicon_fr.toml`` writes every word of the game).

>>> token("re", "it"), word_of("it:re")
('it:re', 're')
"""

from __future__ import annotations

import contextlib
import itertools

from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.recognizers.phonetics_it import pronounce as pronounce_italian

SEPARATOR = ":"


def with_alternatives(phones: str, lexicon: Lexicon) -> list[str]:
    """``phones`` and its variants with the lexicon's phone alternatives (a French "R"
    also heard as "HH", "L" or not at all), fewest changes first, at most the lexicon's
    ``max_variants``.

    >>> from voice_spades.voice.lexicon import lexicon_for
    >>> with_alternatives("T R W AA", lexicon_for("fr"))
    ['T R W AA', 'T HH W AA', 'T L W AA', 'T W AA']
    """
    options = [lexicon.phone_alternatives.get(p, (p,)) for p in phones.split()]
    picks = sorted(itertools.product(*(range(len(o)) for o in options)),
                   key=lambda chosen: sum(c > 0 for c in chosen))
    spelt: list[str] = []
    for chosen in picks:
        text = " ".join(p for i, c in enumerate(chosen) for p in options[i][c].split())
        if text and text not in spelt:
            spelt.append(text)
            if len(spelt) >= lexicon.max_variants:
                break
    return spelt


def token(word: str, language: str) -> str:
    """The dictionary entry of ``word`` in ``language``."""
    return f"{language}{SEPARATOR}{word}"


def word_of(entry: str) -> str:
    """The word of a dictionary entry made by :func:`token`."""
    return entry.partition(SEPARATOR)[2]


def pronunciations_for(word: str, lexicon: Lexicon) -> list[str]:
    """Every pronunciation of ``word`` in the lexicon's language, in ARPAbet, the
    hand-written ones first, each with the lexicon's phone alternatives spelt out
    (unless the lexicon keeps the word ``as_written``); empty when the word cannot be
    pronounced."""
    found: list[str] = []
    for written in lexicon.pronunciations.get(word, ()):
        spelt = [written] if word in lexicon.as_written \
            else with_alternatives(written, lexicon)
        found += [p for p in spelt if p not in found]
    if lexicon.language == "it":
        with contextlib.suppress(ValueError):  # a letter no Italian rule reads
            found += [p for p in pronounce_italian(word) if p not in found]
    return found
