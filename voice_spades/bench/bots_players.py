"""The players `bench bots` seats: the project's levels, the outside opponents, and a
split player that bids like one level and plays like another.

A player is named by a spec: a level (``easy``, ``medium``, ``hard``), an outside
opponent (``pimc``, ``rules``, ``highbid``), or ``PLAY/BIDS`` such as ``hard/medium`` (Hard's play
with Medium's bids), which separates the effect of bidding from that of card play.
"""

from __future__ import annotations

from voice_spades.bench.opponents import OUTSIDE, make_opponent
from voice_spades.bots import LEVELS, Bot, make_bot
from voice_spades.engine import (
    Bid,
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    InvalidInputError,
    PlayerView,
    RuleOptions,
)

SIMPLE: tuple[str, ...] = (*LEVELS, *OUTSIDE)
"""Every player name a spec may use."""


class SplitPlayer:
    """Bids (and two-player draw decisions) from ``bidder``, card play from ``player``."""

    def __init__(self, player: Bot, bidder: Bot) -> None:
        self.name = f"{player.name}/{bidder.name}"
        self.player = player
        self.bidder = bidder

    def bid(self, view: PlayerView) -> Bid:
        """The bidder's bid."""
        return self.bidder.bid(view)

    def play(self, view: PlayerView) -> Card:
        """The player's card."""
        return self.player.play(view)

    def draw(self, view: PlayerView) -> DrawChoice:
        """The bidder's draw decision."""
        return self.bidder.draw(view)

    def blind_nil(self, view: PlayerView) -> BlindNilChoice:
        """The bidder's blind nil decision."""
        return self.bidder.blind_nil(view)

    def exchange(self, view: PlayerView) -> Exchange:
        """The player's exchange."""
        return self.player.exchange(view)


def check_spec(spec: str) -> None:
    """Raise InvalidInputError unless ``spec`` names a player (see the module)."""
    for name in spec.split("/", 1):
        if name not in SIMPLE:
            raise InvalidInputError("bots.unknown_level", level=name, choices=", ".join(SIMPLE))


def make_player(spec: str, seat: int, rules: RuleOptions, seed: int,
                budget: float | None) -> Bot:
    """The player a spec names, for ``seat``."""
    if "/" in spec:
        play, bids = spec.split("/", 1)
        return SplitPlayer(make_player(play, seat, rules, seed, budget),
                           make_player(bids, seat, rules, seed, budget))
    if spec in OUTSIDE:
        return make_opponent(spec, seat, seed)
    return make_bot(spec, seat, rules, seed=seed, time_budget=budget)
