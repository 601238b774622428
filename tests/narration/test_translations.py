"""The Italian and French catalogs translate every English message, keep its fields, and
leave no English behind.

* Every id of ``en/`` is in ``it/`` and ``fr/``, and they have no id English lacks.
* Each verbosity of a translation names the same fields as the English one (a field's
  capital and its form, ``{Seat:Hai|ha}``, ``{card:the}``, do not count).
* Every message renders, at every verbosity, strictly (a form the value lacks is an
  error) for sample values that are the game's own: cards of every rank (ace and eight
  for the elided articles) and every suit, seats that are the listener, the partner and
  opponents, both sides, counts 0, 1, 2, 3 and 5. The sentence keeps no brace and no
  English word: the words of the English catalog, less the shared ones the rule texts
  use in Italian and French (Nil, Boston...) and each language's own words that
  happen to be spelled like English ones ("come", "plus").

Plain text fields (a reason, a path, a key name) get a marker (``§reason§``) that is
taken out before the words are read: what is checked is the translation's own words.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator, Mapping

import pytest

from voice_spades.engine import PROFILE_NAMES, Bid, Card, Seat, Suit, mask_of, profile
from voice_spades.messages import Message
from voice_spades.narration import Phrasebook, Verbosity
from voice_spades.narration.catalog import Catalog, CatalogError
from voice_spades.narration.forms import Spelled, capital
from voice_spades.narration.templates import Template, load_templates

TRANSLATIONS = ("it", "fr")
RULES = profile("pagat")  # you South (0), West (1), partner North (2), East (3)

SHARED_WORDS = frozenset({
    "nil", "blind", "boston", "spades",
    "vosk", "pocketsphinx", "espeak", "pyttsx", "portaudio", "prismatoid", "sqlite",
    "postgresql",
    "tab", "ctrl", "shift", "alt",
    "true", "false", "auto", "hell", "quicksand", "suicide",
})
"""Words Italian and French players use as they are: the rule texts' own Nil, blind nil
and Boston (a bag is "sacco" in Italian and "sac" in French, as the seeds say), the
game's name, program and key names, values typed in a file or an option (true, false,
auto), and the Playroom's variants as its options name them (--no-hell, --quicksand,
--suicide)."""

SAME_SPELLING: Mapping[str, frozenset[str]] = {
    "it": frozenset({
        "in", "no", "per", "far", "decide", "file", "computer", "bonus", "audio",
        "standard", "backspace", "screen", "reader", "volume", "stereo", "server", "chat",
        "serve", "database", "browser",
    }),
    "fr": frozenset({
        "as", "en", "on", "plus", "point", "points", "total", "score", "scores", "table",
        "question", "message", "messages", "option", "options", "action", "page", "part",
        "minute", "minutes", "moment", "chance", "long", "normal", "possible", "machine", "archive",
        "mono", "go", "audio", "standard", "silence", "section", "sections", "terminal",
        "apostrophe", "exclamation", "place", "volume", "centre", "phrase", "phrases",
        "code", "codes", "version", "tables", "port",
    }),
}
"""Each language's own words spelled like a word of the English catalog (Italian "per",
French "plus", "table", "as"): never English in that language's sentences. A word a
translation uses that the test takes for English goes here, if it is the language's."""

TYPED_IN: Mapping[str, frozenset[str]] = {
    "speech_choice.option_help": frozenset({"screen", "reader", "voice", "text"}),
    "sound.option.sounds": frozenset({"on", "off"}),
    "speech_choice.reader_lines_help": frozenset({"console", "speech", "orca"}),
}
"""Words a message lists as the player types them (an option's choices), by id."""

_MARK = "§"
_MARKER = re.compile(_MARK + r"\w+" + _MARK)
_NAMES = [
    _MARKER,
    re.compile(r"\bVoice Spades\b"),  # the game's name
    re.compile(r"\bvoice[-_]spades(?: (?:[\w|\[\]-]+|--?[\w-]+))*"),  # a command
    re.compile(r"\bplay --help\b|\b(?:minus-)?target\b(?= \()"),  # typed: choices
    re.compile(r"(?<!\w)'[^'\n]{1,30}'(?!\w)|«[^»\n]{1,40}»"),  # quoted: keys typed
    re.compile(r"\b(?:espeak-ng|alsa-utils|aplay|vosk-(?:en|it|fr)|Speech Dispatcher)\b"),
    re.compile(r"(?<=--speech )[\w-]+"),  # an option's value, as typed
    re.compile(r"(?<=--reader-lines )[\w-]+"),
    re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*"),  # options typed: --language, -h
    re.compile(r"\b(?:en|it|fr)\b(?= \()"),  # language codes: "it (italiano)"
    re.compile(r"[^\W\d_]+['’](?=[^\W\d_])"),  # elided words: l', all', d', qu'
    re.compile(r"\S+\.(?:toml|json|zip|wav|txt|py|fst)\b|vosk-model[\w.-]*"),  # files
    re.compile(r"\bContent-Range\b"),  # an HTTP header
    re.compile(r"\S+://\S+"),  # addresses
    re.compile(r"\b[A-Z][A-Z0-9_]+\b"),  # VOICE_SPADES_HOME, NAME, QH
    re.compile(r"\[[\w.-]+\]"),  # a keymap section: [keys]
    re.compile("|".join(re.escape(n) for n in sorted(PROFILE_NAMES, key=len, reverse=True))),
]
"""What a sentence names rather than says: markers, options, files, addresses, the
rule profiles' names."""

CARDS = tuple(Card(suit, rank) for rank, suit in zip(range(2, 15), list(Suit) * 4, strict=False))
"""One card of each rank, the suits in turn: 2 of clubs, 3 of diamonds... ace of clubs."""
COUNTS = (0, 1, 2, 3, 5)
COUNTED = {"count", "n", "hands", "over", "wins", "losses", "took", "tricks"}
"""Fields that hold a count of something: tried at every number of :data:`COUNTS`."""
NUMBERS = {
    "trick": 5, "number": 4, "limit": 3, "players": 4, "size": 13, "score": 152,
    "points": 52, "target": 500, "total": 11, "contract": 7, "made": 200, "low": 2,
    "high": 6, "minimum": 4, "allowed": 4, "step": 3, "line": 3, "page": 2, "pages": 5,
    "percent": 40, "sure": 4, "likely": 1, "megabytes": 48, "gigabytes": 2, "penalty": 100,
    "value": 7, "actual": 1200, "code": 404, "done": 12.5,
}
SEAT_FIELDS = {"seat": 0, "turn": 1, "leader": 2, "dealer": 3, "first": 1, "second": 3,
               "winner": 2, "partner": 2}
"""Seat fields and how far each is from the variant's seat (so that they differ)."""
BY_MESSAGE: Mapping[tuple[str, str], object] = {
    ("refusal.suicide_partner_bid", "partner"): 4,
}
"""Fields that hold something else in one message (there the partner's bid)."""
HELD = ((8, 14), (2, 8, 11), (4, 9), (3, 8, 12, 13, 14), (10,))
"""Ranks of one suit for a field that holds cards (five name "and 2 more")."""


# ----- the catalogs' texts --------------------------------------------------------------
def texts_of(template: Template) -> Iterator[tuple[Verbosity, str]]:
    for verbosity in Verbosity:
        form = template.form(verbosity)
        for text in [form] if isinstance(form, str) else form.values():
            yield verbosity, text


def field_names(text: str) -> set[str]:
    """The fields ``text`` names, capitals and forms aside ("{Seat:Hai|ha}" -> seat)."""
    return {name[:1].lower() + name[1:] for _, name, _, _ in string.Formatter().parse(text)
            if name}


def raw_names(text: str) -> set[str]:
    """The fields ``text`` names as written ("Seat" and "seat" apart)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def fields_by_verbosity(template: Template) -> dict[Verbosity, set[str]]:
    found: dict[Verbosity, set[str]] = {v: set() for v in Verbosity}
    for verbosity, text in texts_of(template):
        found[verbosity] |= field_names(text)
    return found


def english_words(templates: Mapping[str, Template]) -> frozenset[str]:
    """Every word the English catalog writes (its fields aside), in lower case."""
    words: set[str] = set()
    for template in templates.values():
        for _, text in texts_of(template):
            for literal, _, _, _ in string.Formatter().parse(text):
                words.update(w.lower() for w in re.findall(r"[^\W\d_]+", literal))
    return frozenset(words)


def english_left(text: str, english: frozenset[str], allowed: frozenset[str]) -> list[str]:
    """The English words in ``text``, a sentence of another language (names aside)."""
    for name in _NAMES:
        text = name.sub(" ", text)
    return [word for word in re.findall(r"[^\W\d_]+", text)
            if len(word) > 1 and word.lower() in english and word.lower() not in allowed]


def missing_and_extra(english: Mapping[str, Template], other: Mapping[str, Template]
                      ) -> tuple[list[str], list[str]]:
    return sorted(set(english) - set(other)), sorted(set(other) - set(english))


def field_changes(english: Mapping[str, Template], other: Mapping[str, Template]
                  ) -> list[str]:
    """"id (verbosity): lost {a}, invented {b}" for each translation that changed fields."""
    changes = []
    for message_id in sorted(set(english) & set(other)):
        ours, theirs = fields_by_verbosity(english[message_id]), \
            fields_by_verbosity(other[message_id])
        for verbosity in Verbosity:
            lost, invented = ours[verbosity] - theirs[verbosity], \
                theirs[verbosity] - ours[verbosity]
            if lost or invented:
                changes.append(f"{message_id} ({verbosity.value}): lost {sorted(lost)}, "
                               f"invented {sorted(invented)}")
    return changes


# ----- sample values ----------------------------------------------------------------------
def sample_values(fields: set[str], count: str | None, index: int, words: Phrasebook,
                  message_id: str = "") -> dict[str, object]:
    """Variant ``index`` of the values the game would pass (see the module's text)."""
    card = CARDS[index % len(CARDS)]
    seat = index % RULES.players
    held_ranks = HELD[index % len(HELD)]
    held = tuple(Card(card.suit, rank) for rank in held_ranks)
    mixed = (CARDS[12], *held)
    number = COUNTS[index % len(COUNTS)]
    values: dict[str, object] = {}
    for field in fields:
        value: object
        if (message_id, field) in BY_MESSAGE:
            value = BY_MESSAGE[message_id, field]
        elif field in ("card", "shown", "received"):
            value = CARDS[(index + ("card", "shown", "received").index(field) * 5) % len(CARDS)]
        elif field == "suit":
            value = list(Suit)[index % 4]
        elif field in SEAT_FIELDS:
            value = Seat((seat + SEAT_FIELDS[field]) % RULES.players)
        elif field == "side":
            value = words.side(index % 2)
        elif field == "sides":
            value = words.join([words.side(0), words.side(1)])
        elif field == "held":
            value = held
        elif field in ("cards", "given"):
            value = words.cards(mixed if index % 2 else held)
        elif field == "rank":
            value = words.rank(card)
        elif field == "ranks":
            value = words.ranks(held)
        elif field == "bid":
            value = (Bid(4), Bid(0), Bid(1), Bid(13), Bid(0, blind=True))[index % 5]
        elif field == "whose":
            value = words.whose(seat)
        elif field == count or field in COUNTED:
            value = number
        elif field in NUMBERS:
            value = NUMBERS[field]
        elif field == "question":
            value = Message("question.nil")
        elif field == "hand":
            value = words.hand(mask_of([*mixed, CARDS[3]]))
        elif field in ("plays", "table"):
            value = words.plays([(seat, card), ((seat + 1) % 4, CARDS[(index + 3) % 13])])
        elif field == "bids":
            value = words.bids([Bid(3), Bid(0), Bid(4), None])
        elif field == "scores":
            value = words.scores([152, -40], [4, 1])
        elif field in ("tally", "contracts"):
            value = words.tally((3, 2, 1, 0))
        elif field == "choices":
            value = words.say("word.bid_range", low=0, high=13)
        elif field == "nil_note":
            value = words.say("word.nil_note")
        else:
            value = f"{_MARK}{field}{_MARK}"
        values[field] = value
    return values


def as_passed(values: dict[str, object], passed: set[str]) -> dict[str, object]:
    """``values`` under the names the game passes them by (those the English template
    writes: ``Side=`` already capitalised), and the translation's own under theirs."""
    out = {name: values[name] for name in values
           if not any(p[:1].lower() + p[1:] == name for p in passed)}
    for name in passed:
        value = values[name[:1].lower() + name[1:]]
        out[name] = capital(value) if name[:1].isupper() and isinstance(value, Spelled) \
            else value
    return out


def variants(fields: set[str], count: str | None) -> int:
    """How many sample variants a message with ``fields`` is rendered with."""
    varied = {"card", "shown", "received", "suit", "side", "held", "cards", "given", "rank",
              "ranks", "bid", "whose", *SEAT_FIELDS, *COUNTED}
    if count is not None or fields & varied:
        return len(CARDS) + len(COUNTS) - 1  # every rank; with the seats, every count
    return 1


def renderings(language: str, message_id: str, template: Template, english: Template,
               words: Callable[[Verbosity], Phrasebook]
               ) -> Iterator[tuple[str, str | Exception]]:
    """("id (verbosity, variant)", the sentence or the error it raised) for every
    verbosity and sample variant of one message."""
    fields = set().union(*fields_by_verbosity(english).values(),
                         *fields_by_verbosity(template).values())
    passed = set().union(*(raw_names(text) for _, text in texts_of(english))) or fields
    count = template.count or english.count
    for index in range(variants(fields, count)):
        for verbosity in Verbosity:
            phrasebook = words(verbosity)
            where = f"{message_id} ({verbosity.value}, sample {index})"
            try:
                values = as_passed(sample_values(fields, count, index, phrasebook, message_id),
                                   passed)
                yield where, phrasebook.message(Message(message_id, **values))
            except (KeyError, ValueError, IndexError, TypeError) as exc:
                yield where, exc


def problems_in(language: str) -> list[str]:
    """Every rendering of ``language`` that fails, leaves a brace, or keeps English."""
    english_templates = load_templates("en")
    english = english_words(english_templates)
    allowed = SHARED_WORDS | SAME_SPELLING[language]
    catalog = Catalog(language, strict=True)
    books = {v: Phrasebook(RULES, 0, v, words=catalog) for v in Verbosity}
    found = []
    for message_id in sorted(set(catalog.templates) & set(english_templates)):
        for where, text in renderings(language, message_id, catalog.templates[message_id],
                                      english_templates[message_id], books.__getitem__):
            if isinstance(text, Exception):
                found.append(f"{where}: {type(text).__name__} {text}")
            elif "{" in text or "}" in text:
                found.append(f"{where}: a brace is left in {text!r}")
            elif left := english_left(text, english,
                                      allowed | TYPED_IN.get(message_id, frozenset())):
                found.append(f"{where}: English {left} in {text!r}")
    return found


def summary(problems: list[str], limit: int = 40) -> str:
    more = f"\n... and {len(problems) - limit} more" if len(problems) > limit else ""
    return f"{len(problems)} problems:\n" + "\n".join(problems[:limit]) + more


# ----- the tests ------------------------------------------------------------------------
@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_message_is_translated_and_nothing_else(language: str) -> None:
    missing, extra = missing_and_extra(load_templates("en"), load_templates(language))
    assert missing == [], summary([f"{language} lacks {m}" for m in missing])
    assert extra == [], summary([f"{language} has {m}, which English has not" for m in extra])


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_translations_keep_every_field_and_invent_none(language: str) -> None:
    changes = field_changes(load_templates("en"), load_templates(language))
    assert changes == [], summary(changes)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_sentence_renders_in_the_language_with_no_english_left(language: str) -> None:
    try:
        problems = problems_in(language)
    except CatalogError as exc:
        pytest.fail(f"the {language} catalog does not load: {exc}")
    assert problems == [], summary(problems)


# ----- the checks themselves ------------------------------------------------------------
def test_the_checks_find_missing_ids_lost_fields_and_english_words() -> None:
    english = {"a": Template("Hand {number}. {Seat} dealt."), "b": Template("Yes.")}
    italian = {"a": Template("Smazzata {number}. {Seat:Hai|ha} distribuito {card:the}."),
               "c": Template("Sì.")}
    assert missing_and_extra(english, italian) == (["b"], ["c"])
    assert field_changes(english, italian) == [
        f"a ({v.value}): lost [], invented ['card']" for v in Verbosity]
    words = english_words(load_templates("en"))
    assert english_left("Ovest ha giocato the queen di cuori.", words, frozenset()) == \
        ["the", "queen"]
    assert english_left("Nil di Ovest: 2 sacchi, opzione --players, §path§.", words,
                        SHARED_WORDS) == []
    assert english_left("Nord 120 con 2 bag.", words, SHARED_WORDS) == ["bag"]
    assert english_left("Come dichiari?", words, SAME_SPELLING["it"]) == []


def test_samples_name_the_listener_the_partner_every_rank_suit_and_count() -> None:
    book = Phrasebook(RULES, 0, words=Catalog("en", strict=True))
    seen = [sample_values({"card", "seat", "count", "side"}, "count", i, book)
            for i in range(variants({"card"}, None))]
    assert {v["card"].rank for v in seen} == set(range(2, 15))  # type: ignore[attr-defined]
    assert {v["card"].suit for v in seen} == set(Suit)  # type: ignore[attr-defined]
    assert {v["seat"] for v in seen} == {Seat(0), Seat(1), Seat(2), Seat(3)}
    assert {v["count"] for v in seen} == set(COUNTS)
    assert {book.message(Message("word.seat_bid", seat=v["seat"], bid=1)) for v in seen} == \
        {"you 1", "West 1", "partner North 1", "East 1"}
