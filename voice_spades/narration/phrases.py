"""Spoken names of seats, sides, cards, bids and scores, for one listener.

The listener is "you"; other seats are named by compass point, the partner marked.
Every word comes from the catalog, so the phrasing lives in one place. Seats and sides
are :class:`~voice_spades.narration.forms.Spelled` texts that know whether they are
(or hold) the listener, for templates that write ``{seat:A|B}``; cards and ranks carry
their forms (``{card:the}``).
:meth:`Phrasebook.message` renders what a lower layer reported (a :class:`Message` or
a :class:`~voice_spades.errors.SpadesError` whose fields hold engine values) for this
listener.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from voice_spades.engine import Action, Bid, Card, CardMask, RuleOptions, Seat, Suit, cards_of
from voice_spades.errors import SpadesError
from voice_spades.messages import Message
from voice_spades.narration.catalog import (
    HAND_SUIT_ORDER,
    Catalog,
    Verbosity,
    capital,
    catalog,
    hand_order,
)
from voice_spades.narration.forms import Spelled, join_spelled

__all__ = ["HAND_SUIT_ORDER", "Phrasebook", "capital", "hand_order"]


class Phrasebook:
    """Builds the pieces of sentences for the player at ``viewer`` at one verbosity.

    With ``viewer=None`` there is no listener: every seat is named by compass point.
    ``words`` is the catalog to speak from (by default the active language's).
    """

    def __init__(self, rules: RuleOptions, viewer: int | None = 0,
                 verbosity: Verbosity = Verbosity.NORMAL, words: Catalog | None = None) -> None:
        self.rules = rules
        self.viewer = viewer
        self.verbosity = verbosity
        self._catalog = catalog() if words is None else words

    def say(self, message_id: str, **params: object) -> str:
        """The catalog message at this phrasebook's verbosity; seats in ``params`` (and
        in messages inside them) are named for this listener."""
        fields = {key: self._for_listener(value) for key, value in params.items()}
        return self._catalog.render(message_id, self.verbosity, **fields)

    def message(self, msg: Message) -> str:
        """A reported :class:`Message` as this listener hears it."""
        return self.say(msg.id, **msg.fields)

    def error(self, err: SpadesError) -> str:
        """What to tell this listener about ``err``."""
        return self.message(err.message)

    def _for_listener(self, value: object) -> object:
        if isinstance(value, Seat):
            return self.seat(value)
        if isinstance(value, Message):
            return self.message(value)
        if isinstance(value, SpadesError):
            return self.error(value)
        if isinstance(value, tuple):
            return tuple(self._for_listener(item) for item in value)
        return value  # other engine values are named by the catalog

    # ----- people ------------------------------------------------------------
    def is_partner(self, seat: int) -> bool:
        """True for the viewer's partner in a partnership game."""
        return self.viewer is not None and seat == self.rules.partner_of(self.viewer)

    def seat(self, seat: int) -> Spelled:
        """"you", "West" or "partner North" (marked when it is the listener)."""
        if seat == self.viewer:
            return Spelled(self.say("word.you"), listener=True)
        name = self._catalog.seat(self.rules.players, seat, self.verbosity)
        return Spelled(self.say("word.partner", name=name)) if self.is_partner(seat) else name

    def compass(self, seat: int) -> Spelled:
        """The compass name of ``seat`` whoever listens: "South", "North-east"."""
        return self._catalog.seat(self.rules.players, seat, self.verbosity)

    def seat_cap(self, seat: int) -> str:
        """:meth:`seat` at the start of a sentence: "You", "West"."""
        return capital(self.seat(seat))

    def whose(self, seat: int) -> Spelled:
        """"your" or "West's" (marked as the listener's, for the field form
        ``{whose:A|B}``: "Vous chutez votre nil", "Ouest chute son nil")."""
        if seat == self.viewer:
            return Spelled(self.say("word.your"), listener=True)
        return Spelled(self.say("word.possessive", name=self.seat(seat)))

    def side(self, side: int) -> Spelled:
        """A side by its players: "you and partner North", "West and East", "East"
        (marked as the listener's when the listener is on it)."""
        seats = self.rules.sides[side]
        if len(seats) == 1:
            return self.seat(seats[0])
        if self.viewer in seats:
            other = next(s for s in seats if s != self.viewer)
            return Spelled(self.say("word.side_us", partner=self.seat(other)), listener=True,
                           plural=True)
        return Spelled(self.say("word.side_them", first=self.seat(seats[0]),
                                second=self.seat(seats[1])), plural=True)

    def side_cap(self, side: int) -> str:
        """:meth:`side` at the start of a sentence."""
        return capital(self.side(side))

    # ----- cards -------------------------------------------------------------
    def rank(self, card: Card) -> Spelled:
        """"queen", "9"."""
        return self._catalog.rank(card.rank, self.verbosity)

    def suit(self, suit: Suit) -> Spelled:
        """"hearts"."""
        return self._catalog.suit(suit, self.verbosity)

    def card(self, card: Card) -> Spelled:
        """"queen of hearts", "9 of spades"."""
        return self._catalog.card(card, self.verbosity)

    def cards(self, cards: Iterable[Card]) -> Spelled:
        """Cards grouped by suit in reading order: "ace of spades; 9, 4 and 2 of hearts"."""
        return self._catalog.grouped(cards, self.verbosity)

    def ranks(self, cards: Iterable[Card]) -> Spelled:
        """Ranks of one suit, highest first: "ace, 10, 4"."""
        sep = self.say("word.list_sep")
        ranks = [self.rank(c) for c in sorted(cards, key=lambda c: -c.rank)]
        return join_spelled(sep.join(ranks), ranks, sep.join)

    def suit_cards(self, mask: CardMask, suit: Suit) -> str:
        """One suit of a hand: "hearts king 7", or "no diamonds" (silent when brief).

        The ranks are joined by ``word.rank_sep`` (a space), not a comma: a comma is a
        pause to the synthesizer, and a 13-card hand read with them took 8.1 s at 200
        words a minute, 5.8 s without (espeak-ng, English)."""
        cards = sorted((c for c in cards_of(mask) if c.suit == suit), key=lambda c: -c.rank)
        if not cards:
            return self.say("word.void", suit=suit)
        ranks = self.say("word.rank_sep").join(self.rank(c) for c in cards)
        return self.say("word.suit_cards", suit=suit, ranks=ranks,
                        count=self.count(len(cards)))

    def hand(self, mask: CardMask) -> str:
        """A whole hand by suit: "spades ace 10 4; hearts king 7; no clubs; diamonds 3"."""
        parts = [self.suit_cards(mask, suit) for suit in HAND_SUIT_ORDER]
        return self.say("word.group_sep").join(p for p in parts if p)

    def count(self, n: int) -> str:
        """"1 card", "7 cards"."""
        return self.say("word.cards", n=n)

    def bags(self, n: int) -> str:
        """"1 bag", "4 bags"."""
        return self.say("word.bags", n=n)

    def plays(self, plays: Sequence[tuple[int, Card]]) -> str:
        """Cards on a trick: "you 4 of hearts, West 9 of hearts"."""
        sep = self.say("word.list_sep")
        return sep.join(self.say("word.seat_card", seat=self.seat(s), card=c) for s, c in plays)

    # ----- bids and numbers --------------------------------------------------
    def bid(self, bid: Bid | None) -> str:
        """"4", "nil", "blind nil" or "not yet"."""
        if bid is None:
            return self.say("word.not_yet")
        return self._catalog.bid(bid, self.verbosity)

    def bid_choices(self, legal: Iterable[Action]) -> str:
        """The allowed bids as runs of numbers: "0 to 13", "0, 1, 2 or 4 to 13"."""
        values = sorted({a.tricks for a in legal if isinstance(a, Bid) and not a.blind})
        runs: list[list[int]] = []
        for v in values:
            if runs and v == runs[-1][-1] + 1:
                runs[-1].append(v)
            else:
                runs.append([v])
        parts: list[str] = []
        for run in runs:
            if len(run) >= 3:
                parts.append(self.say("word.bid_range", low=run[0], high=run[-1]))
            else:
                parts.extend(str(v) for v in run)
        return self.join(parts, "word.or")

    def nil_note(self, legal: Iterable[Action]) -> str:
        """" 0 is nil." when nil is among the allowed bids, else ""."""
        nil = any(isinstance(a, Bid) and a.is_nil and not a.blind for a in legal)
        return self.say("word.nil_note") if nil else ""

    def bids(self, bids: Sequence[Bid | None], order: Sequence[int] | None = None) -> str:
        """Each seat's bid: "you 3, West 4, partner North not yet"."""
        seats = range(len(bids)) if order is None else order
        sep = self.say("word.list_sep")
        return sep.join(self.say("word.seat_bid", seat=self.seat(s), bid=self.bid(bids[s]))
                        for s in seats)

    def signed(self, n: int) -> str:
        """"plus 52", "minus 100", "no points"."""
        if n == 0:
            return self.say("word.zero_points")
        return self.say("word.plus" if n > 0 else "word.minus", n=abs(n))

    def scores(self, scores: Sequence[int], bags: Sequence[int]) -> str:
        """Every side's score: "you and partner North 152 with 4 bags; West and East 98..."."""
        sep = self.say("word.group_sep")
        return sep.join(self.say("word.side_score", side=self.side(i), score=score,
                                 bags=self.bags(bags[i])) for i, score in enumerate(scores))

    def score_line(self, scores: Sequence[int]) -> str:
        """Scores without bags: "you and partner North 512, West and East 430"."""
        sep = self.say("word.list_sep")
        return sep.join(self.say("word.side_number", side=self.side(i), n=score)
                        for i, score in enumerate(scores))

    def tally(self, tricks_won: Sequence[int]) -> str:
        """Tricks per side: "you and partner North 5, West and East 3"."""
        per_side = [sum(tricks_won[s] for s in seats) for seats in self.rules.sides]
        return self.score_line(per_side)

    def join(self, items: Sequence[str], joiner: str = "word.and") -> Spelled:
        """"a, b and c" (or "a, b or c" with ``joiner="word.or"``)."""
        return self._catalog.join(items, self.verbosity, joiner)

