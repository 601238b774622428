"""What can be said at this point of the game, in a few sentences ("what can I say")."""

from __future__ import annotations

from voice_spades.engine import Phase
from voice_spades.messages import Message
from voice_spades.session import GrammarContext


def voice_help(context: GrammarContext, listen_key: str | None = None) -> Message:
    """A few sentences on what can be said at this point of the game."""
    view = context.view
    now: Message | None = None
    if context.question is not None:
        now = Message("voice.help.answer")
    elif context.over:
        now = Message("voice.help.over")
    elif view.is_my_turn and view.phase == Phase.BID:
        now = Message("voice.help.bid")
    elif view.is_my_turn and view.phase == Phase.EXCHANGE:
        now = Message("voice.help.exchange")
    elif view.phase == Phase.PLAY:
        now = Message("voice.help.play")
    always = Message("voice.help.always")
    if now is None:
        if listen_key:
            return Message("voice.help.anytime_push", key=listen_key, always=always)
        return Message("voice.help.anytime", always=always)
    if listen_key:
        return Message("voice.help.push", key=listen_key, now=now, always=always)
    return Message("voice.help", now=now, always=always)
