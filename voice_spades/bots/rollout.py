"""Play a hand to its end on bit masks, every seat following the shared policy with
the whole (sampled) deal in view. Hard scores each candidate card this way."""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.bots.bits import NON_SPADES, SUITS, trick_best
from voice_spades.bots.policy import choose_card
from voice_spades.bots.table import Table
from voice_spades.engine.cards import CardMask

TWO_OF_CLUBS = 0


@dataclass(slots=True)
class Position:
    """A play-phase position with every hand known."""

    hands: list[CardMask]
    trick: list[tuple[int, int]]
    to_act: int
    broken: bool
    won: list[int]
    first_lead_two_of_clubs: bool = False
    """True only before the first card, under the house rule that the 2 of clubs leads."""


def play_out(pos: Position, table: Table, first: int = -1) -> list[int]:
    """Tricks won by each seat at the end of the hand. ``first``, if given, is the card
    the player to act plays now (it must be legal); the rest follow the policy. The
    position is copied, not changed."""
    hands = list(pos.hands)
    trick = list(pos.trick)
    won = list(pos.won)
    seat = pos.to_act
    broken = pos.broken
    n = table.n
    forced_breaks = table.rules.forced_spade_lead_breaks
    two_clubs = pos.first_lead_two_of_clubs
    while True:
        hand = hands[seat]
        if not hand:
            return won
        if trick:
            led = trick[0][1] // 13
            legal = hand & SUITS[led] or hand
        else:
            led = -1
            legal = 1 if two_clubs and hand & 1 else hand if broken else hand & NON_SPADES or hand
        two_clubs = False
        if first >= 0:
            card = first
            first = -1
        elif not legal & (legal - 1):
            card = legal.bit_length() - 1
        else:
            card = choose_card(seat, legal, trick, hands, won, table, True)
        hands[seat] = hand ^ (1 << card)
        if card >= 39 and not broken and ((led >= 0 and led != 3) or (led < 0 and forced_breaks)):
            broken = True
        trick.append((seat, card))
        if len(trick) == n:
            winner = trick_best(trick)[0]
            won[winner] += 1
            trick = []
            seat = winner
        else:
            seat = (seat + 1) % n
