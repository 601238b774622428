"""One match at the table, as the human hears it.

A :class:`Game` holds the table (a local match and its bots, or a remote table), the
words for the player's seat, the narrator and the player's turn; a new game is a new
:class:`Game`. It turns what
happens into lines and never says them: the session sends them to its output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from voice_spades.engine import (
    Card,
    Event,
    HandStarted,
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
    trick_tag,
    turn_prompt,
)
from voice_spades.session.decisions import TurnTable
from voice_spades.session.resume import table_lines
from voice_spades.session.turns import PlayerTurn, bid_prompt_refusals, make_line
from voice_spades.table import Table

Cut = Callable[[list[Line], str], None]
"""Says the lines so far, then drops queued speech with the tag (stale card plays)."""


class Game:
    """The table, and the player's words and turn."""

    def __init__(self, table: Table, verbosity: Verbosity, hints: Hints) -> None:
        self.table = table
        self.human = table.seat
        self.words = Phrasebook(table.rules, None if table.watching else table.seat, verbosity)
        self.narrator = Narrator(self.words)
        self.narrator.sync(self.view)
        self.answers = Answers(self.words, hints)
        self.turn = PlayerTurn()
        self.turn.cursor.sync(self.view.hand)

    @property
    def view(self) -> PlayerView:
        """The player's view of the match now."""
        return self.table.view()

    def turn_table(self) -> TurnTable:
        """What the player's turn reads now."""
        table = self.table
        return TurnTable(self.view, table.is_over, self.answers, table.refusal,
                         previous=table.previous(), seed=table.seed)

    def line(self, message_id: str, *, priority: Priority = Priority.NORMAL,
             **fields: object) -> Line:
        """A catalog message as a line, at the human's verbosity."""
        return make_line(self.words, message_id, priority=priority, **fields)

    # ----- what to say ----------------------------------------------------------
    def opening(self) -> list[Line]:
        """The deal of a new match (the first hand's start)."""
        return [line for event in self.table.opening_events()
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
        if not events:  # a remote table jumped to the present (a catch-up): start from it
            self.narrator.sync(self.view)
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
        table = self.turn_table()
        prompt = turn_prompt(table.view, self.words, self.answers.hints,
                             bid_prompt_refusals(table), cursor=self.turn.cursor.card)
        return [prompt] if prompt is not None else []

    def over_prompt(self) -> Line:
        """The match is over: a new game, or quit."""
        hints = self.answers.hints
        return self.line("prompt.match_over", new=hints.new, quit=hints.quit,
                         priority=Priority.HIGH)
