"""The game on this machine: one match, the bots in every other seat, autosave."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from voice_spades.bots import Bot, decide
from voice_spades.engine import Action, Event, HandScored, Match, Outcome, PlayerView, RuleOptions
from voice_spades.messages import Message
from voice_spades.storage import SaveStore
from voice_spades.table.base import Note, PreviousHand

_log = logging.getLogger(__name__)


class LocalTable:
    """A :class:`~voice_spades.table.base.Table` holding the match itself: the player
    sits at ``seat`` and ``bots`` play every other seat."""

    def __init__(self, match: Match, bots: Mapping[int, Bot], seat: int = 0) -> None:
        if not 0 <= seat < match.rules.players:
            raise ValueError(f"seat {seat} is not at a {match.rules.players}-player table")
        missing = set(range(match.rules.players)) - {seat} - set(bots)
        if missing:
            raise ValueError(f"no bot for seats {sorted(missing)}")
        self.match = match
        self.bots = {s: bot for s, bot in bots.items() if s != seat}
        self._seat = seat

    @property
    def seat(self) -> int:
        """The player's seat."""
        return self._seat

    @property
    def watching(self) -> bool:
        """The player plays here."""
        return False

    @property
    def rules(self) -> RuleOptions:
        """The match's rules."""
        return self.match.rules

    @property
    def seed(self) -> int:
        """The match's seed (the hint samples from it, so a hint repeats)."""
        return self.match.seed

    @property
    def to_act(self) -> int | None:
        """The seat to act now."""
        return self.match.to_act

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""
        return self.match.is_over

    def view(self) -> PlayerView:
        """The player's view now."""
        return self.match.view(self._seat)

    def refusal(self, action: Action) -> Message | None:
        """The engine's reason the player may not take ``action`` now."""
        return self.match.refusal(action)

    def act(self, action: Action) -> list[Event]:
        """Apply the player's action (the engine has the last word: it raises
        IllegalActionError)."""
        return self.match.apply(action)

    def pending(self) -> bool:
        """True when a bot is to move."""
        seat = self.match.to_act
        return seat is not None and seat != self._seat

    def advance(self) -> list[Event]:
        """The bot whose turn it is acts; what happened."""
        seat = self.match.to_act
        if seat is None or seat == self._seat:
            raise RuntimeError(f"no bot is to act (seat {seat})")
        try:
            return self.match.apply(decide(self.bots[seat], self.match.view(seat)))
        except Exception:
            # A bot bug must not stop the player's game: take the first legal action.
            _log.exception("the %s bot failed; it takes the first legal action", seat)
            return self.match.apply(self.match.legal_actions()[0])

    def notes(self) -> list[Note]:
        """Nothing is said at a local table but the game."""
        return []

    def chat(self, text: str) -> Message | None:
        """No one to talk to: the bots do not chat."""
        return Message("table.chat_local")

    def opening_events(self) -> list[Event]:
        """The first deal's events."""
        return self.match.opening_events()

    def previous(self) -> PreviousHand | None:
        """The last hand the match has finished, or None before the first one ends."""
        match = self.match
        if not match.finished or not match.hand_scores:
            return None
        hand, score = match.finished[-1], match.hand_scores[-1]
        result = HandScored(hand.hand_number, score,
                            tuple(side.score_after for side in score.sides),
                            tuple(side.bags_after for side in score.sides))
        return PreviousHand(hand.hand_number, tuple(hand.bids), tuple(hand.completed), result)

    def outcome(self) -> Outcome | None:
        """How the match ended."""
        return self.match.outcome()

    def save(self, store: SaveStore, settings: Mapping[str, object]) -> None:
        """Write the match and its settings to the save file (atomic)."""
        store.save(self.match, dict(settings))
