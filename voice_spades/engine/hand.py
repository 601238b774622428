"""One hand of Spades as a state machine: (blind nil, draw, exchange,) bid, play.

A :class:`HandState` is owned by whoever created it (a :class:`~.match.Match`, a
bot's search): :meth:`apply` checks and mutates it, :meth:`copy` gives a private
copy. The whole hand is its deal plus the actions applied, so ``to_dict`` and
``from_dict`` replay and re-check everything.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from enum import Enum

from voice_spades.engine.actions import (
    Action,
    Bid,
    BlindNilChoice,
    DrawChoice,
    Exchange,
    action_from_text,
    action_to_text,
)
from voice_spades.engine.cards import CARDS, Card, CardMask, cards_of
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
from voice_spades.engine.legal import illegal_play_reason, legal_mask, trick_winner_index
from voice_spades.engine.profiles import REMOVED_TWOS_ORDER, Deal, FirstLead, RuleOptions
from voice_spades.engine.seats import seat_name
from voice_spades.errors import IllegalActionError, InvalidInputError, InvalidStateError

TWO_OF_CLUBS = Card.parse("2C").index


class Phase(Enum):
    """The phases of a hand, in order; two-player hands start with BLIND_NIL."""

    BLIND_NIL = "blind-nil"
    DRAW = "draw"
    EXCHANGE = "exchange"
    BID = "bid"
    PLAY = "play"
    OVER = "over"


def deck_for(rules: RuleOptions) -> list[Card]:
    """The cards in play for these rules: 52, less the removed 2s."""
    return list(_deck_without_twos(rules.removed_twos))


@functools.cache
def deck_mask(removed_twos: int) -> CardMask:
    """The cards in play as a mask, with ``removed_twos`` 2s taken out in the
    rules' order (see :attr:`RuleOptions.removed_twos`)."""
    return sum(card.bit for card in _deck_without_twos(removed_twos))


@functools.cache
def _deck_without_twos(removed: int) -> tuple[Card, ...]:
    gone = {Card.parse(code) for code in REMOVED_TWOS_ORDER[:removed]}
    return tuple(card for card in CARDS if card not in gone)


class HandState:
    """One hand in progress. Build it with :meth:`deal`, :meth:`from_deal` or
    :meth:`from_stock`; drive it with :meth:`legal_actions` and :meth:`apply`."""

    def __init__(self, rules: RuleOptions, dealer: int, hand_number: int = 1,
                 chance_seed: int = 0) -> None:
        self.rules = rules
        self.players = rules.players
        self.dealer = dealer % rules.players
        self.first_player = (self.dealer + 1) % rules.players
        self.hand_number = hand_number
        self.chance_seed = chance_seed
        n = rules.players
        self.hands: list[CardMask] = [0] * n
        self.bids: list[Bid | None] = [None] * n
        self.blind: list[bool] = [False] * n
        self.tricks_won: list[int] = [0] * n
        self.trick: list[tuple[int, int]] = []
        self.completed: list[Trick] = []
        self.spades_broken = False
        self.played: CardMask = 0
        self.actions: list[Action] = []
        self.phase = Phase.BID
        self.to_act = self.first_player
        self.leader = self.first_player
        self.initial_hands: tuple[tuple[Card, ...], ...] = ()
        self.stock: list[int] = []
        self.stock_pos = 0
        self.discards: list[int] = []
        self.seen_discards: list[CardMask] = [0] * n
        self._blind_order: list[int] = []
        self._exchange_order: list[int] = []

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
        n = rules.players
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            hands[(dealer + 1 + i) % n].append(card)
        return cls.from_deal(rules, dealer, hands, hand_number, chance_seed)

    @classmethod
    def from_deal(cls, rules: RuleOptions, dealer: int, hands: Sequence[Sequence[Card]],
                  hand_number: int = 1, chance_seed: int = 0) -> HandState:
        """A hand from an explicit deal, ``hands[seat]`` for each seat (not for the
        two-player draw; see :meth:`from_stock`). Raises InvalidStateError on a deal
        the rules do not allow."""
        if rules.deal is Deal.DRAW:
            raise InvalidStateError("The two-player rules draw from a stock: use from_stock.")
        state = cls(rules, dealer, hand_number, chance_seed)
        _check_deal(rules, hands)
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
            raise InvalidStateError("Only the two-player rules draw from a stock.")
        if len(stock) != 52 or len(set(stock)) != 52:
            raise InvalidStateError("The stock must hold each of the 52 cards once.")
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
        other = HandState.__new__(HandState)
        other.__dict__.update(self.__dict__)
        for name in ("hands", "bids", "blind", "tricks_won", "trick", "completed", "actions",
                     "stock", "discards", "seen_discards", "_blind_order", "_exchange_order"):
            setattr(other, name, list(getattr(self, name)))
        return other

    # ----- queries ------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the last trick is won."""
        return self.phase is Phase.OVER

    @property
    def led_suit(self) -> int | None:
        """Suit number of the current trick's first card, or None when leading."""
        return self.trick[0][1] // 13 if self.trick else None

    @property
    def trick_number(self) -> int:
        """1 for the first trick of the hand."""
        return len(self.completed) + 1

    def seat_name(self, seat: int) -> str:
        """Compass name of a seat."""
        return seat_name(self.players, seat)

    def hand_of(self, seat: int) -> list[Card]:
        """The cards a seat holds now."""
        return cards_of(self.hands[seat])

    def legal_play_mask(self) -> CardMask:
        """Cards the player to act may play (0 outside the play phase)."""
        if self.phase is not Phase.PLAY:
            return 0
        if self.rules.first_lead is FirstLead.TWO_OF_CLUBS and not self.completed \
                and not self.trick and self.hands[self.to_act] >> TWO_OF_CLUBS & 1:
            return 1 << TWO_OF_CLUBS
        return legal_mask(self.hands[self.to_act], self.led_suit, self.spades_broken)

    def legal_bids(self, seat: int | None = None) -> list[Bid]:
        """Bids the player to act (or ``seat``, if it were their turn) may make now."""
        seat = self.to_act if seat is None else seat
        return [Bid(t) for t in range(self.rules.hand_size + 1)
                if self.bid_refusal(seat, Bid(t)) is None]

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now (empty when the hand is over)."""
        if self.phase is Phase.PLAY:
            return list(cards_of(self.legal_play_mask()))
        if self.phase is Phase.BID:
            return list(self.legal_bids())
        if self.phase is Phase.BLIND_NIL:
            return [BlindNilChoice(False), BlindNilChoice(True)]
        if self.phase is Phase.DRAW:
            return [DrawChoice(True), DrawChoice(False)]
        if self.phase is Phase.EXCHANGE:
            hand = cards_of(self.hands[self.to_act])
            limit = min(self.rules.blind_nil_exchange, len(self.discards))
            return [Exchange(combo) for size in range(limit + 1)
                    for combo in itertools.combinations(hand, size)]
        return []

    def is_legal(self, action: Action) -> bool:
        """Whether ``apply(action)`` would succeed."""
        return self.refusal(action) is None

    def draw_top(self) -> Card | None:
        """The top card of the stock, seen by the player drawing now."""
        if self.phase is not Phase.DRAW:
            return None
        return CARDS[self.stock[self.stock_pos]]

    def contracts(self) -> tuple[int, ...]:
        """Each side's contract from the bids so far (nil bids add 0)."""
        return tuple(sum(b.tricks for s in seats if (b := self.bids[s]) is not None)
                     for seats in self.rules.sides)

    # ----- legality -----------------------------------------------------------
    def bid_refusal(self, seat: int, bid: Bid) -> str | None:
        """Why ``seat`` may not make ``bid`` now, in plain words; None if allowed."""
        rules = self.rules
        size = rules.hand_size
        if bid.blind:
            if not rules.blind_nil:
                return "Blind nil is not played with these rules."
            return "Blind nil is declared before you look at your cards, not in the bidding."
        if bid.tricks > size:
            return f"Bids go from 0 (nil) to {size}; {bid.tricks} is too many."
        partner = self._partner_bid(seat)
        if bid.is_nil and partner is not None and partner.is_nil and not rules.double_nil:
            return "Your partner bid nil, and these rules allow only one nil per side."
        if rules.suicide:
            reason = _suicide_refusal(bid, partner)
            if reason is not None:
                return reason
        if rules.no_hell and self._is_last_bidder(seat):
            total = sum(b.tricks for b in self.bids if b is not None) + bid.tricks
            if total == size and self._no_hell_has_alternative(seat):
                return (f"No hell: the bids may not add up to {size}, "
                        f"so you may not bid {bid.tricks}.")
        return None

    def refusal(self, action: Action, seat: int | None = None) -> str | None:
        """Why ``action`` is illegal now (for ``seat``, default the player to act)."""
        seat = self.to_act if seat is None else seat
        if self.phase is Phase.OVER:
            return "The hand is over."
        if seat != self.to_act:
            return f"It is {self.seat_name(self.to_act)}'s turn, not {self.seat_name(seat)}'s."
        phase = self.phase
        if isinstance(action, Card):
            if phase is not Phase.PLAY:
                return f"This is not the time to play a card: {_PHASE_TASK[phase]}."
            if self.rules.first_lead is FirstLead.TWO_OF_CLUBS and not self.legal_play_mask() \
                    >> action.index & 1 and self.hands[seat] >> action.index & 1:
                return "The first lead must be the 2 of clubs."
            return illegal_play_reason(self.hands[seat], action.index, self.led_suit,
                                       self.spades_broken)
        if isinstance(action, Bid):
            if phase is not Phase.BID:
                return f"This is not the time to bid: {_PHASE_TASK[phase]}."
            return self.bid_refusal(seat, action)
        if isinstance(action, BlindNilChoice):
            return None if phase is Phase.BLIND_NIL else \
                "Blind nil can only be declared before the draw."
        if isinstance(action, DrawChoice):
            return None if phase is Phase.DRAW else \
                f"This is not the time to draw: {_PHASE_TASK[phase]}."
        if phase is not Phase.EXCHANGE:
            return f"This is not the time to exchange cards: {_PHASE_TASK[phase]}."
        return self._exchange_refusal(seat, action)

    def _exchange_refusal(self, seat: int, action: Exchange) -> str | None:
        limit = min(self.rules.blind_nil_exchange, len(self.discards))
        if len(action.cards) > limit:
            return f"You may exchange at most {limit} cards."
        if len(set(action.cards)) != len(action.cards):
            return "Name each card to exchange once."
        for card in action.cards:
            if not self.hands[seat] & card.bit:
                return f"You don't hold the {card.name}."
        return None

    def _partner_bid(self, seat: int) -> Bid | None:
        if not self.rules.is_partnership:
            return None
        return self.bids[(seat + 2) % 4]

    def _is_last_bidder(self, seat: int) -> bool:
        return sum(b is None for b in self.bids) == 1 and self.bids[seat] is None

    def _no_hell_has_alternative(self, seat: int) -> bool:
        """Decision: if suicide leaves only the hellish bid, no hell gives way."""
        if not self.rules.suicide:
            return True
        partner = self._partner_bid(seat)
        return any(_suicide_refusal(Bid(t), partner) is None
                   and sum(b.tricks for b in self.bids if b is not None) + t
                   != self.rules.hand_size
                   for t in range(self.rules.hand_size + 1))

    # ----- applying actions ---------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Check and apply the action of the player to act; return what happened.

        Raises IllegalActionError, with the reason in plain words, and changes
        nothing if the action is not allowed now.
        """
        if isinstance(action, Card) and self.phase is Phase.PLAY \
                and self.legal_play_mask() >> action.index & 1:
            return self._play(action.index)
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalActionError(reason)
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
        if card >= 39 and not self.spades_broken and (
                self.trick[0][1] < 39 if self.trick else self.rules.forced_spade_lead_breaks):
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

    @classmethod
    def from_dict(cls, rules: RuleOptions, data: dict[str, object]) -> HandState:
        """Rebuild a hand by replaying its actions; a rule broken anywhere raises
        InvalidStateError saying what is wrong."""
        try:
            dealer = _int_field(data, "dealer", 0, rules.players - 1)
            number = _int_field(data, "hand_number", 1, 10**6)
            chance = _int_field(data, "chance_seed", 0, 2**64)
            if rules.deal is Deal.DRAW:
                stock = [Card.parse(str(c)) for c in _list_field(data, "stock")]
                state = cls.from_stock(rules, dealer, stock, number, chance)
            else:
                hands = [[Card.parse(str(c)) for c in _list_of_lists(h)]
                         for h in _list_field(data, "deal")]
                state = cls.from_deal(rules, dealer, hands, number, chance)
            actions = [action_from_text(str(a)) for a in _list_field(data, "actions")]
        except InvalidInputError as exc:
            raise InvalidStateError(f"The saved hand is damaged: {exc}") from exc
        for step, action in enumerate(actions, 1):
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise InvalidStateError(
                    f"The saved hand breaks the rules at action {step} "
                    f"({action_to_text(action)}): {exc}") from exc
        return state


_PHASE_TASK = {
    Phase.BLIND_NIL: "choose whether to bid blind nil",
    Phase.DRAW: "the cards are being drawn",
    Phase.EXCHANGE: "the blind nil exchange comes first",
    Phase.BID: "it is time to bid",
    Phase.PLAY: "it is time to play a card",
    Phase.OVER: "the hand is over",
}


def _suicide_refusal(bid: Bid, partner: Bid | None) -> str | None:
    if partner is None:
        if bid.is_nil or bid.tricks >= 4:
            return None
        return "Suicide: one partner bids nil and the other at least 4, so bid nil or 4 or more."
    if partner.is_nil:
        if bid.is_nil or bid.tricks >= 4:
            return None
        return "Suicide: your partner bid nil, so bid nil or at least 4."
    if not bid.is_nil:
        return f"Suicide: your partner bid {partner.tricks}, so you must bid nil."
    return None


def _check_deal(rules: RuleOptions, hands: Sequence[Sequence[Card]]) -> None:
    n, size = rules.players, rules.hand_size
    if len(hands) != n:
        raise InvalidStateError(f"The deal has {len(hands)} hands for {n} players.")
    deck = frozenset(_deck_without_twos(rules.removed_twos))
    seen: set[Card] = set()
    for seat, hand in enumerate(hands):
        name = seat_name(n, seat)
        if len(hand) != size:
            raise InvalidStateError(f"{name} has {len(hand)} cards; a hand has {size}.")
        for card in hand:
            if card in seen:
                raise InvalidStateError(f"The {card.name} is dealt twice.")
            if card not in deck:
                raise InvalidStateError(
                    f"The {card.name} is not in the deck with {n} players.")
            seen.add(card)


def _int_field(data: dict[str, object], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidStateError(f"The saved hand's {key} is missing or out of range.")
    return value


def _list_field(data: dict[str, object], key: str) -> list[object]:
    value = data.get(key)
    if not isinstance(value, list):
        raise InvalidStateError(f"The saved hand's {key} is missing.")
    return value


def _list_of_lists(value: object) -> list[object]:
    if not isinstance(value, list):
        raise InvalidStateError("The saved deal is not a list of hands.")
    return value

