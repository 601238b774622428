"""Card and bid notation: parsing and formatting."""

import pytest

from tests.engine.helpers import raises_saying
from voice_spades.engine import (
    CARDS,
    Bid,
    Card,
    Suit,
    action_from_text,
    action_to_text,
    cards_of,
    mask_of,
)
from voice_spades.errors import InvalidInputError


@pytest.mark.parametrize(("text", "suit", "rank"), [
    ("AS", Suit.SPADES, 14), ("10h", Suit.HEARTS, 10), ("T♥", Suit.HEARTS, 10),
    ("Q♠", Suit.SPADES, 12), ("queen of hearts", Suit.HEARTS, 12),
    ("queen hearts", Suit.HEARTS, 12), ("Ten of Spades", Suit.SPADES, 10),
    ("2c", Suit.CLUBS, 2), ("jd", Suit.DIAMONDS, 11), ("king of diamond", Suit.DIAMONDS, 13),
    ("H10", Suit.HEARTS, 10), ("ace, spades", Suit.SPADES, 14),
])
def test_card_parse_accepts_codes_symbols_and_words(text: str, suit: Suit, rank: int) -> None:
    assert Card.parse(text) == Card(suit, rank)


@pytest.mark.parametrize("text", ["", "ZZ", "11H", "queen of nothing", "1 of hearts x", "S"])
def test_card_parse_refuses_nonsense_with_a_spoken_reason(text: str) -> None:
    with raises_saying(InvalidInputError, "is not a card"):
        Card.parse(text)


def test_every_card_round_trips_through_code_and_name() -> None:
    for card in CARDS:
        assert Card.parse(card.code) == card
        assert Card.parse(card.name) == card
        assert CARDS[card.index] is card
    assert Card.parse("QH").name == "queen of hearts"
    assert Card.parse("10S").code == "10S"
    assert repr(Card.parse("QH")) == "Card.parse('QH')"


def test_masks_hold_exactly_their_cards() -> None:
    hand = [Card.parse(c) for c in ("AS", "2C", "10H")]
    mask = mask_of(hand)
    assert mask.bit_count() == 3
    assert cards_of(mask) == sorted(hand, key=lambda c: c.index)


@pytest.mark.parametrize(("text", "bid"), [
    ("nil", Bid(0)), ("zero", Bid(0)), ("blind nil", Bid(0, blind=True)),
    ("double nil", Bid(0, blind=True)), ("4", Bid(4)), ("four", Bid(4)), ("bid four", Bid(4)),
    ("Bid 13", Bid(13)), ("seventeen", Bid(17)),
])
def test_bid_parse(text: str, bid: Bid) -> None:
    assert Bid.parse(text) == bid


@pytest.mark.parametrize("text", ["", "pass", "bid", "-1", "four five"])
def test_bid_parse_refuses_nonsense(text: str) -> None:
    with raises_saying(InvalidInputError, "is not a bid"):
        Bid.parse(text)


def test_bid_formatting() -> None:
    assert [Bid(0).code, Bid(0, blind=True).code, Bid(7).code] == ["nil", "blind nil", "7"]
    with pytest.raises(InvalidInputError):
        Bid(3, blind=True)


def test_action_text_round_trip() -> None:
    from voice_spades.engine import BlindNilChoice, DrawChoice, Exchange
    actions = [Card.parse("QH"), Bid(4), Bid(0), Bid(0, blind=True), DrawChoice(True),
               DrawChoice(False), BlindNilChoice(True), BlindNilChoice(False), Exchange(()),
               Exchange((Card.parse("AS"), Card.parse("2D")))]
    for action in actions:
        assert action_from_text(action_to_text(action)) == action
    with pytest.raises(InvalidInputError):
        action_from_text("jump:now")
