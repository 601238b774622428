"""Opponents from outside the project's bot family, for measuring the bots only.

They are written from public descriptions of how such players work, not from the
project's bots, and are never tuned against them:

- ``pimc``: a plain determinized search (perfect-information Monte Carlo, as in
  Long, Sturtevant, Buro and Furtak, AAAI 2010, and OpenSpiel's determinized bots):
  it deals the unseen cards at random, consistent with what its seat may know (its
  own hand, the cards played, the suits a player showed out of), plays every legal
  card out on each deal with random play for everyone, and picks the best average
  score.
- ``rules``: a rule-based player in the style of card-game books: second hand low,
  third hand high, win cheaply, duck when partner wins, lead long suits, basic nil
  play and cover.

- ``highbid``: the same search for card play, bidding its sure tricks plus the likely
  ones (:mod:`.high_bidder`), so it bids high and is often set.

``pimc`` and ``rules`` bid by the same published-style sure-trick count
(:mod:`.bidding`).
"""

from __future__ import annotations

from voice_spades.bench.opponents.high_bidder import HighBidder
from voice_spades.bench.opponents.pimc import DeterminizedSearch
from voice_spades.bench.opponents.rules import RuleBasedPlayer

OUTSIDE: tuple[str, ...] = ("pimc", "rules", "highbid")
"""The outside opponents' names."""


def make_opponent(name: str, seat: int, seed: int) -> DeterminizedSearch | RuleBasedPlayer:
    """The outside opponent ``name`` (one of :data:`OUTSIDE`) for ``seat``."""
    if name == "pimc":
        return DeterminizedSearch(seat, seed)
    if name == "highbid":
        return HighBidder(seat, seed)
    if name == "rules":
        return RuleBasedPlayer(seat)
    raise ValueError(f"No outside opponent named {name!r}.")


__all__ = ["OUTSIDE", "DeterminizedSearch", "HighBidder", "RuleBasedPlayer", "make_opponent"]
