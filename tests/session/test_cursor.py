"""The hand cursor: reading order, suits, edges, and cards leaving the hand."""

from __future__ import annotations

from voice_spades.commands import Move
from voice_spades.engine import Card, Suit, mask_of
from voice_spades.session.cursor import CursorHearing, HandCursor


def hand(codes: str) -> int:
    return mask_of(Card.parse(c) for c in codes.split())


H = hand("AS 4S KH 7H QC 3D")


def test_it_starts_on_the_highest_spade_and_reads_on_through_the_suits() -> None:
    cursor = HandCursor()
    cursor.sync(H)
    assert cursor.card == Card.parse("AS")
    seen = [cursor.move(Move.NEXT_CARD, H) for _ in range(6)]
    assert [str(c) for c, _ in seen] == ["4S", "KH", "7H", "QC", "3D", "3D"]
    assert [changed for _, changed in seen] == [False, True, False, True, True, False]
    assert cursor.move(Move.PREVIOUS_CARD, H)[0] == Card.parse("QC")


def test_suits_wrap_and_home_end_stay_in_the_suit() -> None:
    cursor = HandCursor()
    cursor.sync(H)
    assert cursor.move(Move.PREVIOUS_SUIT, H)[0] == Card.parse("3D")
    assert cursor.move(Move.NEXT_SUIT, H)[0] == Card.parse("AS")
    assert cursor.move(Move.NEXT_SUIT, H)[0] == Card.parse("KH")
    assert cursor.move(Move.LOWEST, H) == (Card.parse("7H"), False)
    assert cursor.move(Move.HIGHEST, H) == (Card.parse("KH"), False)


def test_jumping_to_a_void_suit_leaves_the_cursor() -> None:
    cursor = HandCursor()
    cursor.sync(hand("AS 4S"))
    assert cursor.jump(Suit.HEARTS, hand("AS 4S")) is None
    assert cursor.card == Card.parse("AS")


def test_a_played_card_hands_the_cursor_to_the_next_one() -> None:
    cursor = HandCursor()
    cursor.sync(H)
    cursor.jump(Suit.HEARTS, H)
    cursor.sync(hand("AS 4S 7H QC 3D"))
    assert cursor.card == Card.parse("7H")
    cursor.sync(hand("AS 4S"))
    assert cursor.card == Card.parse("4S")
    cursor.sync(0)
    assert cursor.card is None
    assert cursor.move(Move.NEXT_CARD, 0) == (None, False)


def test_a_naming_counts_only_once_speech_was_seen_idle_with_no_cut_between() -> None:
    ace, four = Card.parse("AS"), Card.parse("4S")
    heard = CursorHearing()
    assert not heard.heard(ace)
    heard.named(ace)
    heard.sent()
    heard.settle(busy=True)  # still being said
    assert not heard.heard(ace)
    heard.settle(busy=False)  # said to the end
    assert heard.heard(ace) and not heard.heard(four)
    heard.named(four)
    heard.sent()
    heard.cut(busy=True)  # a key cut it off
    heard.settle(busy=False)
    assert not heard.heard(four) and not heard.heard(ace)
    heard.named(four)
    heard.cut(busy=False)  # a key came before the lines even went out
    heard.sent()
    heard.settle(busy=False)
    assert not heard.heard(four)
    heard.named(four)
    heard.sent()
    heard.cut(busy=False)  # nothing playing when the key came: it was all said
    assert heard.heard(four)
