"""Every message of the catalog renders, at every verbosity, into clean text.

Each message is filled with sample values (:data:`SAMPLES`, by field name; engine
values where the game passes them) and rendered for a listener at each verbosity, and
with its counts at 0, 1, 2 and 3. The text must have no brace left, no word said twice
in a row ("the the", "bid bid"), no noun in the wrong number for its count ("after 1
hands", "1 cards"), and no trace of an empty field (": .", ", ,", a double space),
also when the fields the game may leave empty are empty. The wording problems of issue
10 must not come back.
"""

from __future__ import annotations

import re
import string

import pytest

from voice_spades.engine import Bid, Card, Seat, Suit, profile
from voice_spades.messages import Message
from voice_spades.narration import CATALOG, Phrasebook, Verbosity

SAMPLES: dict[str, object] = {
    "card": Card.parse("QH"), "Card": Card.parse("QH"), "shown": Card.parse("9S"),
    "received": Card.parse("3D"), "suit": Suit.HEARTS, "Suit": Suit.CLUBS,
    "held": (Card.parse("4H"), Card.parse("9H"), Card.parse("JH")),
    "cards": "ace of spades; 9 and 4 of hearts", "given": "king of spades",
    "seat": Seat(1), "Seat": Seat(3), "turn": Seat(2), "leader": "East", "dealer": "West",
    "first": "North", "second": "East", "Side": "West and East", "side": "you and partner North",
    "partner": "partner North", "whose": "West's", "Whose": "West's", "name": "pagat",
    "bid": Bid(4), "bids": "you 3, West 4", "choices": "0 to 13", "contracts": "us 7, them 5",
    "count": 3, "n": 3, "limit": 3, "number": 4, "trick": 5, "tricks": 13, "total": 11,
    "took": 2, "contract": 7, "score": 152, "scores": "us 152, them 98", "points": 52,
    "bags": "4 bags", "target": 500, "size": 13, "minimum": 4, "made": 200, "hands": 9,
    "players": 4, "low": 2, "high": 6, "allowed": 4, "level": "hard", "rules": "pagat",
    "hand": "spades ace, 10; hearts king", "ranks": "ace, 10, 4", "rank": "queen",
    "plays": "you 4 of hearts, West 9 of hearts", "tally": "us 5, them 3",
    "parts": "plus 70 for the contract", "notes": " Suicide: bid nil.", "note": "No hell.",
    "nil_note": " 0 is nil.", "spades": "Spades are broken.", "table": "East 4 of hearts",
    "task": "play", "where": "trick 3", "held_count": 13, "question": Message("question.nil"),
    "reason": "the disk is full", "problem": "an empty key name",
    "error": "Expecting value", "heard": "queen of stars", "key": "Z", "keys": "B or I",
    "action": "hand", "help": "F1", "confirm": "Enter", "mark": "X", "nil": "N", "new": "Control N",
    "quit": "Q", "text": "stars", "mod": "ctrl", "line": 3, "source": "keymap.toml",
    "section": "colours", "other": "hand", "fallback": "it is ignored", "path": "/tmp/keymap.toml",
    "seating": "You sit South.", "options": "--players", "wins": 3, "losses": 1,
    "lines": "West bid 4.", "step": 3, "value": 7, "head": "a, b", "last": "c",
    "cursor": " On the 9 of spades.", "sure": 4, "likely": 1, "percent": 40, "page": 2,
    "pages": 5, "yes": "Y", "no": "N", "all": "question mark", "next": "F1 again for more.",
    "items": "Enter play the card; U the card under the cursor",
}
"""A sample value for each field name; other fields get a word made from their name."""

_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_RULES = profile("pagat")

COUNTS = (0, 1, 2, 3)
"""The numbers every count is tried with: English says "0 cards", "1 card", "2 cards"."""

COUNTED_FIELDS = {"count", "n", "hands", "over", "wins", "losses", "took"}
"""Fields that hold a small count of something, besides each entry's plural ``count``:
they are tried at every number of :data:`COUNTS` too."""

_NOUNS = ("hand", "card", "trick", "bag", "point", "player", "match", "game", "win", "loss",
          "second", "time", "key", "phrase")
_NOUN = "(" + "|".join(_NOUNS) + ")"
_PLURAL_AFTER_ONE = re.compile(r"\b1 " + _NOUN + r"e?s\b")
_SINGULAR_AFTER_OTHER = re.compile(r"(?<![\w.-])(0|[2-9]|\d\d+) " + _NOUN
                                   + r"\b(?![- ]penalty|-)")

OPTIONAL_FIELDS = {"notes", "nil_note", "note"}
"""Fields the game fills with "" when there is nothing to add."""

CURSOR_NOTES = ", not playable"
"""``notes`` of the cursor's messages (a bid prompt's notes are sentences)."""

_EMPTY_FIELD_TRACES = [
    (re.compile(r"\s[,.;:!]"), "a space before punctuation"),
    (re.compile(r"[,;:]\s*[,.;:!?]"), "punctuation with nothing between"),
    (re.compile(r"(?<!\.)\.\.(?!\.)"), "two full stops"),
    (re.compile(r"\S\s{2,}\S"), "a double space"),
    (re.compile(r"^\s|\s$"), "a space at an end"),
    (re.compile(r"\(\s*\)"), "empty brackets"),
]
"""What an empty field leaves behind in a sentence."""

REGRESSIONS = [
    re.compile(r"after 1 hands"),
    re.compile(r"(?i)\b(lowest|highest) (hearts|spades|clubs|diamonds):"),
    re.compile(r"(?i)spades are broken.*spades are broken"),
]
"""Wording the issue called wrong, which no message may say again."""


def fields_of(message_id: str) -> set[str]:
    template = CATALOG[message_id]
    return {field for form in template.forms()
            for text in ([form] if isinstance(form, str) else form.values())
            for _, field, _, _ in string.Formatter().parse(text) if field}


def numeric_fields(message_id: str) -> set[str]:
    """Fields formatted as numbers ("{done:.1f}")."""
    template = CATALOG[message_id]
    return {field for form in template.forms()
            for text in ([form] if isinstance(form, str) else form.values())
            for _, field, spec, _ in string.Formatter().parse(text) if field and spec}


def sample(field: str, count: str | None, number: int, numeric: set[str],
           message_id: str = "") -> object:
    if field == count or field in COUNTED_FIELDS:
        return number
    if field == "notes" and message_id.startswith(("cursor.", "turn.current")):
        return CURSOR_NOTES
    if field in numeric:
        return 12.5
    return SAMPLES.get(field, f"{field}sample")


def renderings(message_id: str, empty: frozenset[str] = frozenset()
               ) -> list[tuple[Verbosity, int, str]]:
    count = CATALOG[message_id].count
    numeric = numeric_fields(message_id)
    fields_here = fields_of(message_id)
    counted = count or fields_here & COUNTED_FIELDS
    out = []
    for number in COUNTS if counted else (3,):
        fields = {field: "" if field in empty else sample(field, count, number, numeric,
                                                          message_id)
                  for field in fields_here}
        for verbosity in Verbosity:
            words = Phrasebook(_RULES, 0, verbosity)
            out.append((verbosity, number, words.message(Message(message_id, **fields))))
    return out


def is_fragment(message_id: str) -> bool:
    """A piece glued into other sentences (a separator, " 0 is nil."), which may begin
    or end with a space."""
    texts = [t for form in CATALOG[message_id].forms()
             for t in ([form] if isinstance(form, str) else form.values())]
    return message_id.startswith("word.") or any(t[:1].isspace() or t[-1:].isspace()
                                                 for t in texts)


def traces(message_id: str, text: str) -> list[tuple[str, str]]:
    """What an empty field left in ``text``: (what, where) pairs."""
    found = []
    for bad, what in _EMPTY_FIELD_TRACES:
        if what == "a space at an end" and is_fragment(message_id):
            continue
        if what == "a double space" and "\n" in text:
            continue  # a table printed in columns (the usage text)
        if (match := bad.search(text)) is not None:
            found.append((what, match.group(0)))
    return found


@pytest.mark.parametrize("message_id", sorted(CATALOG))
def test_the_message_renders_cleanly(message_id: str) -> None:
    for verbosity, number, text in renderings(message_id):
        where = f"{message_id} ({verbosity.value}, count {number}): {text!r}"
        assert "{" not in text and "}" not in text, where
        doubled = _DOUBLED.search(text)
        assert doubled is None, f"{where} says {doubled.group(0)!r}"
        assert traces(message_id, text) == [], where
        for regression in REGRESSIONS:
            assert regression.search(text) is None, f"{where} says {regression.pattern!r}"


@pytest.mark.parametrize("message_id", sorted(CATALOG))
def test_every_count_takes_the_right_number(message_id: str) -> None:
    for verbosity, number, text in renderings(message_id):
        where = f"{message_id} ({verbosity.value}, count {number}): {text!r}"
        wrong = _PLURAL_AFTER_ONE.search(text) or _SINGULAR_AFTER_OTHER.search(text)
        assert wrong is None, f"{where} says {wrong.group(0)!r}"


@pytest.mark.parametrize("message_id", sorted(m for m in CATALOG
                                              if fields_of(m) & OPTIONAL_FIELDS))
def test_fields_left_empty_leave_no_trace(message_id: str) -> None:
    for verbosity, number, text in renderings(message_id, frozenset(OPTIONAL_FIELDS)):
        where = f"{message_id} ({verbosity.value}, count {number}, empty notes): {text!r}"
        assert traces(message_id, text) == [], where


QUIET_AT_NORMAL = {"hand.started": "its number is said with the cards (hand.dealt)",
                   "score.totals": "each side's line at the hand's end holds its new score"}
"""Messages only the verbose verbosity says (issue 48: each fact said once)."""


def test_every_message_says_something_at_normal_verbosity() -> None:
    silent = [m for m in CATALOG if not is_fragment(m)
              and not all(text for verbosity, _, text in renderings(m)
                          if verbosity is Verbosity.NORMAL)]
    assert sorted(silent) == sorted(QUIET_AT_NORMAL)
    for message_id in QUIET_AT_NORMAL:
        assert all(text for verbosity, _, text in renderings(message_id)
                   if verbosity is Verbosity.VERBOSE), message_id


def test_the_checks_catch_what_they_look_for() -> None:
    assert _PLURAL_AFTER_ONE.search("after 1 hands")
    assert _SINGULAR_AFTER_OTHER.search("you hold 0 card") and \
        _SINGULAR_AFTER_OTHER.search("2 trick")
    assert not _SINGULAR_AFTER_OTHER.search("the 2 of hearts, 3 cards, 1 card, 2 bag penalty")
    assert all(bad.search(text) for (bad, _), text in zip(
        _EMPTY_FIELD_TRACES, ["bid: .", "took 3, , made", "done..", "Your  bid", " x", "()"],
        strict=True))
    assert REGRESSIONS[1].search("Lowest hearts: 3 of hearts")


def test_typed_values_are_named_for_the_listener() -> None:
    words = Phrasebook(_RULES, 0)
    held = (Card.parse("9H"), Card.parse("4H"))
    message = Message("word.seat_card", seat=Seat(2), card=Card.parse("10S"))
    assert words.message(message) == "partner North 10 of spades"
    assert words.message(Message("word.seat_bid", seat=Seat(0), bid=Bid(0))) == "you nil"
    assert words.message(Message("draw.other", Seat=Seat(0))) == "You drew."
    assert words.say("word.cards_of_suit", ranks="x", suit=Suit.SPADES) == "the x of spades"
    assert words.message(Message("word.seat_card", seat="West", card=held)) == \
        "West the 4 and 9 of hearts"
