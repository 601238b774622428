"""Issue 48, point 8: the Italian and French catalogs as a native player reads them, in
the rule texts' own words (seeds 000-004): no calque left in any sentence the game can
say, every verbosity and sample rendered."""

from __future__ import annotations

import re

import pytest

from tests.narration.test_translations import _MARKER, RULES, renderings
from voice_spades.engine import profile
from voice_spades.narration import Phrasebook, Verbosity
from voice_spades.narration.catalog import Catalog
from voice_spades.narration.forms import capital
from voice_spades.narration.templates import load_templates

CALQUES = {
    "it": {
        r"(?i)\bbags?\b": 'the English "bag": the seeds say "sacchi"',
        r"(?i)\bpicche\b[^.]*\brott[ei]\b|\brott[oi] le picche": '"rompere le picche"',
        r"(?i)\bin piedi\b": '"Nil ancora in piedi"',
        r"(?i)\bchi scende\b|\bchiude la partita\b": '"Chi scende ... chiude la partita"',
    },
    "fr": {
        r"(?i)\bêtes en (?:Sud|Nord|Est|Ouest)": '"Vous êtes en Sud" (vous jouez Sud)',
        r"(?i)\bfait \d": '"fait 5" (5 plis)',
        r"(?i)\bnil chuté pour\b|^Nil chuté|: nil chuté": '"Nil chuté pour ..."',
    },
}
"""Each wording the issue reports, as a pattern, and what it was."""


def every_sentence(language: str) -> list[tuple[str, str]]:
    """(where, sentence) for every message, verbosity and sample of ``language``."""
    english = load_templates("en")
    catalog = Catalog(language, strict=True)
    books = {v: Phrasebook(RULES, 0, v, words=catalog) for v in Verbosity}
    found = []
    for message_id in sorted(catalog.templates):
        for where, text in renderings(language, message_id, catalog.templates[message_id],
                                      english[message_id], books.__getitem__):
            assert isinstance(text, str), (where, text)
            found.append((where, _MARKER.sub("", text)))
    return found


@pytest.mark.parametrize("language", sorted(CALQUES))
def test_no_sentence_keeps_a_reported_calque(language: str) -> None:
    left = [f"{where}: {why}: {text!r}" for where, text in every_sentence(language)
            for pattern, why in CALQUES[language].items() if re.search(pattern, text)]
    assert left == [], "\n".join(left[:20])


@pytest.mark.parametrize(("language", "said"), [
    ("it", ["Nord 120 con 3 bag.", "Hai rotto le picche.", "Le picche non sono ancora rotte.",
            "Nil ancora in piedi per te", " Chi scende a -500 o sotto chiude la partita."]),
    ("fr", ["Vous êtes en Sud.", "Ouest: annonce 3, fait 5", "Nil chuté pour Ouest.",
            "Ouest: nil chuté."]),
])
def test_the_checks_find_each_calque(language: str, said: list[str]) -> None:
    found = [text for text in said for pattern in CALQUES[language]
             if re.search(pattern, text)]
    assert found == said


def test_italian_bags_are_sacchi_and_one_is_said_un_sacco() -> None:
    words = Phrasebook(profile(), 0, words=Catalog("it", strict=True))
    assert [words.bags(n) for n in (0, 1, 3)] == ["0 sacchi", "1 sacco", "3 sacchi"]
    spades = words.say("spades.broken", seat=words.seat(1))
    assert spades == "Ovest ha giocato picche: ora si può uscire a picche."


def test_french_failed_nil_is_chuter_for_the_listener_and_the_others() -> None:
    words = Phrasebook(profile(), 0, words=Catalog("fr", strict=True))
    said = [words.say("nil.broken", whose=words.whose(seat), Whose=capital(words.whose(seat)))
            for seat in (0, 1, 2)]
    assert said == ["Vous chutez votre nil.", "Ouest chute son nil.",
                    "Votre partenaire Nord chute son nil."]
    assert words.say("session.seating_partner", place=words.compass(0),
                     partner_place=words.compass(2)) == \
        "Vous jouez Sud\u202f; votre partenaire joue Nord."
    assert [words.say("word.seat_bid_took", seat=words.seat(1), bid=3, took=n)
            for n in (1, 5)] == ["Ouest\u202f: annonce 3, 1 pli", "Ouest\u202f: annonce 3, 5 plis"]
