"""The contract situation of a hand, in the plain lists the play policy reads fast:
who partners whom, who bid what, who still needs tricks, how a hand scores."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import Bid, FailedNil, RuleOptions, score_hand


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
        "side_of",
        "sides",
    )

    def __init__(self, rules: RuleOptions, bids: Sequence[Bid | None],
                 scores: Sequence[int], bags: Sequence[int],
                 greedy: frozenset[int] = frozenset()) -> None:
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
        self._cache: dict[tuple[int, ...], float] = {}

    def need(self, side: int, tricks_won: Sequence[int]) -> int:
        """Tricks the side still needs for its contract (<= 0 once made)."""
        counted = 0
        for s in self.sides[side]:
            if not self.nil[s] or self.nil_counts:
                counted += tricks_won[s]
        return self.contract[side] - counted

    def utility(self, tricks_won: Sequence[int], side: int) -> float:
        """Hand score of ``side`` minus the mean of the other sides' scores, for a
        finished hand with these tricks (every bid must be known)."""
        key = (side, *tricks_won)
        value = self._cache.get(key)
        if value is None:
            bids = [b if b is not None else Bid(1) for b in self.bids]
            result = score_hand(self.rules, bids, tricks_won, self.scores, self.bags)
            totals = [s.total for s in result.sides]
            others = [t for i, t in enumerate(totals) if i != side]
            value = totals[side] - sum(others) / len(others)
            self._cache[key] = value
        return value
