"""The key help as lists the player steps through: F1's pages of the keys for now, and
``?``'s every key, an item at a time.

While a list is open, the key that opened it again, Down or Right arrow and period
step forward, Up or Left arrow and comma step back (wrapping round), Escape leaves;
any other key leaves the list and does its own job, and so does a new prompt.
"""

from __future__ import annotations

from collections.abc import Callable

from voice_spades.commands import AnyIntent, Ask, Cancel, Move, MoveCursor, Query
from voice_spades.narration import Hints, Line
from voice_spades.session.decisions import Request
from voice_spades.session.inputs import GrammarContext
from voice_spades.session.ports import InputHooks

_STEPS: dict[AnyIntent, int] = {
    MoveCursor(Move.NEXT_SUIT): 1, MoveCursor(Move.NEXT_CARD): 1, Ask(Query.NEXT_MESSAGE): 1,
    MoveCursor(Move.PREVIOUS_SUIT): -1, MoveCursor(Move.PREVIOUS_CARD): -1,
    Ask(Query.PREVIOUS_MESSAGE): -1,
}
"""The intents that step an open list, and which way (the cursor and history keys)."""

_LISTS: dict[AnyIntent, Request] = {Ask(Query.HELP): Request.KEYS_HELP,
                                     Ask(Query.ALL_KEYS): Request.ALL_KEYS}
"""The keys that open (or step on) each list."""


class HelpSteps:
    """Which help list is open and where the player is in it."""

    def __init__(self) -> None:
        self.open: Request | None = None
        """The list open: ``Request.KEYS_HELP`` (F1's pages), ``Request.ALL_KEYS`` or None."""
        self.index = 0
        """The page or item said last, counted from 0; the help wraps it round."""
        self.opening = False
        """True when the last step opened the list (its first line says how to step)."""

    def close(self) -> None:
        """Leave the list: the stepping keys do their own jobs again."""
        self.open = None
        self.opening = False

    def step(self, intent: AnyIntent) -> Request | None:
        """The list to say after ``intent`` (opened, or stepped on), or None when the
        intent is not about the help; then any open list is left, but for Escape, which
        the caller says closes it."""
        wanted = _LISTS.get(intent)
        if wanted is not None:
            if wanted is self.open:
                self.index += 1
                self.opening = False
            else:
                self.open, self.index, self.opening = wanted, 0, True
            return wanted
        if self.open is not None and intent in _STEPS:
            self.index += _STEPS[intent]
            self.opening = False
            return self.open
        if not isinstance(intent, Cancel):
            self.close()
        return None


def help_lines(request: Request, hooks: InputHooks, steps: HelpSteps, context: GrammarContext,
               line: Callable[..., Line], hints: Hints) -> list[Line]:
    """What a help request says: every key, or the keys for now a page at a time, else
    what can be said; ``line`` makes a catalog line at the player's verbosity."""
    if request is Request.ALL_KEYS and hooks.key_list is not None:
        texts = hooks.key_list(context, steps.index, steps.opening)
        return [Line("help.keys", text) for text in texts]
    keys = request in (Request.KEYS_HELP, Request.ALL_KEYS)
    if keys and hooks.key_help is not None:
        # The keys for now, a page at a time; or every key.
        page = steps.index if request is Request.KEYS_HELP else None
        return [Line("help.keys", hooks.key_help(context, page))]
    if keys and hooks.help_text is not None:
        return [Line("help.keys", hooks.help_text())]
    if hooks.voice_help is not None:
        return [line("help.voice", help=hooks.voice_help(context))]
    return [line("session.what_can_i_say", help=hints.help)]
