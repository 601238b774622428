"""A match: hand after hand until a side reaches the target (or, by the rule options'
ending, a side falls to minus the target, or the hand limit is reached), with save and
resume."""

from __future__ import annotations

import json
import random

from voice_spades.engine.actions import Action
from voice_spades.engine.cards import CARDS
from voice_spades.engine.events import Event, HandScored, MatchOver, TiedAtTarget
from voice_spades.engine.hand import HandState
from voice_spades.engine.outcome import Outcome, match_outcome
from voice_spades.engine.phase import Phase
from voice_spades.engine.profiles import RuleOptions
from voice_spades.engine.saved_hand import hand_from_dict
from voice_spades.engine.saved_rules import options_from_dict, options_to_dict
from voice_spades.engine.scoring import HandScore, score_hand
from voice_spades.engine.view import PlayerView
from voice_spades.errors import IllegalActionError, InvalidInputError, InvalidStateError
from voice_spades.messages import Message

FORMAT = "voice-spades/1"
"""Tag of the saved-match format."""


class Match:
    """A whole match. Deterministic from ``seed``: the first dealer and every deal.

    ``Match(rules, seed)`` deals the first hand; drive it with :meth:`legal_actions`
    and :meth:`apply` until :attr:`is_over`.
    """

    def __init__(self, rules: RuleOptions, seed: int = 0, first_dealer: int | None = None,
                 *, _first_hand: HandState | None = None) -> None:
        self.rules = rules
        self.seed = seed
        if first_dealer is None:
            first_dealer = random.Random(f"{seed}/dealer").randrange(rules.players)
        self.first_dealer = first_dealer % rules.players
        sides = len(rules.sides)
        self.scores: list[int] = [0] * sides
        self.bags: list[int] = [0] * sides
        self.finished: list[HandState] = []
        self.hand_scores: list[HandScore] = []
        self.winner: int | None = None
        """The winning side once the match is over."""
        self._outcome: Outcome | None = None
        self.hand = _first_hand if _first_hand is not None else self._new_hand(1)

    def _new_hand(self, number: int) -> HandState:
        dealer = (self.first_dealer + number - 1) % self.rules.players
        rng = random.Random(f"{self.seed}/hand/{number}")
        return HandState.deal(self.rules, dealer, rng, number)

    # ----- queries ------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once a side has won."""
        return self.winner is not None

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited, or None when the match is over."""
        return None if self.is_over else self.hand.to_act

    @property
    def hands_played(self) -> int:
        """Completed hands."""
        return len(self.finished)

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take."""
        return [] if self.is_over else self.hand.legal_actions()

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        return not self.is_over and self.hand.is_legal(action)

    def refusal(self, action: Action, seat: int | None = None) -> Message | None:
        """Why ``action`` is illegal now (for ``seat``, default the seat to act), as a
        catalog message; None when it is legal."""
        if self.is_over:
            return Message("refusal.match_over")
        return self.hand.refusal(action, seat)

    def outcome(self) -> Outcome | None:
        """How the match stands after the last hand: None while no side has reached
        the target (nor fallen to the losing score, :attr:`RuleOptions.losing_score`);
        a winner once the match is over, with the reason; ``winner`` None while the
        lead is tied (another hand is being played)."""
        return self._outcome

    def view(self, seat: int) -> PlayerView:
        """Everything ``seat`` may know now."""
        hand = self.hand
        acting = not self.is_over and hand.to_act == seat
        return PlayerView(
            seat=seat, rules=self.rules, hand_number=hand.hand_number, dealer=hand.dealer,
            first_player=hand.first_player, phase=hand.phase,
            to_act=self.to_act, hand=hand.hands[seat], bids=tuple(hand.bids),
            tricks_won=tuple(hand.tricks_won),
            trick=tuple((s, CARDS[c]) for s, c in hand.trick),
            leader=hand.leader, spades_broken=hand.spades_broken,
            completed=tuple(hand.completed), played=hand.played,
            cards_held=tuple(m.bit_count() for m in hand.hands),
            scores=tuple(self.scores), bags=tuple(self.bags),
            draw_top=hand.draw_top() if acting else None,
            known_out=hand.seen_discards[seat],
            legal=tuple(hand.legal_actions()) if acting else ())

    def opening_events(self) -> list[Event]:
        """Events announcing the current hand (used at start and after resuming)."""
        return self.hand.opening_events()

    # ----- acting -------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply the action of the seat to act; scores the hand when it ends and deals
        the next one. Raises IllegalActionError (nothing changes) if not allowed."""
        if self.is_over:
            raise IllegalActionError("refusal.match_over")
        events = self.hand.apply(action)
        if self.hand.phase is Phase.OVER:
            events.extend(self._finish_hand())
        return events

    def _finish_hand(self) -> list[Event]:
        hand = self.hand
        bids = [b for b in hand.bids if b is not None]
        score = score_hand(self.rules, bids, hand.tricks_won, self.scores, self.bags)
        for side in score.sides:
            self.scores[side.side] = side.score_after
            self.bags[side.side] = side.bags_after
        self.finished.append(hand)
        self.hand_scores.append(score)
        events: list[Event] = [HandScored(hand.hand_number, score, tuple(self.scores),
                                          tuple(self.bags))]
        limit = self.rules.hand_limit
        outcome = self._outcome = match_outcome(
            self.scores, self.rules.target, self.rules.losing_score,
            at_hand_limit=limit is not None and self.hands_played >= limit)
        if outcome is not None and outcome.winner is None:
            events.append(TiedAtTarget(tuple(self.scores)))
        elif outcome is not None and outcome.winner is not None:
            self.winner = outcome.winner
            events.append(MatchOver(outcome.winner, tuple(self.scores), self.hands_played))
            return events
        self.hand = self._new_hand(hand.hand_number + 1)
        events.extend(self.hand.opening_events())
        return events

    # ----- saving -------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """The match as JSON values: rules, seed, and each hand's deal and actions."""
        hands = [h.to_dict() for h in self.finished]
        if not self.is_over:
            hands.append(self.hand.to_dict())
        return {"format": FORMAT, "rules": options_to_dict(self.rules), "seed": self.seed,
                "first_dealer": self.first_dealer, "hands": hands}

    def to_json(self) -> str:
        """:meth:`to_dict` as compact JSON text."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: object) -> Match:
        """Rebuild a match, replaying and checking every hand. Raises
        InvalidStateError carrying the reason if anything breaks the rules."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidStateError("save.not_a_match")
        rules_data, seed, first_dealer, hands = (data.get(k) for k in
                                                 ("rules", "seed", "first_dealer", "hands"))
        if not isinstance(rules_data, dict) or not isinstance(hands, list) or not hands:
            raise InvalidStateError("save.no_rules_or_hands")
        if not isinstance(seed, int) or not isinstance(first_dealer, int):
            raise InvalidStateError("save.no_seed_or_dealer")
        try:
            rules = options_from_dict(rules_data)
        except InvalidInputError as exc:
            raise InvalidStateError("save.rules_damaged", reason=exc.message) from exc
        if not 0 <= first_dealer < rules.players:
            raise InvalidStateError("save.dealer_not_a_seat")
        states: list[HandState] = []
        for number, hand_data in enumerate(hands, 1):
            if not isinstance(hand_data, dict):
                raise InvalidStateError("save.hand_not_a_record", number=number)
            if hand_data.get("hand_number") != number or \
                    hand_data.get("dealer") != (first_dealer + number - 1) % rules.players:
                raise InvalidStateError("save.hand_wrong_dealer", number=number)
            states.append(hand_from_dict(rules, hand_data))
        match = cls(rules, seed, first_dealer, _first_hand=states[0])
        for number, state in enumerate(states, 1):
            last = number == len(states)
            match.hand = state
            if state.phase is not Phase.OVER:
                if not last:
                    raise InvalidStateError("save.hand_unfinished", number=number)
                break
            match._finish_hand()
            if match.is_over and not last:
                raise InvalidStateError("save.played_after_win")
        return match

    @classmethod
    def from_json(cls, text: str) -> Match:
        """Inverse of :meth:`to_json`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidStateError("save.not_json", error=exc.msg) from exc
        return cls.from_dict(data)
