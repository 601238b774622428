"""Where a server keeps its tables: the protocol every store implements (SQLite, PostgreSQL).

A table is its creation record and its log, entries numbered 0, 1, 2 ... in order; a
table is rebuilt by replaying its log. Tokens are kept only as their SHA-256.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A live table as created: its code, rule options (``options_to_dict``), seed, grace."""

    code: str
    rules: dict[str, Any]
    seed: int
    grace: int


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """Whose a token is: the table, the seat (None for a watcher) and the name given."""

    code: str
    seat: int | None
    name: str


class TableStore(Protocol):
    """The tables' durable home; ``append`` returns False when the index is taken."""

    def create(self, code: str, rules: dict[str, Any], seed: int, grace: int) -> None: ...
    def append(self, code: str, index: int, entry: dict[str, Any]) -> bool: ...
    def entries(self, code: str, start: int = 0) -> list[dict[str, Any]]: ...
    def tables(self) -> list[TableRecord]: ...
    def add_token(self, token_hash: str, code: str, seat: int | None, name: str) -> None: ...
    def token(self, token_hash: str) -> TokenRecord | None: ...
    def close(self) -> None: ...


class Feed(Protocol):
    """Tells this process that another process appended entry ``index`` to table ``code``."""

    def start(self, on_append: Callable[[str, int], None]) -> None: ...
    def close(self) -> None: ...
