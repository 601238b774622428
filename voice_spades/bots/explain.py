"""The hint: what the Hard player would do in a seat now, with a one-line reason.

Hard decides by playing out sampled deals, which gives a choice but no reason in
words. The reason is read afterwards from the position (the trick so far, the bids,
the cards still out, the hand) and reported as a :class:`~voice_spades.messages.Message`
whose fields are typed values (cards, suits, seats, numbers); narration words it.

A hint never touches the match: Hard works on the seat's view with its own random
generator, seeded from the seed given and the position, so asking for a hint changes
neither the deal nor any other player's later choices, and the same position gives the
same hint however busy the machine is (Hard's search size is fixed and its safety net
counts processor time).
"""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.bots.base import decide
from voice_spades.bots.bits import SPADE_SUIT, can_beat, trick_best
from voice_spades.bots.hard import HardBot
from voice_spades.bots.knowledge import read_view
from voice_spades.bots.table import Table
from voice_spades.bots.two_player import is_blind_nil
from voice_spades.engine import (
    CARDS,
    Action,
    Bid,
    BlindNilChoice,
    Card,
    CardMask,
    DrawChoice,
    PlayerView,
    Seat,
    Suit,
    deck_mask,
)
from voice_spades.messages import Message

LONG_SUIT = 4
"""A side suit this long is worth leading to draw out the others' spades."""


@dataclass(frozen=True, slots=True)
class Advice:
    """What Hard would do (``action``, legal now) and why (``reason``)."""

    action: Action
    reason: Message


def advise(view: PlayerView, seed: int, *, time_budget: float | None = None,
           max_samples: int | None = None) -> Advice:
    """What the Hard player would do in ``view.seat`` now (it must be that seat's turn),
    and a one-line reason for it.

    With the defaults this is exactly Hard's own decision with ``seed``: the same fixed
    search (Hard's work per decision depends on the position, not the clock), so the
    hint is the strongest play the game has and asking twice gives the same answer.
    ``time_budget`` and ``max_samples`` shrink the search (tests)."""
    bot = HardBot(view.seat, seed, time_budget=time_budget, max_samples=max_samples)
    action = decide(bot, view)
    return Advice(action, reason_for(view, action, bot.last_samples, bot.last_nil_rate))


def reason_for(view: PlayerView, action: Action, samples: int = 0,
               nil_rate: float = 0.0) -> Message:
    """Why ``action`` suits ``view``, read from the position. ``samples`` is how many
    deals were played out (the last resort of a reason), ``nil_rate`` the share of them
    in which a nil held."""
    if isinstance(action, Card):
        return play_reason(view, action, samples)
    if isinstance(action, Bid):
        return bid_reason(view, action, nil_rate)
    if isinstance(action, DrawChoice):
        return _draw_reason(view, action)
    if isinstance(action, BlindNilChoice):
        return Message("reason.blind_nil_gamble" if action.declare else "reason.blind_nil_no")
    return Message("reason.exchange" if action.cards else "reason.exchange_none")


# ----- playing -------------------------------------------------------------------------

def play_reason(view: PlayerView, card: Card, samples: int = 0) -> Message:
    """Why play ``card`` now."""
    legal = [a for a in view.legal if isinstance(a, Card)]
    if len(legal) <= 1:
        if view.trick and card.suit == view.led_suit:
            return Message("reason.only_of_suit", suit=card.suit)
        return Message("reason.only_card")
    table = Table(view.rules, view.bids, view.scores, view.bags)
    nil_reason = _nil_reason(view, card, table)
    if nil_reason is not None:
        return nil_reason
    if view.trick:
        return _follow_reason(view, card, legal, table)
    return _lead_reason(view, card, table, samples)


def _nil_reason(view: PlayerView, card: Card, table: Table) -> Message | None:
    """A reason when a nil still standing (ours, partner's, an opponent's) decides."""
    seat, won = view.seat, view.tricks_won
    winner = _winner(view)
    beats = winner is not None and _beats(card, winner[1], view)
    if table.nil[seat] and won[seat] == 0:
        if not view.trick:
            return Message("reason.nil_lead")
        assert winner is not None
        if beats:
            return Message("reason.nil_forced", seat=Seat(winner[0]), card=winner[1])
        return Message("reason.nil_under", seat=Seat(winner[0]), card=winner[1])
    partner = table.partner[seat]
    if partner >= 0 and table.nil[partner] and won[partner] == 0:
        if not view.trick or beats:
            return Message("reason.cover_nil", seat=Seat(partner))
        return None
    for other in table.opponents[seat]:
        if table.nil[other] and won[other] == 0:
            if winner is not None and winner[0] == other and not beats:
                return Message("reason.nil_target_winning", seat=Seat(other))
            if not view.trick:
                return Message("reason.lead_against_nil", seat=Seat(other))
    return None


def _follow_reason(view: PlayerView, card: Card, legal: list[Card], table: Table) -> Message:
    winner = _winner(view)
    assert winner is not None
    seat, best = winner
    led = view.led_suit
    beaters = sorted((c for c in legal if _beats(c, best, view)), key=_strength)
    fields = {"seat": Seat(seat), "card": best}
    if card in beaters:
        if card.suit is Suit.SPADES and led is not Suit.SPADES:
            return Message("reason.trump" if card == beaters[0] else "reason.trump_high",
                           **fields)
        if card == beaters[0]:
            return Message("reason.win_lowest", **fields)
        return Message("reason.win_high", **fields)
    side = table.side_of[view.seat]
    low = _lowest_of_suit(card, legal)
    if seat != view.seat and table.side_of[seat] == side:
        return Message("reason.partner_winning" if low else "reason.partner_winning_shed",
                       **fields)
    if not beaters:
        if card.suit != led:
            return Message("reason.discard" if low else "reason.shed_high", suit=card.suit)
        return Message("reason.cannot_win" if low else "reason.cannot_win_shed", **fields)
    if table.contract[side] > 0 and table.need(side, view.tricks_won) <= 0:
        return Message("reason.duck_bags", **fields)
    return Message("reason.duck", **fields)


def _lead_reason(view: PlayerView, card: Card, table: Table, samples: int) -> Message:
    hand = [c for c in view.hand_cards if c.suit == card.suit]
    side = table.side_of[view.seat]
    if _is_top(view, card):
        return Message("reason.sure_winner", suit=card.suit)
    if card.suit is Suit.SPADES:
        return Message("reason.draw_trumps")
    if table.contract[side] > 0 and table.need(side, view.tricks_won) <= 0 \
            and card == min(hand, key=lambda c: c.rank):
        return Message("reason.lead_low")
    if len(hand) >= LONG_SUIT:
        return Message("reason.long_suit", suit=card.suit)
    if len(hand) == 1 and any(c.suit is Suit.SPADES for c in view.hand_cards):
        return Message("reason.singleton", suit=card.suit)
    return Message("reason.search", count=samples) if samples else Message("reason.choice")


def _lowest_of_suit(card: Card, cards: list[Card]) -> bool:
    """True when ``card`` is the lowest of its suit among ``cards``."""
    return all(c.rank >= card.rank for c in cards if c.suit == card.suit)


def _winner(view: PlayerView) -> tuple[int, Card] | None:
    """Who is winning the trick so far, and with what."""
    if not view.trick:
        return None
    seat, best = trick_best([(s, c.index) for s, c in view.trick])
    return seat, CARDS[best]


def _beats(card: Card, best: Card, view: PlayerView) -> bool:
    led = view.led_suit
    assert led is not None
    return can_beat(card.bit, best.index, int(led))


def _strength(card: Card) -> tuple[int, int]:
    """Order of cards that win a trick: side-suit cards before spades, low first."""
    return int(card.suit) == SPADE_SUIT, card.rank


def _is_top(view: PlayerView, card: Card) -> bool:
    """True when no card still out (not ours, not played) outranks ``card`` in its suit."""
    out = deck_mask(view.rules.removed_twos) & ~view.hand & ~view.played & ~view.known_out
    higher = [c for c in CARDS if c.suit == card.suit and c.rank > card.rank]
    return not any(out & c.bit for c in higher) and (
        card.suit is Suit.SPADES or _nobody_void(view, card.suit))


def _nobody_void(view: PlayerView, suit: Suit) -> bool:
    know = read_view(view)
    return not any(know.is_void(s, int(suit)) for s in range(view.rules.players)
                   if s != view.seat)


# ----- bidding and the two-player choices ------------------------------------------------

def bid_reason(view: PlayerView, bid: Bid, nil_rate: float = 0.0) -> Message:
    """Why bid ``bid``: the only bid left, nil's chances, or the tricks counted."""
    bids = [a for a in view.legal if isinstance(a, Bid)]
    if len(bids) == 1:
        return Message("reason.only_bid")
    if bid.is_nil:
        return Message("reason.bid_nil", percent=round(100 * nil_rate))
    sure = min(sure_tricks(view.hand, view.rules.players), bid.tricks)
    return Message("reason.bid_count", sure=sure, likely=max(0, bid.tricks - sure))


def sure_tricks(hand: CardMask, players: int) -> int:
    """Top cards that win whoever holds the rest: the run of spades down from the ace,
    and of each side suit down from the ace (at most two rounds before someone ruffs;
    one with five or more players)."""
    rounds = 2 if players <= 4 else 1
    total = 0
    for suit in Suit:
        run = 0
        for rank in range(14, 1, -1):
            if not hand & Card(suit, rank).bit:
                break
            run += 1
        total += run if suit is Suit.SPADES else min(run, rounds)
    return total


def _draw_reason(view: PlayerView, choice: DrawChoice) -> Message:
    top = view.draw_top
    if top is None:
        return Message("reason.choice")
    if is_blind_nil(view):
        return Message("reason.keep_low" if choice.keep else "reason.discard_high")
    return Message("reason.keep_high" if choice.keep else "reason.discard_low")
