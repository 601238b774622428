"""Typed events: what happened, for narration, bots and the screen.

Events carry full information; private ones (a hand, a drawn card) name the seat
they belong to, and whoever presents them shows each viewer only what is theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.engine.actions import Bid
from voice_spades.engine.cards import Card
from voice_spades.engine.scoring import HandScore


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: who led, each (seat, card) in play order, and who won (None while open)."""

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A new hand begins; ``first_player`` bids first (and leads, usually)."""

    hand_number: int
    dealer: int
    first_player: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Cards are dealt; ``hands[seat]`` is private to that seat."""

    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class BlindNilDecided:
    """Two-player: a player declared blind nil, or chose to look at the cards."""

    seat: int
    declared: bool


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """Two-player draw. ``shown`` was the top card; ``kept`` says whether it was kept;
    ``received`` is the card that went into the hand (private to ``seat``)."""

    seat: int
    shown: Card
    kept: bool
    received: Card
    cards_in_hand: int


@dataclass(frozen=True, slots=True)
class DrawFinished:
    """Two-player: the stock is gone; each player holds 13 cards."""

    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class CardsExchanged:
    """Blind nil exchange: ``given`` went to the discards, ``received`` came back."""

    seat: int
    given: tuple[Card, ...]
    received: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BidMade:
    """A player bid."""

    seat: int
    bid: Bid


@dataclass(frozen=True, slots=True)
class BiddingComplete:
    """Every bid is in; ``contracts[side]`` is the side's summed non-nil bid."""

    bids: tuple[Bid, ...]
    contracts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card went to the table."""

    seat: int
    card: Card
    trick_number: int


@dataclass(frozen=True, slots=True)
class SpadesBroken:
    """The first spade was played on another suit's lead (or led from an all-spade hand
    where the rules count that)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick is complete."""

    trick: Trick
    winner: int
    winning_card: Card
    tricks_won: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandScored:
    """The hand is over and scored; ``score.boston`` flags a side taking every trick."""

    hand_number: int
    score: HandScore
    scores: tuple[int, ...]
    bags: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TiedAtTarget:
    """The target was reached but the lead is tied: another hand is played."""

    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match is over; ``winner`` is a side index."""

    winner: int
    scores: tuple[int, ...]
    hands_played: int


Event = (HandStarted | HandDealt | BlindNilDecided | CardDrawn | DrawFinished | CardsExchanged
         | BidMade | BiddingComplete | CardPlayed | SpadesBroken | TrickWon | HandScored
         | TiedAtTarget | MatchOver)
"""Any engine event."""
