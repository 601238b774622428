"""Play a hand to its end on bit masks, every seat following the shared policy with
the whole (sampled) deal in view. Hard scores each candidate card this way."""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.bots.bits import NON_SPADES, SPADE_SUIT, SUITS, trick_best
from voice_spades.bots.policy import choose_card
from voice_spades.bots.table import Table
from voice_spades.engine import FIRST_SPADE, TWO_OF_CLUBS, CardMask


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


def legal_cards(hand: CardMask, led: int, broken: bool, two_clubs_leads: bool) -> CardMask:
    """The cards of ``hand`` the rules allow (the engine's rule, on bare masks): follow
    ``led`` if possible (-1 when leading); lead the 2 of clubs when
    ``two_clubs_leads`` and holding it; lead a spade only once ``broken`` or when
    holding nothing else."""
    if led >= 0:
        return hand & SUITS[led] or hand
    if two_clubs_leads and hand >> TWO_OF_CLUBS & 1:
        return 1 << TWO_OF_CLUBS
    return hand if broken else hand & NON_SPADES or hand


def breaks_spades(card: int, led: int, forced_lead_breaks: bool) -> bool:
    """Whether playing ``card`` breaks spades (when they are not broken yet): a spade on
    another suit's lead, or led (``led`` -1) where ``forced_lead_breaks``."""
    return card >= FIRST_SPADE and (led != SPADE_SUIT if led >= 0 else forced_lead_breaks)


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
        led = trick[0][1] // 13 if trick else -1
        legal = legal_cards(hand, led, broken, two_clubs)
        two_clubs = False
        if first >= 0:
            card = first
            first = -1
        elif not legal & (legal - 1):
            card = legal.bit_length() - 1
        else:
            card = choose_card(seat, legal, trick, hands, won, table, True)
        hands[seat] = hand ^ (1 << card)
        if card >= FIRST_SPADE and not broken and breaks_spades(card, led, forced_breaks):
            broken = True
        trick.append((seat, card))
        if len(trick) == n:
            winner = trick_best(trick)[0]
            won[winner] += 1
            trick = []
            seat = winner
        else:
            seat = (seat + 1) % n
