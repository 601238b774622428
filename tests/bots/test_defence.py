"""Defence against a side that bid high: when the heuristic fights to set it."""

from __future__ import annotations

from voice_spades.bots.hard import SET_REACH
from voice_spades.bots.policy import wants_tricks
from voice_spades.bots.table import Table
from voice_spades.engine import Bid, profile

RULES = profile("cardgames")
BIDS = [Bid(2), Bid(4), Bid(1), Bid(4)]
"""Seats 0 and 2 bid 3 between them, seats 1 and 3 bid 8."""


def test_hard_fights_to_set_a_side_that_can_spare_two_tricks() -> None:
    # Five tricks played: seats 0 and 2 made their 3; seats 1 and 3 took 2 and need 6
    # of the 8 left, so they can spare 2.
    won = [2, 2, 1, 0]
    medium = Table(RULES, BIDS, [0, 0], [0, 0])
    hard = Table(RULES, BIDS, [0, 0], [0, 0], set_reach=SET_REACH)
    assert not wants_tricks(0, won, medium)
    assert wants_tricks(0, won, hard)
    # Had they bid 7, they could spare 3: Hard does not fight on to set them.
    seven = Table(RULES, [Bid(2), Bid(4), Bid(1), Bid(3)], [0, 0], [0, 0],
                  set_reach=SET_REACH)
    assert not wants_tricks(0, won, seven)
    # One trick later, seats 0 and 2 having taken it, they can spare only 1: both fight.
    assert wants_tricks(0, [3, 1, 1, 1], medium) and wants_tricks(0, [3, 1, 1, 1], hard)
