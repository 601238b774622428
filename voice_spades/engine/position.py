"""A hand's position, and what the rules allow in it: whose turn, which actions are
legal, and why an action is not.

:class:`HandPosition` holds every fact of one hand in progress and answers questions
about it without changing it; :class:`~voice_spades.engine.hand.HandState` adds the
deal and the moves that change it. The split follows python-chess's
``BaseBoard``/``Board``.
"""

from __future__ import annotations

import itertools

from voice_spades.engine.actions import Action, Bid, BlindNilChoice, DrawChoice, Exchange
from voice_spades.engine.bidding import bid_refusal
from voice_spades.engine.cards import CARDS, SUIT_OF, TWO_OF_CLUBS, Card, CardMask, Suit, cards_of
from voice_spades.engine.events import Trick
from voice_spades.engine.legal import legal_mask, play_refusal
from voice_spades.engine.phase import Phase
from voice_spades.engine.profiles import FirstLead, RuleOptions
from voice_spades.engine.seats import Seat
from voice_spades.messages import Message


class HandPosition:
    """Everything about one hand at one moment, and the rules' answers about it.

    Seats are numbered clockwise from 0; a card is its index 0-51 in the masks and
    tricks (see :mod:`~voice_spades.engine.cards`).
    """

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

    # ----- queries ------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the last trick is won."""
        return self.phase is Phase.OVER

    @property
    def led_suit(self) -> Suit | None:
        """Suit of the current trick's first card, or None when leading."""
        return SUIT_OF[self.trick[0][1]] if self.trick else None

    @property
    def trick_number(self) -> int:
        """1 for the first trick of the hand."""
        return len(self.completed) + 1

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
    def bid_refusal(self, seat: int, bid: Bid) -> Message | None:
        """Why ``seat`` may not make ``bid`` now, as a message; None if allowed."""
        return bid_refusal(self.rules, self.bids, seat, bid)

    def refusal(self, action: Action, seat: int | None = None) -> Message | None:
        """Why ``action`` is illegal now (for ``seat``, default the player to act), as a
        message; None if it is legal."""
        seat = self.to_act if seat is None else seat
        phase = self.phase
        if phase is Phase.OVER:
            return Message("refusal.hand_over")
        if seat != self.to_act:
            return Message("refusal.not_turn", turn=Seat(self.to_act), seat=Seat(seat))
        if isinstance(action, Card):
            if phase is not Phase.PLAY:
                return _wrong_time("refusal.not_time_to_play", phase)
            if self.rules.first_lead is FirstLead.TWO_OF_CLUBS and not self.legal_play_mask() \
                    >> action.index & 1 and self.hands[seat] >> action.index & 1:
                return Message("refusal.two_of_clubs_leads", card=CARDS[TWO_OF_CLUBS])
            return play_refusal(self.hands[seat], action.index, self.led_suit,
                                self.spades_broken)
        if isinstance(action, Bid):
            if phase is not Phase.BID:
                return _wrong_time("refusal.not_time_to_bid", phase)
            return self.bid_refusal(seat, action)
        if isinstance(action, BlindNilChoice):
            return None if phase is Phase.BLIND_NIL else \
                Message("refusal.blind_nil_after_draw")
        if isinstance(action, DrawChoice):
            return None if phase is Phase.DRAW else \
                _wrong_time("refusal.not_time_to_draw", phase)
        if phase is not Phase.EXCHANGE:
            return _wrong_time("refusal.not_time_to_exchange", phase)
        return self._exchange_refusal(seat, action)

    def _exchange_refusal(self, seat: int, action: Exchange) -> Message | None:
        limit = min(self.rules.blind_nil_exchange, len(self.discards))
        if len(action.cards) > limit:
            return Message("refusal.exchange_too_many", limit=limit)
        if len(set(action.cards)) != len(action.cards):
            return Message("refusal.exchange_twice")
        for card in action.cards:
            if not self.hands[seat] & card.bit:
                return Message("refusal.not_held", card=card)
        return None


def _wrong_time(message_id: str, phase: Phase) -> Message:
    """"This is not the time to bid", with what the phase is for instead."""
    return Message(message_id, task=Message(f"refusal.task.{phase}"))
