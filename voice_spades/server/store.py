"""Where a server keeps its tables: each table's log of entries, and the tokens.

A table is its rules, its seed, its grace period and a log of entries in order (index
0, 1, 2 ...): seats set, the start, each action, presence and chat. Replaying the log
rebuilds the table exactly (:mod:`voice_spades.server.table_core`), so the log is all
a server must not lose: an entry is stored before the message it causes is sent.

Two stores implement :class:`TableStore`: SQLite, the default
(:mod:`voice_spades.server.store_sqlite`, a file in the data folder), and PostgreSQL
for several server processes sharing tables. A store that other processes also write
has a :class:`Feed` telling this process when a table it serves got a new entry.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Protocol

Entry = dict[str, Any]
"""One log entry as JSON values: ``{"k": "act", "seat": 2, "action": "play:QS"}``."""


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A live table as stored: what it needs to be rebuilt from its log."""

    code: str
    rules: dict[str, Any]
    seed: int
    grace: int


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """Whom a token stands for: a seat of a table (``seat`` None: a watcher)."""

    code: str
    seat: int | None
    name: str
    viewer: str
    """The viewer the token follows: ``"seat:2"`` or ``"watch:0"``."""


class TableStore(Protocol):
    """The tables' durable store. Every method may be called from any thread."""

    def create(self, code: str, rules: dict[str, Any], seed: int, grace: int) -> None:
        """A new table with an empty log; raises ValueError if the code is in use."""
        ...

    def append(self, code: str, index: int, entry: Entry) -> bool:
        """Store ``entry`` at ``index`` of the table's log, durably, before returning.
        False: that index is taken (another process appended first)."""
        ...

    def entries(self, code: str, start: int = 0) -> list[Entry]:
        """The table's log from ``start``, in order."""
        ...

    def tables(self) -> list[TableRecord]:
        """Every table not finished, to load at start-up."""
        ...

    def table(self, code: str) -> TableRecord | None:
        """Table ``code`` (finished or not), or None."""
        ...

    def finish(self, code: str) -> None:
        """The table's match is over: no start-up loads it any more."""
        ...

    def remove(self, code: str) -> None:
        """Forget the table, its log and its tokens (its code may be given again)."""
        ...

    def remove_finished(self, older_than: float) -> None:
        """Remove the tables finished more than ``older_than`` seconds ago."""
        ...

    def add_token(self, token_hash: str, code: str, seat: int | None, name: str,
                  viewer: str) -> None:
        """Remember a token (only its SHA-256, ``token_hash``)."""
        ...

    def token(self, token_hash: str) -> TokenRecord | None:
        """The record of a token's hash, or None."""
        ...

    def lead(self, code: str) -> bool:
        """Whether this process drives table ``code``'s bots (taking the lead if no live
        process has it): exactly one process does, so no bot move is made twice."""
        ...

    def release(self, code: str) -> None:
        """Give up the lead of table ``code``."""
        ...

    def process(self) -> str:
        """This process's name among those sharing the store ("" when none do)."""
        ...

    def alive(self, names: Collection[str]) -> set[str]:
        """Which of the processes ``names`` are still running."""
        ...

    def close(self) -> None:
        """Release the store (idempotent)."""
        ...


class Feed(Protocol):
    """News of entries that another process appended (PostgreSQL's LISTEN/NOTIFY)."""

    def subscribe(self, callback: Callable[[str, int], None]) -> None:
        """Call ``callback(code, index)`` (from any thread) for each entry another
        process appends."""
        ...

    def close(self) -> None:
        """Stop listening."""
        ...
