"""What was said, kept to be stepped through one message at a time.

The session records every line it sends out (:meth:`History.record`); each one is an
item, whether it told a game event, prompted or answered the player. The player moves
a review cursor over the items, the way screen-reader players read a message buffer:
back, forward, to the oldest, to the newest. The cursor starts past the newest item,
so the first step back says the newest message (a line cut short by a key is one key
away); new messages do not move it. :meth:`History.last_event` is the repeat key:
the last thing the game said on its own (an event or a prompt), not an answer.

What the history itself says (ids ``history.*``) is not recorded, so stepping never
changes what is stepped through.
"""

from __future__ import annotations

from collections.abc import Iterable

from voice_spades.narration.lines import Line, LineKind
from voice_spades.narration.phrases import Phrasebook

OWN_PREFIX = "history."
"""Ids of the lines the history says; they are not recorded."""

DEFAULT_SIZE = 500
"""Messages kept; older ones are forgotten."""


class History:
    """The messages said so far, oldest first, and a review cursor over them."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._items: list[Line] = []
        self._dropped = 0
        """How many items were forgotten: the absolute index of ``_items[0]``."""
        self._cursor: int | None = None
        """Absolute index of the item the player is on; None: past the newest."""

    def __len__(self) -> int:
        return len(self._items)

    @property
    def items(self) -> list[Line]:
        """The lines kept, oldest first."""
        return list(self._items)

    def record(self, lines: Iterable[Line]) -> None:
        """Keep ``lines`` (empty ones and the history's own lines are left out)."""
        for line in lines:
            if line.text and not line.message_id.startswith(OWN_PREFIX):
                self._items.append(line)
        excess = len(self._items) - self.size
        if excess > 0:
            del self._items[:excess]
            self._dropped += excess

    # ----- moving the cursor -----------------------------------------------------
    def _at(self, words: Phrasebook, index: int, edge: str | None = None) -> Line:
        """Put the cursor on the item at absolute ``index`` and say it."""
        self._cursor = index
        text = self._items[index - self._dropped].text
        message = f"history.at_{edge}" if edge else "history.item"
        return Line(message, words.say(message, text=text))

    def _empty(self, words: Phrasebook) -> Line:
        return Line("history.empty", words.say("history.empty"))

    def previous(self, words: Phrasebook) -> Line:
        """One message back (the newest when the cursor is past it)."""
        if not self._items:
            return self._empty(words)
        oldest, newest = self._dropped, self._dropped + len(self._items) - 1
        if self._cursor is None:
            return self._at(words, newest)
        if self._cursor <= oldest:
            return self._at(words, oldest, "oldest")
        return self._at(words, self._cursor - 1)

    def next(self, words: Phrasebook) -> Line:
        """One message forward; at the newest it says so."""
        if not self._items:
            return self._empty(words)
        newest = self._dropped + len(self._items) - 1
        if self._cursor is None or self._cursor >= newest:
            return self._at(words, newest, "newest")
        return self._at(words, max(self._cursor + 1, self._dropped))

    def newest(self, words: Phrasebook) -> Line:
        """The newest message; the cursor goes there."""
        if not self._items:
            return self._empty(words)
        return self._at(words, self._dropped + len(self._items) - 1, "newest")

    def oldest(self, words: Phrasebook) -> Line:
        """The oldest message kept; the cursor goes there."""
        if not self._items:
            return self._empty(words)
        return self._at(words, self._dropped, "oldest")

    def last_event(self, words: Phrasebook) -> Line:
        """The last thing the game said on its own (an event or a prompt), again."""
        for line in reversed(self._items):
            if line.kind is not LineKind.ANSWER:
                return Line("history.repeat", words.say("history.repeat", text=line.text),
                            seat=line.seat)
        return self._empty(words)
