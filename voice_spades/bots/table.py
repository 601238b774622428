"""The contract situation of a hand, in the plain lists the play policy reads fast:
who partners whom, who bid what, who still needs tricks, how a hand scores."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import Bid, FailedNil, RuleOptions, SideScore, score_hand


def match_value(score: SideScore, rules: RuleOptions) -> float:
    """What a side's hand is worth over a match: its score, with every new bag costing
    ``bag_penalty / bag_limit`` points (10 under the usual 100 per 10 bags) in place of
    the penalty that falls due this hand. Over a match the two agree (each bag brings
    the next penalty a tenth closer), but the hand's score alone sees a bag as worth a
    point until the tenth, so a search on it takes tricks it has no use for."""
    return (score.total - score.bag_penalty
            - rules.bag_penalty * score.new_bags / rules.bag_limit)


class Table:
    """Seats, sides and bids of one hand. ``bids`` may hold None for seats that have not
    bid yet (their bid is then treated as unknown: no contract, no nil)."""

    __slots__ = (
        "_cache",
        "bags",
        "bids",
        "contract",
        "greedy",
        "hand_size",
        "n",
        "nil",
        "nil_counts",
        "opponents",
        "partner",
        "quicksand",
        "rules",
        "scores",
        "set_reach",
        "side_of",
        "sides",
    )

    def __init__(self, rules: RuleOptions, bids: Sequence[Bid | None],
                 scores: Sequence[int], bags: Sequence[int],
                 greedy: frozenset[int] = frozenset(), set_reach: int = 2) -> None:
        self.rules = rules
        self.n = n = rules.players
        self.hand_size = rules.hand_size
        self.sides = rules.sides
        self.side_of = [rules.side_of(s) for s in range(n)]
        self.partner = [-1 if (p := rules.partner_of(s)) is None else p for s in range(n)]
        """Each seat's partner, -1 for none (a plain int list: the policy reads it fast)."""
        self.opponents = [[p for p in range(n) if self.side_of[p] != self.side_of[s]]
                          for s in range(n)]
        self.bids = list(bids)
        self.nil = [b is not None and b.is_nil for b in bids]
        self.contract = [sum(b.tricks for s in seats if (b := bids[s]) is not None)
                         for seats in self.sides]
        self.nil_counts = rules.failed_nil is FailedNil.FOR_PARTNER
        self.quicksand = rules.quicksand
        self.scores = list(scores)
        self.bags = list(bags)
        self.greedy = greedy
        """Seats that try to win every trick they can (used when sizing up a bid)."""
        self.set_reach = set_reach
        """A side fights to set another once that side can spare fewer tricks than this."""
        self._cache: dict[tuple[int, ...], float] = {}

    def need(self, side: int, tricks_won: Sequence[int]) -> int:
        """Tricks the side still needs for its contract (<= 0 once made)."""
        counted = 0
        for s in self.sides[side]:
            if not self.nil[s] or self.nil_counts:
                counted += tricks_won[s]
        return self.contract[side] - counted

    def utility(self, tricks_won: Sequence[int], side: int) -> float:
        """Match value of ``side``'s hand minus the mean of the other sides', for a
        finished hand with these tricks (every bid must be known): the hand's score
        with each new bag costing its share of the penalty (:func:`match_value`)."""
        key = (side, *tricks_won)
        value = self._cache.get(key)
        if value is None:
            bids = [b if b is not None else Bid(1) for b in self.bids]
            result = score_hand(self.rules, bids, tricks_won, self.scores, self.bags)
            totals = [match_value(s, self.rules) for s in result.sides]
            others = [t for i, t in enumerate(totals) if i != side]
            value = totals[side] - sum(others) / len(others)
            self._cache[key] = value
        return value
