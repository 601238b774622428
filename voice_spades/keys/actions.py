"""Keymap action names and the intent each one sends to the session.

The keys decide nothing about the game: each action is one fixed intent, and the
session decides what it means now. Nothing here is worded at import time: the
descriptions and the question are catalog messages, rendered when shown.
"""

from __future__ import annotations

from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Chat,
    ChatStep,
    Command,
    Confirm,
    Control,
    Intent,
    JumpToSuit,
    MarkCard,
    Move,
    MoveCursor,
    PlayCurrent,
    Propose,
    Query,
    StartBid,
    TypeDigit,
)
from voice_spades.engine import NIL, DrawChoice, Suit
from voice_spades.messages import Message
from voice_spades.narration import render

ACTIONS: dict[str, Intent | Propose] = {
    "bid": StartBid(),
    "table": Ask(Query.TABLE),
    "suit_led": Ask(Query.SUIT_LED),
    "game_info": Ask(Query.GAME_INFO),
    "scores": Ask(Query.SCORES),
    "whose_turn": Ask(Query.WHOSE_TURN),
    "hand": Ask(Query.HAND),
    "legal": Ask(Query.LEGAL),
    "bids": Ask(Query.BIDS),
    "last_trick": Ask(Query.LAST_TRICK),
    "previous_message": Ask(Query.PREVIOUS_MESSAGE),
    "next_message": Ask(Query.NEXT_MESSAGE),
    "newest_message": Ask(Query.NEWEST_MESSAGE),
    "oldest_message": Ask(Query.OLDEST_MESSAGE),
    "previous_hand": Ask(Query.PREVIOUS_HAND),
    "tricks_needed": Ask(Query.TRICKS_NEEDED),
    "target": Ask(Query.TARGET),
    "next_player": Ask(Query.NEXT_PLAYER),
    "help": Ask(Query.HELP),
    "all_keys": Ask(Query.ALL_KEYS),
    "current_card": Ask(Query.CURRENT_CARD),
    "hint": Ask(Query.HINT),
    "chat": Chat(ChatStep.OPEN),
    "mute_chat": Chat(ChatStep.MUTE),
    "next_suit": MoveCursor(Move.NEXT_SUIT),
    "previous_suit": MoveCursor(Move.PREVIOUS_SUIT),
    "next_card": MoveCursor(Move.NEXT_CARD),
    "previous_card": MoveCursor(Move.PREVIOUS_CARD),
    "highest": MoveCursor(Move.HIGHEST),
    "lowest": MoveCursor(Move.LOWEST),
    **{f"jump_{suit.name.lower()}": JumpToSuit(suit) for suit in Suit},
    "play": PlayCurrent(),
    **{f"digit_{d}": TypeDigit(d) for d in range(10)},
    "nil": Propose(Act(NIL), Message("question.nil")),
    "keep": Act(DrawChoice(True)),
    "discard": Act(DrawChoice(False)),
    "mark": MarkCard(),
    "yes": Confirm(True),
    "confirm": Confirm(True, reflex=True),
    "no": Confirm(False),
    "cancel": Cancel(),
    "repeat": Command(Control.REPEAT),
    "silence": Command(Control.SILENCE),
    "faster": Command(Control.FASTER),
    "slower": Command(Control.SLOWER),
    "verbosity": Command(Control.VERBOSITY),
    "save_and_quit": Command(Control.SAVE_AND_QUIT),
    "new_game": Command(Control.NEW_GAME),
    "listen": Command(Control.LISTEN),
}
"""Every action a key can be bound to, and its intent."""


def action_description(action: str) -> str:
    """What an action does, in a few words, for the help list."""
    return render(f"action.{action}")
