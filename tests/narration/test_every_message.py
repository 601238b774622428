"""Every message of the catalog renders, at every verbosity, into clean text.

Each message is filled with sample values (:data:`SAMPLES`, by field name; engine
values where the game passes them) and rendered for a listener at each verbosity, and
with a plural count of 1 and of 3. The text must have no brace left and no word said
twice in a row ("the the", "bid bid").
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
    "reason": Message("storage.no_settings"), "problem": "an empty key name",
    "error": "Expecting value", "heard": "queen of stars", "key": "Z", "keys": "B or I",
    "action": "hand", "help": "F1", "confirm": "Enter", "mark": "X", "nil": "N", "new": "Control N",
    "quit": "Q", "text": "stars", "mod": "ctrl", "line": 3, "source": "keymap.toml",
    "section": "colours", "other": "hand", "fallback": "it is ignored", "path": "/tmp/keymap.toml",
    "seating": "You sit South.", "options": "--players", "wins": 3, "losses": 1,
    "lines": "West bid 4.", "step": 3, "value": 7, "head": "a, b", "last": "c",
}
"""A sample value for each field name; other fields get a word made from their name."""

_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_RULES = profile("pagat")


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


def sample(field: str, count: str | None, number: int, numeric: set[str]) -> object:
    if field == count:
        return number
    if field in numeric:
        return 12.5
    return SAMPLES.get(field, f"{field}sample")


def renderings(message_id: str) -> list[tuple[Verbosity, int, str]]:
    count = CATALOG[message_id].count
    numeric = numeric_fields(message_id)
    out = []
    for number in (1, 3) if count else (3,):
        fields = {field: sample(field, count, number, numeric)
                  for field in fields_of(message_id)}
        for verbosity in Verbosity:
            words = Phrasebook(_RULES, 0, verbosity)
            out.append((verbosity, number, words.message(Message(message_id, **fields))))
    return out


@pytest.mark.parametrize("message_id", sorted(CATALOG))
def test_the_message_renders_cleanly(message_id: str) -> None:
    for verbosity, number, text in renderings(message_id):
        where = f"{message_id} ({verbosity.value}, count {number}): {text!r}"
        assert "{" not in text and "}" not in text, where
        doubled = _DOUBLED.search(text)
        assert doubled is None, f"{where} says {doubled.group(0)!r}"


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
