"""The actions a player takes: bids, card plays and the two-player draw decisions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from voice_spades.engine.cards import RANK_NAMES, Card
from voice_spades.errors import InvalidInputError

_NUMBER_WORDS = {name: value for value, name in RANK_NAMES.items() if value <= 10}
_NUMBER_WORDS.update({"zero": 0, "one": 1, "eleven": 11, "twelve": 12, "thirteen": 13,
                      "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17})


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``tricks`` tricks; 0 is always nil. ``blind`` marks blind (double) nil."""

    tricks: int
    blind: bool = False

    def __post_init__(self) -> None:
        if self.tricks < 0:
            raise InvalidInputError("input.negative_bid", tricks=self.tricks)
        if self.blind and self.tricks != 0:
            raise InvalidInputError("input.blind_not_nil")

    @property
    def is_nil(self) -> bool:
        """True for nil and blind nil."""
        return self.tricks == 0

    @property
    def code(self) -> str:
        """"4", "nil" or "blind nil"."""
        if self.blind:
            return "blind nil"
        return "nil" if self.tricks == 0 else str(self.tricks)

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read "nil", "blind nil", "double nil", "zero", "4", "four" or "bid four".

        >>> Bid.parse("bid four"), Bid.parse("double nil") == BLIND_NIL
        (Bid(tricks=4, blind=False), True)
        """
        words = [w for w in re.split(r"\s+", text.strip().lower()) if w]
        if words and words[0] == "bid":
            words = words[1:]
        phrase = " ".join(words)
        if phrase in ("blind nil", "double nil", "blind zero", "double zero"):
            return cls(0, blind=True)
        if phrase in ("nil", "nul", "null"):
            return cls(0)
        if len(words) == 1:
            if words[0].isdigit():
                return cls(int(words[0]))
            if words[0] in _NUMBER_WORDS:
                return cls(_NUMBER_WORDS[words[0]])
        raise InvalidInputError("input.not_a_bid", text=text.strip())

    def __str__(self) -> str:
        return self.code


NIL = Bid(0)
BLIND_NIL = Bid(0, blind=True)


@dataclass(frozen=True, slots=True)
class BlindNilChoice:
    """Two-player: before looking at any card, declare blind nil or not."""

    declare: bool


@dataclass(frozen=True, slots=True)
class DrawChoice:
    """Two-player draw: keep the top card (``keep``) or discard it and take the next."""

    keep: bool


@dataclass(frozen=True, slots=True)
class Exchange:
    """Two-player blind nil: give back up to three cards for random ones from the discards."""

    cards: tuple[Card, ...] = ()


Action = Bid | Card | BlindNilChoice | DrawChoice | Exchange
"""Anything a player can do."""


def action_to_text(action: Action) -> str:
    """The compact text form used in saved games: "bid:4", "play:QH", "draw:keep"..."""
    if isinstance(action, Card):
        return f"play:{action.code}"
    if isinstance(action, Bid):
        return f"bid:{action.code}"
    if isinstance(action, DrawChoice):
        return "draw:keep" if action.keep else "draw:discard"
    if isinstance(action, BlindNilChoice):
        return "blind:yes" if action.declare else "blind:no"
    return "exchange:" + ",".join(card.code for card in action.cards)


def action_from_text(text: str) -> Action:
    """Inverse of :func:`action_to_text`; raises InvalidInputError on anything else.

    >>> action_from_text("play:QH"), action_from_text("bid:nil"), action_from_text("draw:keep")
    (Card.parse('QH'), Bid(tricks=0, blind=False), DrawChoice(keep=True))
    """
    kind, _, rest = text.partition(":")
    if kind == "play":
        return Card.parse(rest)
    if kind == "bid":
        return Bid.parse(rest)
    if kind == "draw" and rest in ("keep", "discard"):
        return DrawChoice(rest == "keep")
    if kind == "blind" and rest in ("yes", "no"):
        return BlindNilChoice(rest == "yes")
    if kind == "exchange":
        return Exchange(tuple(Card.parse(c) for c in rest.split(",") if c))
    raise InvalidInputError("input.not_an_action", text=text)
