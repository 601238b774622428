"""The hand cursor lands on a playable card when it is the player's turn."""

from voice_spades.engine import Card, mask_of
from voice_spades.session.cursor import HandCursor


def cards(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]


def test_focus_moves_off_an_unplayable_card_to_the_first_playable_one() -> None:
    hand = mask_of(cards("8S 3S AH 5D 3D"))
    cursor = HandCursor()
    cursor.sync(hand)
    assert cursor.card == Card.parse("8S")
    cursor.focus(mask_of(cards("5D 3D")), hand)
    assert cursor.card == Card.parse("5D")


def test_focus_keeps_a_playable_card() -> None:
    hand = mask_of(cards("8S 3S AH 5D 3D"))
    cursor = HandCursor()
    cursor.card = Card.parse("3D")
    cursor.focus(mask_of(cards("5D 3D")), hand)
    assert cursor.card == Card.parse("3D")
