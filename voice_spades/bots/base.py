"""The one small protocol every computer player follows."""

from __future__ import annotations

from typing import Protocol

from voice_spades.engine.actions import Action, Bid, BlindNilChoice, DrawChoice, Exchange
from voice_spades.engine.cards import Card
from voice_spades.engine.view import PlayerView


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
    if phase == "play":
        return bot.play(view)
    if phase == "bid":
        return bot.bid(view)
    if phase == "draw":
        return bot.draw(view)
    if phase == "blind-nil":
        return bot.blind_nil(view)
    if phase == "exchange":
        return bot.exchange(view)
    raise ValueError(f"No decision in phase {phase!r}.")
