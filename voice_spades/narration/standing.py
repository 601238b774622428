"""Where the hand stands: tricks each side still needs, contracts made, who is winning
the trick so far, the match's target, bag penalty and other endings (losing score,
hand limit), and each player's bid and tricks
one at a time.

The numbers come from the rules (:class:`~voice_spades.engine.RuleOptions`) and the
player's view; every sentence comes from the catalog (``standing.*`` ids in
``locales/en/review.toml``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from voice_spades.engine import Bid, Card, FailedNil, Phase, PlayerView, RuleOptions, Suit
from voice_spades.narration.lines import Line
from voice_spades.narration.phrases import Phrasebook


@dataclass(frozen=True, slots=True)
class Progress:
    """One side's contract and the tricks that count toward it so far."""

    side: int
    contract: int
    """The side's non-nil bids summed (0: no contract)."""
    counted: int

    @property
    def needed(self) -> int:
        """Tricks still needed to make the contract (0 once made)."""
        return max(0, self.contract - self.counted)

    @property
    def made(self) -> bool:
        """True once a side with a contract has taken enough tricks."""
        return self.contract > 0 and self.counted >= self.contract


def progress(rules: RuleOptions, bids: Sequence[Bid | None],
             tricks_won: Sequence[int]) -> list[Progress]:
    """Every side's contract and counted tricks, as the scoring counts them: a nil
    bidder's tricks count for the partner only under ``FailedNil.FOR_PARTNER``."""
    out = []
    for side, seats in enumerate(rules.sides):
        contract = sum(bid.tricks for s in seats if (bid := bids[s]) is not None)
        counted = sum(tricks_won[s] for s in seats
                      if (bid := bids[s]) is not None
                      and (not bid.is_nil or rules.failed_nil is FailedNil.FOR_PARTNER))
        out.append(Progress(side, contract, counted))
    return out


def winning_so_far(trick: Sequence[tuple[int, Card]]) -> int | None:
    """The seat whose card wins the trick so far: the highest spade, else the highest
    card of the suit led; None on an empty table."""
    if not trick:
        return None
    led = trick[0][1].suit

    def strength(card: Card) -> int:
        if card.suit is Suit.SPADES:
            return 200 + card.rank
        return 100 + card.rank if card.suit is led else 0

    return max(trick, key=lambda play: strength(play[1]))[0]


class Standing:
    """The answers about where the hand and the match stand, for one listener.

    It remembers one thing between questions: the next player to say for
    :meth:`next_player` (the player's own seat first, then clockwise; back to the
    player's seat when a new hand starts).
    """

    def __init__(self, words: Phrasebook) -> None:
        self.words = words
        self._next_seat = 0
        self._hand = 0

    def _line(self, message_id: str, **params: object) -> Line:
        return Line(message_id, self.words.say(message_id, **params))

    def needed(self, view: PlayerView) -> Line:
        """Tricks each side still needs for its contract, "contract made" once made, and
        each nil bidder's nil (holding or broken)."""
        w = self.words
        if view.phase is not Phase.PLAY:
            return self._line("standing.needed_bidding")
        parts = []
        for side in progress(view.rules, view.bids, view.tricks_won):
            name = w.side(side.side)
            if side.contract == 0:
                parts.append(w.say("standing.side_no_contract", side=name))
            elif side.made:
                over = side.counted - side.contract
                parts.append(w.say("standing.side_made_over" if over else "standing.side_made",
                                   side=name, contract=side.contract, over=over))
            else:
                parts.append(w.say("standing.side_needs", side=name, n=side.needed,
                                   contract=side.contract))
            for seat in view.rules.sides[side.side]:
                bid = view.bids[seat]
                if bid is not None and bid.is_nil:
                    whose = w.whose(seat)
                    message = "standing.nil_broken" if view.tricks_won[seat] else \
                        "standing.nil_holds"
                    parts.append(w.say(message, whose=whose, count=view.tricks_won[seat]))
        return self._line("standing.needed", sides=w.say("word.group_sep").join(parts))

    def target(self, view: PlayerView) -> Line:
        """The match's target and the bag penalty (and what nil scores)."""
        rules = view.rules
        notes = self.ending(rules)
        if rules.quicksand:
            return self._line("standing.target_quicksand", target=rules.target,
                              nil=rules.nil_points, notes=notes)
        return self._line("standing.target", target=rules.target, limit=rules.bag_limit,
                          penalty=rules.bag_penalty, nil=rules.nil_points, notes=notes)

    def ending(self, rules: RuleOptions) -> str:
        """How else the match ends: the losing score and the hand limit, each a sentence
        with a leading space ("" when only the target ends it)."""
        w = self.words
        notes = ""
        if rules.losing_score is not None:
            notes += w.say("standing.losing_score", score=w.signed(rules.losing_score))
        if rules.hand_limit is not None:
            notes += w.say("standing.hand_limit", hands=rules.hand_limit)
        return notes

    def next_player(self, view: PlayerView) -> Line:
        """One player's bid and tricks; the next call says the next player clockwise."""
        players = view.rules.players
        if view.hand_number != self._hand:
            self._hand, self._next_seat = view.hand_number, view.seat
        seat = self._next_seat % players
        self._next_seat = (seat + 1) % players
        w = self.words
        bid = view.bids[seat]
        name = w.seat_cap(seat)
        if bid is None:
            return self._line("standing.player_no_bid", Seat=name)
        if view.phase is not Phase.PLAY:
            return self._line("standing.player_bid", Seat=name, bid=w.bid(bid))
        return self._line("standing.player", Seat=name, bid=w.bid(bid),
                          took=view.tricks_won[seat])
