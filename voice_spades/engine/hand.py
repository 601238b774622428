"""One hand of Spades as a state machine: (blind nil, draw, exchange,) bid, play.

A :class:`HandState` is owned by whoever created it (a :class:`~.match.Match`, a
bot's search): :meth:`apply` checks and mutates it, :meth:`copy` gives a private
copy. The whole hand is its deal plus the actions applied, so :meth:`to_dict` and
:func:`~voice_spades.engine.saved_hand.hand_from_dict` replay and re-check
everything. What may be done in a position is asked of
:class:`~voice_spades.engine.position.HandPosition`, its base class.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from voice_spades.engine.actions import (
    Action,
    Bid,
    BlindNilChoice,
    DrawChoice,
    Exchange,
    action_to_text,
)
from voice_spades.engine.cards import CARDS, FIRST_SPADE, TWO_OF_CLUBS, Card, cards_of
from voice_spades.engine.deck import check_deal, check_stock, deal_round, deck_for
from voice_spades.engine.events import (
    BiddingComplete,
    BidMade,
    BlindNilDecided,
    CardDrawn,
    CardPlayed,
    CardsExchanged,
    DrawFinished,
    Event,
    HandDealt,
    HandStarted,
    SpadesBroken,
    Trick,
    TrickWon,
)
from voice_spades.engine.legal import trick_winner_index
from voice_spades.engine.phase import Phase
from voice_spades.engine.position import HandPosition
from voice_spades.engine.profiles import Deal, FirstLead, RuleOptions
from voice_spades.errors import IllegalActionError

__all__ = ["HandState", "Phase"]


class HandState(HandPosition):
    """One hand in progress. Build it with :meth:`deal`, :meth:`from_deal` or
    :meth:`from_stock`; drive it with :meth:`legal_actions` and :meth:`apply`."""

    # ----- construction -------------------------------------------------------
    @classmethod
    def deal(cls, rules: RuleOptions, dealer: int, rng: random.Random,
             hand_number: int = 1) -> HandState:
        """A shuffled hand: dealt one at a time from the dealer's left, or, for the
        two-player rules, a shuffled stock to draw from."""
        deck = deck_for(rules)
        rng.shuffle(deck)
        chance_seed = rng.getrandbits(32)
        if rules.deal is Deal.DRAW:
            return cls.from_stock(rules, dealer, deck, hand_number, chance_seed)
        hands = deal_round(deck, dealer, rules.players)
        return cls.from_deal(rules, dealer, hands, hand_number, chance_seed)

    @classmethod
    def from_deal(cls, rules: RuleOptions, dealer: int, hands: Sequence[Sequence[Card]],
                  hand_number: int = 1, chance_seed: int = 0) -> HandState:
        """A hand from an explicit deal, ``hands[seat]`` for each seat (not for the
        two-player draw; see :meth:`from_stock`). Raises InvalidStateError on a deal
        the rules do not allow."""
        if rules.deal is Deal.DRAW:
            raise ValueError("The two-player rules draw from a stock: use from_stock.")
        state = cls(rules, dealer, hand_number, chance_seed)
        check_deal(rules, hands)
        state.hands = [sum(card.bit for card in hand) for hand in hands]
        state.initial_hands = tuple(tuple(hand) for hand in hands)
        state._start_bidding()
        if rules.first_lead is FirstLead.TWO_OF_CLUBS:
            for seat, mask in enumerate(state.hands):
                if mask >> TWO_OF_CLUBS & 1:
                    state.leader = seat
        return state

    @classmethod
    def from_stock(cls, rules: RuleOptions, dealer: int, stock: Sequence[Card],
                   hand_number: int = 1, chance_seed: int = 0) -> HandState:
        """A two-player hand from the stock's order, top card first. ``dealer`` draws
        first; the other player bids and leads first."""
        if rules.deal is not Deal.DRAW:
            raise ValueError("Only the two-player rules draw from a stock.")
        check_stock(stock)
        state = cls(rules, dealer, hand_number, chance_seed)
        state.stock = [card.index for card in stock]
        drawers = [state.dealer, state.first_player]
        if rules.blind_nil:
            state.phase = Phase.BLIND_NIL
            state._blind_order = drawers
            state.to_act = drawers[0]
        else:
            state.phase = Phase.DRAW
            state.to_act = state.dealer
        return state

    def copy(self) -> HandState:
        """An independent copy (the rules object is shared: it is frozen)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        for name in ("hands", "bids", "blind", "tricks_won", "trick", "completed", "actions",
                     "stock", "discards", "seen_discards", "_blind_order", "_exchange_order"):
            setattr(other, name, list(getattr(self, name)))
        return other

    # ----- applying actions ---------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Check and apply the action of the player to act; return what happened.

        Raises IllegalActionError, carrying the reason (see :meth:`refusal`), and
        changes nothing if the action is not allowed now.
        """
        if isinstance(action, Card) and self.phase is Phase.PLAY \
                and self.legal_play_mask() >> action.index & 1:
            return self._play(action.index)
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalActionError(reason.id, **reason.fields)
        if isinstance(action, Bid):
            return self._bid(action)
        if isinstance(action, BlindNilChoice):
            return self._blind_choice(action)
        if isinstance(action, DrawChoice):
            return self._draw(action)
        if isinstance(action, Exchange):
            return self._exchange(action)
        raise AssertionError("unreachable: a legal card is played above")

    def _play(self, card: int) -> list[Event]:
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        self.actions.append(CARDS[card])
        events: list[Event] = [CardPlayed(seat, CARDS[card], len(self.completed) + 1)]
        if card >= FIRST_SPADE and not self.spades_broken and (
                self.trick[0][1] < FIRST_SPADE if self.trick
                else self.rules.forced_spade_lead_breaks):
            self.spades_broken = True
            events.append(SpadesBroken(seat, CARDS[card]))
        if not self.trick:
            self.leader = seat
        self.trick.append((seat, card))
        if len(self.trick) < self.players:
            self.to_act = (seat + 1) % self.players
            return events
        win_pos = trick_winner_index(self.trick)
        winner, win_card = self.trick[win_pos]
        self.tricks_won[winner] += 1
        done = Trick(len(self.completed) + 1, self.trick[0][0],
                     tuple((s, CARDS[c]) for s, c in self.trick), winner)
        self.completed.append(done)
        self.trick = []
        self.to_act = self.leader = winner
        events.append(TrickWon(done, winner, CARDS[win_card], tuple(self.tricks_won)))
        if len(self.completed) == self.rules.hand_size:
            self.phase = Phase.OVER
        return events

    def _bid(self, bid: Bid) -> list[Event]:
        seat = self.to_act
        self.bids[seat] = bid
        self.actions.append(bid)
        events: list[Event] = [BidMade(seat, bid)]
        return events + self._next_bidder()

    def _next_bidder(self) -> list[Event]:
        for step in range(1, self.players + 1):
            seat = (self.to_act + step) % self.players
            if self.bids[seat] is None:
                self.to_act = seat
                return []
        self.phase = Phase.PLAY
        self.to_act = self.leader
        bids = tuple(b for b in self.bids if b is not None)
        return [BiddingComplete(bids, self.contracts())]

    def _start_bidding(self) -> list[Event]:
        self.phase = Phase.BID
        self.to_act = self.first_player
        if self.bids[self.to_act] is not None:
            return self._next_bidder()
        return []

    def _blind_choice(self, choice: BlindNilChoice) -> list[Event]:
        seat = self.to_act
        self.actions.append(choice)
        if choice.declare:
            self.blind[seat] = True
            self.bids[seat] = Bid(0, blind=True)
        self._blind_order.pop(0)
        if self._blind_order:
            self.to_act = self._blind_order[0]
        else:
            self.phase = Phase.DRAW
            self.to_act = self.dealer
        return [BlindNilDecided(seat, choice.declare)]

    def _draw(self, choice: DrawChoice) -> list[Event]:
        seat = self.to_act
        self.actions.append(choice)
        top, nxt = self.stock[self.stock_pos], self.stock[self.stock_pos + 1]
        self.stock_pos += 2
        kept, thrown = (top, nxt) if choice.keep else (nxt, top)
        self.hands[seat] |= 1 << kept
        self.discards.append(thrown)
        if not choice.keep:
            self.seen_discards[seat] |= 1 << top
        events: list[Event] = [CardDrawn(seat, CARDS[top], choice.keep, CARDS[kept],
                                         self.hands[seat].bit_count())]
        if self.stock_pos < len(self.stock):
            self.to_act = (seat + 1) % self.players
            return events
        self.initial_hands = tuple(tuple(cards_of(m)) for m in self.hands)
        events.append(DrawFinished(self.initial_hands))
        self._exchange_order = [s for s in (self.first_player, self.dealer) if self.blind[s]]
        if self._exchange_order:
            self.phase = Phase.EXCHANGE
            self.to_act = self._exchange_order[0]
            return events
        return events + self._start_bidding()

    def _exchange(self, exchange: Exchange) -> list[Event]:
        seat = self.to_act
        self.actions.append(exchange)
        rng = random.Random(f"{self.chance_seed}/exchange/{seat}")
        received = rng.sample(sorted(self.discards), len(exchange.cards))
        for index in received:
            self.discards.remove(index)
            self.hands[seat] |= 1 << index
        if received:
            # Any discard another seat saw may be among the cards taken back unseen.
            for other in range(self.players):
                if other != seat:
                    self.seen_discards[other] = 0
        for card in exchange.cards:
            self.hands[seat] &= ~card.bit
            self.discards.append(card.index)
            self.seen_discards[seat] |= card.bit
        self._exchange_order.pop(0)
        events: list[Event] = [CardsExchanged(seat, exchange.cards,
                                              tuple(CARDS[c] for c in received))]
        if self._exchange_order:
            self.to_act = self._exchange_order[0]
            return events
        return events + self._start_bidding()

    # ----- events and serialization ------------------------------------------
    def opening_events(self) -> list[Event]:
        """The events that announce this hand: who deals, and each player's cards."""
        events: list[Event] = [HandStarted(self.hand_number, self.dealer, self.first_player)]
        if self.rules.deal is Deal.DEAL:
            events.append(HandDealt(self.initial_hands))
        return events

    def to_dict(self) -> dict[str, object]:
        """The hand as JSON values: its deal (or stock) and the actions taken."""
        data: dict[str, object] = {"hand_number": self.hand_number, "dealer": self.dealer,
                                   "chance_seed": self.chance_seed}
        if self.rules.deal is Deal.DRAW:
            data["stock"] = [CARDS[i].code for i in self.stock]
        else:
            data["deal"] = [[card.code for card in hand] for hand in self.initial_hands]
        data["actions"] = [action_to_text(a) for a in self.actions]
        return data
