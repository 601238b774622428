"""One match at the table, as the human hears it.

A :class:`Game` holds the match, the bots, the words for the human's seat, the
narrator and the human's turn; a new game is a new :class:`Game`. It turns what
happens into lines and never says them: the session sends them to its output.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from voice_spades.bots import Bot, decide
from voice_spades.engine import (
    Card,
    Event,
    HandStarted,
    Match,
    Phase,
    PlayerView,
    TrickWon,
    mask_of,
)
from voice_spades.narration import (
    Answers,
    Hints,
    Line,
    Narrator,
    Phrasebook,
    Priority,
    Verbosity,
    previous_hand,
    trick_tag,
    turn_prompt,
)
from voice_spades.session.decisions import TurnTable
from voice_spades.session.resume import table_lines
from voice_spades.session.turns import PlayerTurn, bid_prompt_refusals, make_line

_log = logging.getLogger(__name__)

Cut = Callable[[list[Line], str], None]
"""Says the lines so far, then drops queued speech with the tag (stale card plays)."""


class Game:
    """The match at the table, the bots around it, and the human's words and turn."""

    def __init__(self, match: Match, bots: Mapping[int, Bot], human: int,
                 verbosity: Verbosity, hints: Hints) -> None:
        self.match = match
        self.bots = dict(bots)
        self.human = human
        self.words = Phrasebook(match.rules, human, verbosity)
        self.narrator = Narrator(self.words)
        self.narrator.sync(self.view)
        self.answers = Answers(self.words, hints)
        self.turn = PlayerTurn()
        self.turn.cursor.sync(self.view.hand)

    @property
    def view(self) -> PlayerView:
        """The human's view of the match now."""
        return self.match.view(self.human)

    def table(self) -> TurnTable:
        """What the human's turn reads now."""
        return TurnTable(self.view, self.match.is_over, self.answers, self.match.refusal,
                         previous=previous_hand(self.match), seed=self.match.seed)

    def line(self, message_id: str, *, priority: Priority = Priority.NORMAL,
             **fields: object) -> Line:
        """A catalog message as a line, at the human's verbosity."""
        return make_line(self.words, message_id, priority=priority, **fields)

    # ----- what to say ----------------------------------------------------------
    def opening(self) -> list[Line]:
        """The deal of a new match (the first hand's start)."""
        return [line for event in self.match.opening_events()
                for line in self.narrator.narrate(event)]

    def resumed(self) -> list[Line]:
        """Where a resumed match stands: hand, trick, scores, the human's cards, what is on
        the table (who led what) or the bids so far, and whose turn it is."""
        self._follow_turn()
        view, words = self.view, self.words
        where = words.say(f"word.where.{view.phase}", trick=view.trick_number)
        lines = [self.line("session.resumed", hand=view.hand_number, where=where,
                           scores=words.scores(view.scores, view.bags))]
        if view.hand:
            lines.append(self.answers.hand(view))
        return [*lines, *table_lines(view, self.answers)]

    def narrate(self, events: Sequence[Event], *, behind: bool, cut: Cut) -> list[Line]:
        """The lines for ``events``; ``behind`` says the narrator has not caught up, so
        a won trick first ``cut`` s its card plays that are still queued. Also moves the
        turn on: a new hand forgets typed bids and marks, and on the human's turn to play
        the cursor goes to a playable card."""
        lines: list[Line] = []
        for event in events:
            if isinstance(event, TrickWon) and behind:
                cut(lines, trick_tag(self.narrator.hand_number, event.trick.number))
                lines = []
            if isinstance(event, HandStarted):
                self.turn.reset()
            lines += self.narrator.narrate(event, behind=behind)
        self._follow_turn()
        return lines

    def _follow_turn(self) -> None:
        """Keep the hand cursor on the human's cards and, on their turn to play, on a
        playable one."""
        view = self.view
        self.turn.cursor.sync(view.hand)
        if view.is_my_turn and view.phase == Phase.PLAY:
            self.turn.cursor.focus(mask_of(a for a in view.legal if isinstance(a, Card)),
                                   view.hand)

    def prompt(self) -> list[Line]:
        """What the human is to do now, if it is their turn."""
        table = self.table()
        prompt = turn_prompt(table.view, self.words, self.answers.hints,
                             bid_prompt_refusals(table), cursor=self.turn.cursor.card)
        return [prompt] if prompt is not None else []

    def over_prompt(self) -> Line:
        """The match is over: a new game, or quit."""
        hints = self.answers.hints
        return self.line("prompt.match_over", new=hints.new, quit=hints.quit,
                         priority=Priority.HIGH)

    # ----- the bots ---------------------------------------------------------------
    def bot_move(self) -> list[Event]:
        """The bot whose turn it is acts; what happened."""
        seat = self.match.to_act
        if seat is None or seat == self.human:
            raise RuntimeError(f"no bot is to act (seat {seat})")
        try:
            return self.match.apply(decide(self.bots[seat], self.match.view(seat)))
        except Exception:
            # A bot bug must not stop the player's game: take the first legal action.
            _log.exception("the %s bot failed; it takes the first legal action", seat)
            return self.match.apply(self.match.legal_actions()[0])
