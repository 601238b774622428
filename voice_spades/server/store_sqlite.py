"""The default table store: one SQLite file (``tables.sqlite3`` in the data folder).

WAL mode with ``synchronous=FULL``: :meth:`SQLiteStore.append` returns only once the
entry is on disk, so an acknowledged action survives ``kill -9`` of the server (and a
power cut). One connection, used under a lock: the server appends from worker threads.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_spades.server.store import Entry, TableRecord, TokenRecord

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY, rules TEXT NOT NULL, seed INTEGER NOT NULL,
    grace INTEGER NOT NULL, live INTEGER NOT NULL DEFAULT 1, finished REAL);
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL, idx INTEGER NOT NULL, entry TEXT NOT NULL,
    PRIMARY KEY (code, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY, code TEXT NOT NULL, seat INTEGER, name TEXT NOT NULL,
    viewer TEXT NOT NULL);
"""


@dataclass(eq=False)
class _Append:
    """One append waiting for the transaction that stores it."""

    code: str
    index: int
    text: str
    stored: bool | None = None
    error: BaseException | None = None


class SQLiteStore:
    """:class:`~voice_spades.server.store.TableStore` in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._turn = threading.Condition()
        self._waiting: list[_Append] = []
        self._committing = False
        self.commits = 0
        """Transactions that stored appends (fewer than the appends, under load)."""
        self._db: sqlite3.Connection | None = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        columns = [row[1] for row in self._db.execute("PRAGMA table_info(tables)")]
        if "finished" not in columns:  # a file from before finished tables were removed
            self._db.execute("ALTER TABLE tables ADD COLUMN finished REAL")

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection (RuntimeError once closed)."""
        if self._db is None:
            raise RuntimeError("the table store is closed")
        return self._db

    def create(self, code: str, rules: dict[str, Any], seed: int, grace: int) -> None:
        """A new table; ValueError if the code is a live table's."""
        with self._lock:
            try:
                self.db.execute("INSERT INTO tables (code, rules, seed, grace) VALUES (?, ?, ?, ?)",
                                (code, json.dumps(rules), seed, grace))
            except sqlite3.IntegrityError as exc:
                raise ValueError(f"table {code} exists") from exc

    def append(self, code: str, index: int, entry: Entry) -> bool:
        """Store the entry durably; False if ``index`` is taken.

        Appends made at the same moment from several threads share one transaction,
        so one fsync (the cost of an append: 11 ms each here under load, 90 a second
        one after another) makes several tables' actions durable at once: the first
        caller to find no commit under way commits every waiting append."""
        request = _Append(code, index, json.dumps(entry, separators=(",", ":")))
        with self._turn:
            self._waiting.append(request)
            while request.stored is None and self._committing:
                self._turn.wait()
            if request.stored is not None:
                return self._outcome(request)
            batch, self._waiting = self._waiting, []
            self._committing = True
        try:
            self._commit(batch)
        finally:
            with self._turn:
                self._committing = False
                self._turn.notify_all()
        return self._outcome(request)

    @staticmethod
    def _outcome(request: _Append) -> bool:
        if request.error is not None:
            raise request.error
        return bool(request.stored)

    def _commit(self, batch: list[_Append]) -> None:
        with self._lock:
            try:
                self.db.execute("BEGIN")
                inserted = [self.db.execute(
                    "INSERT INTO log (code, idx, entry) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING", (item.code, item.index, item.text)).rowcount == 1
                    for item in batch]
                self.db.execute("COMMIT")
                self.commits += 1
                # Only now: a caller woken early must not take its entry as stored
                # before the commit is on disk.
                for item, stored in zip(batch, inserted, strict=True):
                    item.stored = stored
            except (sqlite3.Error, RuntimeError) as exc:
                if self._db is not None and self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                for item in batch:
                    item.stored, item.error = False, exc

    def entries(self, code: str, start: int = 0) -> list[Entry]:
        """The log from ``start``."""
        with self._lock:
            rows = self.db.execute("SELECT entry FROM log WHERE code = ? AND idx >= ? "
                                   "ORDER BY idx", (code, start)).fetchall()
        return [json.loads(row[0]) for row in rows]

    def tables(self) -> list[TableRecord]:
        """Every table not finished."""
        with self._lock:
            rows = self.db.execute(
                "SELECT code, rules, seed, grace FROM tables WHERE live = 1").fetchall()
        return [TableRecord(code, json.loads(rules), seed, grace)
                for code, rules, seed, grace in rows]

    def table(self, code: str) -> TableRecord | None:
        """Table ``code`` (finished or not), or None."""
        with self._lock:
            row = self.db.execute("SELECT code, rules, seed, grace FROM tables WHERE code = ?",
                                  (code,)).fetchone()
        return None if row is None else TableRecord(row[0], json.loads(row[1]), row[2], row[3])

    def finish(self, code: str) -> None:
        """The table's match is over: it is no longer loaded at start-up."""
        with self._lock:
            self.db.execute("UPDATE tables SET live = 0, finished = ? WHERE code = ?",
                            (time.time(), code))

    def remove(self, code: str) -> None:
        """Forget the table: its log, its tokens, its code (which may be given again)."""
        with self._lock:
            self.db.execute("BEGIN")
            try:
                for table in ("log", "tokens", "tables"):
                    self.db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
            except sqlite3.Error:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def remove_finished(self, older_than: float) -> None:
        """Remove the tables finished more than ``older_than`` seconds ago."""
        with self._lock:
            codes = [row[0] for row in self.db.execute(
                "SELECT code FROM tables WHERE live = 0 AND coalesce(finished, 0) < ?",
                (time.time() - older_than,))]
        for code in codes:
            self.remove(code)

    def lead(self, code: str) -> bool:
        """Always: one process owns a SQLite store, and drives every table's bots."""
        return True

    def release(self, code: str) -> None:
        """Nothing to give up (see :meth:`lead`)."""

    def process(self) -> str:
        """No name: one process owns a SQLite store."""
        return ""

    def alive(self, names: Collection[str]) -> set[str]:
        """Every one (see :meth:`process`)."""
        return set(names)

    def add_token(self, token_hash: str, code: str, seat: int | None, name: str,
                  viewer: str) -> None:
        """Remember a token's hash."""
        with self._lock:
            self.db.execute("INSERT OR REPLACE INTO tokens VALUES (?, ?, ?, ?, ?)",
                            (token_hash, code, seat, name, viewer))

    def token(self, token_hash: str) -> TokenRecord | None:
        """The token's record, or None."""
        with self._lock:
            row = self.db.execute("SELECT code, seat, name, viewer FROM tokens WHERE hash = ?",
                                  (token_hash,)).fetchone()
        return None if row is None else TokenRecord(*row)

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
