"""The one small protocol every computer player follows."""

from __future__ import annotations

from typing import Protocol

from voice_spades.engine import (
    Action,
    Bid,
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    Phase,
    PlayerView,
)


class Bot(Protocol):
    """A computer player. Each method gets only what its seat may know."""

    name: str

    def bid(self, view: PlayerView) -> Bid:
        """Choose a bid (the view's ``legal`` lists the allowed ones)."""
        ...

    def play(self, view: PlayerView) -> Card:
        """Choose a card to play."""
        ...

    def draw(self, view: PlayerView) -> DrawChoice:
        """Two-player draw: keep ``view.draw_top`` or discard it and take the next."""
        ...

    def blind_nil(self, view: PlayerView) -> BlindNilChoice:
        """Two-player: declare blind nil before looking, or not."""
        ...

    def exchange(self, view: PlayerView) -> Exchange:
        """After a blind nil: up to three cards to give back."""
        ...


def decide(bot: Bot, view: PlayerView) -> Action:
    """Ask ``bot`` for the action the view's phase calls for."""
    phase = view.phase
    if phase is Phase.PLAY:
        return bot.play(view)
    if phase is Phase.BID:
        return bot.bid(view)
    if phase is Phase.DRAW:
        return bot.draw(view)
    if phase is Phase.BLIND_NIL:
        return bot.blind_nil(view)
    if phase is Phase.EXCHANGE:
        return bot.exchange(view)
    raise ValueError(f"No decision in phase {phase!r}.")
