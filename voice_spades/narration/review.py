"""Looking back: the last trick (also once the hand it ended is over) and the previous
hand, one trick at a time, then its score.

A :class:`HandRecord` is a finished hand as the player may review it: the table's
``previous()`` (taken from the match, so it is there after resuming a saved game too).
"""

from __future__ import annotations

from voice_spades.engine import PlayerView, Trick
from voice_spades.narration.lines import Line
from voice_spades.narration.phrases import Phrasebook
from voice_spades.narration.results import results_text
from voice_spades.table import PreviousHand

HandRecord = PreviousHand
"""A finished hand as the player may review it: the table's :class:`PreviousHand` (its
bids, its tricks in order, and how it was scored)."""


class Review:
    """Answers that look back, for one listener. Remembers where the player is in the
    review of the previous hand (its tricks one by one, then its score, then round
    again); a newly finished hand starts the review over."""

    def __init__(self, words: Phrasebook) -> None:
        self.words = words
        self._hand: int | None = None
        self._step = 0

    def _line(self, message_id: str, **params: object) -> Line:
        return Line(message_id, self.words.say(message_id, **params))

    def _winner(self, trick: Trick) -> int:
        assert trick.winner is not None  # completed tricks have a winner
        return trick.winner

    def last_trick(self, view: PlayerView, previous: HandRecord | None) -> Line:
        """The last completed trick: of this hand, else the last of the hand just played."""
        w = self.words
        if view.completed:
            trick = view.completed[-1]
            return self._line("answer.last_trick", seat=w.seat(self._winner(trick)),
                              plays=w.plays(trick.plays))
        if previous is not None and previous.tricks:
            trick = previous.tricks[-1]
            return self._line("review.last_trick_previous", number=previous.number,
                              seat=w.seat(self._winner(trick)), plays=w.plays(trick.plays))
        return self._line("answer.no_last_trick")

    def previous_hand(self, previous: HandRecord | None) -> Line:
        """The next step of the previous hand's review: a trick, or at the end its score."""
        if previous is None:
            return self._line("review.no_previous_hand")
        if previous.number != self._hand:
            self._hand, self._step = previous.number, 0
        step = self._step % (len(previous.tricks) + 1)
        self._step = step + 1
        w = self.words
        if step == len(previous.tricks):
            return self._line("review.score", number=previous.number,
                              results=results_text(w, previous.result))
        trick = previous.tricks[step]
        winner = self._winner(trick)
        return self._line("review.trick", number=previous.number, trick=trick.number,
                          tricks=len(previous.tricks), plays=w.plays(trick.plays),
                          seat=w.seat(winner), Seat=w.seat_cap(winner))
