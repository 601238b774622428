"""Cards, suits and 52-bit card masks.

A card is a small value (:class:`Card`); a set of cards is a :data:`CardMask`,
one bit per card, so legal-move generation is a few bit operations. Card index
``suit * 13 + (rank - 2)``: clubs 0-12, diamonds 13-25, hearts 26-38, spades 39-51.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from voice_spades.errors import InvalidInputError

CardMask = int
"""A set of cards: bit ``card.index`` is set for each card in the set."""


class Suit(IntEnum):
    """The four suits, in the order used for sorting hands. Spades are trump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def plural(self) -> str:
        """The suit's English name, "hearts": a word of the card notation :meth:`parse`
        reads, not of what the game says (narration takes words from its catalog)."""
        return _SUIT_NAMES[self]

    @property
    def singular(self) -> str:
        """"heart" for hearts (English notation, like :attr:`plural`)."""
        return _SUIT_NAMES[self][:-1]

    @property
    def letter(self) -> str:
        """One-letter code: C, D, H or S."""
        return "CDHS"[self]

    @property
    def mask(self) -> CardMask:
        """All 13 cards of this suit."""
        return SUIT_MASKS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter, symbol or word ("h", "♥", "hearts", "heart").

        >>> Suit.parse("♥") is Suit.parse("Hearts") is Suit.HEARTS
        True
        >>> Suit.parse("stars")
        Traceback (most recent call last):
        voice_spades.errors.InvalidInputError: Message('input.not_a_suit', text='stars')
        """
        key = text.strip().lower()
        if key in _SUIT_WORDS:
            return _SUIT_WORDS[key]
        raise InvalidInputError("input.not_a_suit", text=text)


_SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts",
               Suit.SPADES: "spades"}
_SUIT_WORDS: dict[str, Suit] = {}
for _s, _symbols in zip(Suit, ("♣♧", "♦♢", "♥♡", "♠♤"), strict=True):
    for _w in (_s.letter.lower(), _SUIT_NAMES[_s], _SUIT_NAMES[_s][:-1], *_symbols):
        _SUIT_WORDS[_w] = _s

RANK_NAMES = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
              9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}
"""English name of each rank, 2 to 14 (ace high), as the card notation reads it."""
_RANK_SHORT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_WORDS: dict[str, int] = {}
for _r, _name in RANK_NAMES.items():
    _RANK_WORDS[_name] = _r
    if _r <= 10:
        _RANK_WORDS[str(_r)] = _r
for _r, _short in _RANK_SHORT.items():
    _RANK_WORDS[_short.lower()] = _r
_RANK_WORDS["t"] = 10


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Orders by suit then rank; ``Card.parse("QH")``."""

    suit: Suit
    rank: int

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14:
            raise InvalidInputError("input.not_a_rank", rank=self.rank)

    @property
    def index(self) -> int:
        """Position 0-51 of this card's bit in a :data:`CardMask`."""
        return self.suit * 13 + self.rank - 2

    @property
    def bit(self) -> CardMask:
        """This card as a one-card mask."""
        return 1 << (self.suit * 13 + self.rank - 2)

    @property
    def code(self) -> str:
        """Short code such as "QH" or "10S"."""
        return _RANK_SHORT.get(self.rank, str(self.rank)) + self.suit.letter

    @property
    def rank_name(self) -> str:
        """"queen" for the queen of hearts (English notation)."""
        return RANK_NAMES[self.rank]

    @property
    def name(self) -> str:
        """The card in English notation, "queen of hearts", which :meth:`parse` reads
        back; what the game says comes from the narration catalog."""
        return f"{RANK_NAMES[self.rank]} of {self.suit.plural}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read "AS", "10h", "T♥", "Q♠", "queen of hearts" or "queen hearts".

        >>> Card.parse("10h"), Card.parse("queen of hearts"), Card.parse("A♠").index
        (Card.parse('10H'), Card.parse('QH'), 51)
        >>> Card.parse("queen of nothing")
        Traceback (most recent call last):
        voice_spades.errors.InvalidInputError: Message('input.not_a_card', text='queen of nothing')
        """
        raw = text.strip().lower()
        words = [w for w in re.split(r"[\s,]+", raw) if w and w not in ("of", "the")]
        try:
            if len(words) == 2 and words[0] in _RANK_WORDS:
                return cls(Suit.parse(words[1]), _RANK_WORDS[words[0]])
            if len(words) == 1 and len(words[0]) >= 2:
                word = words[0]
                rank_part, suit_part = word[:-1], word[-1]
                if rank_part in _RANK_WORDS:
                    return cls(Suit.parse(suit_part), _RANK_WORDS[rank_part])
                rank_part, suit_part = word[1:], word[0]
                if rank_part in _RANK_WORDS:
                    return cls(Suit.parse(suit_part), _RANK_WORDS[rank_part])
        except InvalidInputError:
            pass
        raise InvalidInputError("input.not_a_card", text=text.strip())

    def __hash__(self) -> int:
        return self.suit * 13 + self.rank

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


CARDS: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in range(2, 15))
"""All 52 cards, indexed by :attr:`Card.index`."""
SUIT_MASKS: tuple[CardMask, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in Suit)
"""Mask of each suit, indexed by :class:`Suit`."""
SUIT_OF: tuple[Suit, ...] = tuple(card.suit for card in CARDS)
"""The suit of each card index (faster than building a :class:`Suit` from a number)."""
ALL_CARDS_MASK: CardMask = (1 << 52) - 1
"""All 52 cards."""
SPADES_MASK: CardMask = SUIT_MASKS[Suit.SPADES]
"""The 13 spades, the trump suit."""
NON_SPADES_MASK: CardMask = ALL_CARDS_MASK ^ SPADES_MASK
"""Every card but the spades."""
FIRST_SPADE: int = Card(Suit.SPADES, 2).index
"""Index of the 2 of spades: spades are the card indices from here up, so a card
index ``c`` is a spade when ``c >= FIRST_SPADE`` (the fast test in the hot loops)."""
TWO_OF_CLUBS: int = Card(Suit.CLUBS, 2).index
"""Index of the 2 of clubs (0), the lowest card."""
KING_OF_SPADES: int = Card(Suit.SPADES, 13).index
"""Index of the king of spades."""
ACE_OF_SPADES: int = Card(Suit.SPADES, 14).index
"""Index of the ace of spades (51), the highest card."""


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask holding exactly these cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask, lowest index first (clubs 2 up to the ace of spades)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def highest(mask: CardMask) -> Card:
    """Highest card of a non-empty mask (within one suit: the top rank)."""
    return CARDS[mask.bit_length() - 1]


def lowest(mask: CardMask) -> Card:
    """Lowest card of a non-empty mask."""
    return CARDS[(mask & -mask).bit_length() - 1]
