"""What one player may know: the observation a bot or the narrator works from."""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.engine.actions import Action, Bid
from voice_spades.engine.cards import Card, CardMask, Suit, cards_of
from voice_spades.engine.events import Trick
from voice_spades.engine.phase import Phase
from voice_spades.engine.profiles import RuleOptions


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of the game: public facts plus that seat's own cards."""

    seat: int
    rules: RuleOptions
    hand_number: int
    dealer: int
    first_player: int
    phase: Phase
    to_act: int | None
    hand: CardMask
    bids: tuple[Bid | None, ...]
    tricks_won: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    """The current trick so far, (seat, card) in play order."""
    leader: int
    spades_broken: bool
    completed: tuple[Trick, ...]
    played: CardMask
    """Every card played this hand, including the current trick."""
    cards_held: tuple[int, ...]
    """How many cards each seat holds."""
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    draw_top: Card | None
    """Two-player draw: the top card, when this seat is drawing."""
    known_out: CardMask
    """Cards this seat knows are in no one's hand (its own discards)."""
    legal: tuple[Action, ...]
    """This seat's legal actions when it is to act, else empty."""

    @property
    def hand_cards(self) -> list[Card]:
        """This seat's cards, lowest first."""
        return cards_of(self.hand)

    @property
    def led_suit(self) -> Suit | None:
        """Suit led in the current trick, or None."""
        return self.trick[0][1].suit if self.trick else None

    @property
    def trick_number(self) -> int:
        """1 for the first trick."""
        return len(self.completed) + 1

    @property
    def is_my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.to_act == self.seat
