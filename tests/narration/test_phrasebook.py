"""The Phrasebook words what lower layers report: refusals, seats, cards, storage and
keymap problems, exactly as the game said them before they became data."""

from __future__ import annotations

import pytest

from voice_spades.engine import Bid, Card, Match, Seat, Suit, profile
from voice_spades.errors import IllegalActionError, InvalidStateError
from voice_spades.messages import Message
from voice_spades.narration import Hints, Phrasebook, Priority, Verbosity, render_message

PAGAT = profile("pagat")


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


@pytest.mark.parametrize(("held", "expected"), [
    ("4H", "the 4 of hearts"),
    ("9H 4H", "the 4 and 9 of hearts"),
    ("JH 4H 9H", "the 4, 9 and jack of hearts"),
    ("2H 4H 9H QH", "the 2, 4, 9 and queen of hearts"),
    ("2H 4H 9H QH AH", "the 2, 4, 9 and 2 more of hearts"),
])
def test_a_must_follow_refusal_names_at_most_four_cards(held: str, expected: str) -> None:
    message = Message("refusal.must_follow", suit=Suit.HEARTS, held=cards(held))
    assert render_message(message) == f"You must follow hearts: you hold {expected}."
    assert Phrasebook(PAGAT).message(message) == f"You must follow hearts: you hold {expected}."


def test_refusals_of_a_match_read_as_before() -> None:
    error = IllegalActionError("refusal.spades_not_broken")
    assert Phrasebook(PAGAT).error(error) == \
        "You can't lead a spade yet: spades are not broken and you hold other suits."
    assert render_message(Message("refusal.not_held", card=Card.parse("QS"))) == \
        "You don't hold the queen of spades."
    assert render_message(Message("refusal.two_of_clubs_leads", card=Card.parse("2C"))) == \
        "The first lead must be the 2 of clubs."
    refusal = Match(PAGAT, 3).refusal(Bid(14))
    assert refusal is not None
    assert Phrasebook(PAGAT).message(refusal) == "Bids go from 0 (nil) to 13; 14 is too many."


def test_seats_are_named_for_the_listener_from_the_catalog() -> None:
    words = Phrasebook(PAGAT, 0)
    assert [words.seat(s) for s in range(4)] == ["you", "West", "partner North", "East"]
    assert Phrasebook(PAGAT, 0, Verbosity.BRIEF).seat(2) == "North"
    five = Phrasebook(profile("playroom", players=5), None)
    assert [five.seat(s) for s in range(5)] == ["South", "West", "North-west", "North-east",
                                                "East"]
    six = Phrasebook(profile("playroom", players=6), 3)
    assert [six.seat(s) for s in (0, 1, 3, 5)] == ["South", "South-west", "you", "South-east"]
    assert words.message(Message("bid.made", Seat=Seat(1), bid="4")) == "West bid 4."
    assert render_message(Message("bid.made", Seat=Seat(0), bid="4")) == "South bid 4."


def test_suits_and_ranks_come_from_the_catalog() -> None:
    words = Phrasebook(PAGAT)
    assert [words.suit(s) for s in Suit] == ["clubs", "diamonds", "hearts", "spades"]
    assert words.card(Card.parse("AS")) == "ace of spades"
    assert words.card(Card.parse("10D")) == "10 of diamonds"
    assert words.cards(cards("2H AS 9H")) == "ace of spades; 9 and 2 of hearts"


def test_a_reason_inside_a_message_is_rendered_first() -> None:
    reason = InvalidStateError("storage.bad_record", name="pagat")
    message = Message("setup.stats_corrupt", reason=reason, name="stats.json.corrupt-1")
    assert Phrasebook(PAGAT).message(message) == (
        "The statistics file could not be read: the record for pagat is damaged. It was "
        "moved aside to stats.json.corrupt-1; starting a new record.")
    nowhere = Message("setup.save_corrupt", reason=Message("storage.no_settings"),
                      name=Message("storage.nowhere"))
    assert render_message(nowhere).endswith("moved aside to nowhere (it could not be moved); "
                                            "starting a new game.")


def test_priority_and_hints_are_narration_data() -> None:
    assert Priority.HIGH > Priority.NORMAL > Priority.LOW
    hints = Hints()
    assert (hints.confirm, hints.mark, hints.nil, hints.help, hints.new, hints.quit) == \
        ("Enter", "X", "N", "F1", "Control N", "Q")
