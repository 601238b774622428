"""Tables kept in PostgreSQL, shared by several server processes (``--database postgresql://``).

:class:`PostgresStore` implements :class:`~voice_spades.server.store.TableStore` with
psycopg 3. Any process may serve any client of any table, so a table's log is the one
place its actions are ordered: ``append`` runs one server-side function,
``voice_spades_append``, that takes a transaction-scoped advisory lock on the table's
code, accepts the entry only at the next free index (the primary key ``(code, idx)``
refuses a second writer as well), and in the same transaction sends ``NOTIFY
voice_spades_log, 'code:index'``; PostgreSQL delivers a notification only once its
transaction commits, so a process hears of an entry only when it is stored.
:class:`PostgresFeed` listens on that channel in a thread of its own and tells its
server which table another process made grow; the server then reads the new entries
with ``entries``.

psycopg is imported when a store is opened, so the game runs without it unless a
PostgreSQL address is given.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import secrets
import threading
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from voice_spades.server.store import Entry, TableRecord, TokenRecord

if TYPE_CHECKING:
    import psycopg

CHANNEL = "voice_spades_log"
LEAD_KEY = 461_047
"""First half of the advisory lock that makes one process the driver of a table's bots
(the second half is the table's 6-digit code, so no two tables share one); the
two-number form never meets the one-number locks of ``voice_spades_append``."""
SCHEMA_LOCK = 461_046
"""Advisory lock key held while the schema is made, so two processes starting at once
do not both create it (CREATE ... IF NOT EXISTS races on the catalog's unique keys)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS voice_spades_tables (
    code text PRIMARY KEY,
    rules text NOT NULL,
    seed bigint NOT NULL,
    grace integer NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE voice_spades_tables ADD COLUMN IF NOT EXISTS finished timestamptz;
CREATE TABLE IF NOT EXISTS voice_spades_entries (
    code text NOT NULL REFERENCES voice_spades_tables (code) ON DELETE CASCADE,
    idx integer NOT NULL,
    entry text NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE TABLE IF NOT EXISTS voice_spades_tokens (
    hash text PRIMARY KEY,
    code text NOT NULL REFERENCES voice_spades_tables (code) ON DELETE CASCADE,
    seat integer,
    name text NOT NULL,
    viewer text NOT NULL
);
CREATE OR REPLACE FUNCTION voice_spades_append(p_code text, p_idx integer, p_entry text)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    next_idx integer;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_code, 0));
    SELECT coalesce(max(idx) + 1, 0) INTO next_idx
        FROM voice_spades_entries WHERE code = p_code;
    IF p_idx < next_idx THEN
        RETURN false;
    END IF;
    IF p_idx > next_idx THEN
        RAISE EXCEPTION 'entry % of table % would leave a gap (next is %)',
            p_idx, p_code, next_idx USING ERRCODE = 'data_exception';
    END IF;
    INSERT INTO voice_spades_entries (code, idx, entry) VALUES (p_code, p_idx, p_entry);
    PERFORM pg_notify('voice_spades_log', p_code || ':' || p_idx);
    RETURN true;
END $$;
"""


def is_postgres_address(database: str | None) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) address, as ``--database`` takes."""
    return database is not None and database.startswith(("postgresql://", "postgres://"))


def process_name() -> str:
    """A server's name in PostgreSQL, ``voice-spades-PID-RANDOM``: the
    ``application_name`` of each of its sessions, so pg_stat_activity says which
    process holds what, and a server none of whose sessions is left has died. The
    random part tells apart servers on several machines that share a pid (and two
    stores in one process, as the tests make)."""
    return f"voice-spades-{os.getpid()}-{secrets.token_hex(4)}"


def _connect(dsn: str, name: str) -> psycopg.Connection[Any]:
    import psycopg

    return psycopg.connect(dsn, autocommit=True, connect_timeout=10, application_name=name)


def _lead_key(code: str) -> int:
    return int(code) if code.isdigit() and len(code) <= 9 else hash_code(code)


def hash_code(code: str) -> int:
    """A stable 31-bit number for a code that is not digits (none the server makes)."""
    return int.from_bytes(hashlib.sha256(code.encode("utf-8")).digest()[:4], "big") >> 1


class PostgresStore:
    """A :class:`~voice_spades.server.store.TableStore` in PostgreSQL (see module doc).

    A few connections (:data:`CONNECTIONS`), each used by one call at a time: the hub
    stores from several worker threads, and PostgreSQL makes the commits of
    concurrent sessions durable with one WAL flush, as SQLite's group commit does. A
    call that finds its connection broken (PostgreSQL restarted) reconnects once and
    tries again; a second failure is raised, so the server acknowledges nothing it
    could not store."""

    CONNECTIONS = 4

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self.name = process_name()
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        self._all: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()
        first = _connect(dsn, self.name)
        with first.transaction():
            first.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            first.execute(SCHEMA)
        self._all.append(first)
        self._all += [_connect(dsn, self.name) for _ in range(self.CONNECTIONS - 1)]
        for conn in self._all:
            self._idle.put(conn)
        self._lead_lock = threading.Lock()
        self._lead_conn: psycopg.Connection[Any] | None = None
        self._led: set[str] = set()

    def _call(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        import psycopg

        conn = self._idle.get(timeout=60)
        try:
            for attempt in (1, 2):
                try:
                    if conn.closed:
                        conn = self._replace(conn)
                    cursor = conn.execute(sql, params)
                    return cursor.fetchall() if cursor.description else []
                except psycopg.OperationalError:
                    if attempt == 2 or not conn.broken:
                        raise
                    conn.close()
        finally:
            self._idle.put(conn)
        raise AssertionError("unreachable")

    def _replace(self, old: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
        new = _connect(self._dsn, self.name)
        with self._lock:
            self._all = [new if c is old else c for c in self._all]
        return new

    def create(self, code: str, rules: dict[str, Any], seed: int, grace: int) -> None:
        """A new table with an empty log; ValueError if the code is in use."""
        import psycopg

        try:
            self._call("INSERT INTO voice_spades_tables (code, rules, seed, grace) "
                       "VALUES (%s, %s, %s, %s)", (code, json.dumps(rules), seed, grace))
        except psycopg.errors.UniqueViolation as error:
            raise ValueError(f"table {code} exists") from error

    def append(self, code: str, index: int, entry: Entry) -> bool:
        """Store ``entry`` as entry ``index`` of table ``code``; False when another
        writer already stored that index (read ``entries`` and catch up). An index past
        the next free one is a ValueError: a log never has a gap."""
        import psycopg

        try:
            rows = self._call("SELECT voice_spades_append(%s, %s, %s)",
                              (code, index, json.dumps(entry, separators=(",", ":"))))
        except psycopg.errors.DataException as error:
            raise ValueError(str(error).strip()) from error
        return bool(rows[0][0])

    def entries(self, code: str, start: int = 0) -> list[Entry]:
        """Table ``code``'s log from index ``start`` on, in order."""
        rows = self._call("SELECT entry FROM voice_spades_entries WHERE code = %s "
                          "AND idx >= %s ORDER BY idx", (code, start))
        return [json.loads(row[0]) for row in rows]

    def tables(self) -> list[TableRecord]:
        """Every table not finished, oldest first, to load at start-up."""
        rows = self._call("SELECT code, rules, seed, grace FROM voice_spades_tables "
                          "WHERE finished IS NULL ORDER BY created, code", ())
        return [TableRecord(code, json.loads(rules), int(seed), int(grace))
                for code, rules, seed, grace in rows]

    def table(self, code: str) -> TableRecord | None:
        """Table ``code`` if it exists: a process asked for a table another process
        created since it started loads it from here."""
        rows = self._call("SELECT code, rules, seed, grace FROM voice_spades_tables "
                          "WHERE code = %s", (code,))
        return TableRecord(rows[0][0], json.loads(rows[0][1]), int(rows[0][2]),
                           int(rows[0][3])) if rows else None

    def finish(self, code: str) -> None:
        """The table's match is over: no process loads it at start-up any more."""
        self._call("UPDATE voice_spades_tables SET finished = now() WHERE code = %s "
                   "AND finished IS NULL", (code,))

    def remove(self, code: str) -> None:
        """Forget the table: its log and tokens go with it (ON DELETE CASCADE)."""
        self._call("DELETE FROM voice_spades_tables WHERE code = %s", (code,))

    def remove_finished(self, older_than: float) -> None:
        """Remove the tables finished more than ``older_than`` seconds ago."""
        self._call("DELETE FROM voice_spades_tables WHERE finished < now() - "
                   "make_interval(secs => %s)", (older_than,))

    def add_token(self, token_hash: str, code: str, seat: int | None, name: str,
                  viewer: str) -> None:
        """Keep a token's SHA-256 with the place it gives (``seat`` None: a watcher)."""
        self._call("INSERT INTO voice_spades_tokens (hash, code, seat, name, viewer) "
                   "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (hash) DO UPDATE SET "
                   "code = excluded.code, seat = excluded.seat, name = excluded.name, "
                   "viewer = excluded.viewer", (token_hash, code, seat, name, viewer))

    def token(self, token_hash: str) -> TokenRecord | None:
        """The place a token's SHA-256 gives, or None for an unknown token."""
        rows = self._call("SELECT code, seat, name, viewer FROM voice_spades_tokens "
                          "WHERE hash = %s", (token_hash,))
        if not rows:
            return None
        code, seat, name, viewer = rows[0]
        return TokenRecord(code, seat, name, viewer)

    def lead(self, code: str) -> bool:
        """Whether this process drives table ``code``'s bots, taking the lead if no
        process holds it. The lead is a session advisory lock on a connection of its
        own: PostgreSQL frees it the moment that connection ends, so when its process
        dies (``kill -9`` included) the next process to ask takes over. A lead held is
        checked by a round trip (a lost connection has lost its leads)."""
        import psycopg

        with self._lead_lock:
            for attempt in (1, 2):
                try:
                    if self._lead_conn is None or self._lead_conn.closed:
                        self._led.clear()
                        self._lead_conn = _connect(self._dsn, self.name)
                    if code in self._led:
                        self._lead_conn.execute("SELECT 1")
                        return True
                    row = self._lead_conn.execute("SELECT pg_try_advisory_lock(%s, %s)",
                                                  (LEAD_KEY, _lead_key(code))).fetchone()
                    if row is not None and row[0]:
                        self._led.add(code)
                        return True
                    return False
                except psycopg.OperationalError:
                    self._led.clear()
                    if self._lead_conn is not None:
                        self._lead_conn.close()
                    self._lead_conn = None
                    if attempt == 2:
                        return False
        return False

    def release(self, code: str) -> None:
        """Give up the lead of table ``code`` (it left this process's memory)."""
        import psycopg

        with self._lead_lock:
            if code not in self._led or self._lead_conn is None:
                return
            self._led.discard(code)
            try:
                self._lead_conn.execute("SELECT pg_advisory_unlock(%s, %s)",
                                        (LEAD_KEY, _lead_key(code)))
            except psycopg.OperationalError:
                self._lead_conn.close()
                self._lead_conn = None

    def process(self) -> str:
        """This server's name (:func:`process_name`), which its players' presence
        carries."""
        return self.name

    def alive(self, names: Collection[str]) -> set[str]:
        """Which of the processes ``names`` still have a session in PostgreSQL (a
        process killed loses its sessions as its sockets close)."""
        rows = self._call("SELECT DISTINCT application_name FROM pg_stat_activity "
                          "WHERE application_name = ANY(%s)", (list(names),))
        return {str(row[0]) for row in rows}

    def sessions(self) -> set[int]:
        """The PostgreSQL sessions this store writes through (notifications carry them)."""
        with self._lock:
            return {int(conn.info.backend_pid) for conn in self._all if not conn.closed}

    def close(self) -> None:
        """Close the connections (idempotent)."""
        with self._lock:
            for conn in self._all:
                conn.close()
        with self._lead_lock:
            if self._lead_conn is not None:
                self._lead_conn.close()
            self._led.clear()


class PostgresFeed:
    """News of entries other processes appended (LISTEN ``voice_spades_log``).

    A thread of its own holds a second connection and waits for notifications at most
    :data:`WAIT` seconds at a time, so :meth:`close` ends it within that. A
    notification names the PostgreSQL session that sent it, so those of this process's
    own store (``own_sessions``) are not passed on. Should the connection drop, the
    thread reconnects every :data:`RETRY` seconds until closed; notifications sent
    meanwhile are lost, so it then asks the database for each table's last index and
    passes on every table that grew past what it last told."""

    WAIT = 0.5
    RETRY = 1.0

    def __init__(self, dsn: str,
                 own_sessions: Callable[[], Collection[int]] | None = None,
                 name: str | None = None) -> None:
        self._dsn = dsn
        self._name = name or process_name()
        """Its session's ``application_name``: its store's, in a server."""
        self._own_sessions = own_sessions
        self._closed = threading.Event()
        self._listening = threading.Event()
        self._thread: threading.Thread | None = None
        self._told: dict[str, int] = {}
        self.errors: list[str] = []
        """Why the connection dropped, each time it did (it then came back)."""

    def subscribe(self, callback: Callable[[str, int], None]) -> None:
        """Call ``callback(code, index)`` from the feed's thread for each entry another
        process appends; returns once listening, so no later entry is missed."""
        self._thread = threading.Thread(target=self._run, args=(callback,),
                                        name="postgres-feed", daemon=True)
        self._thread.start()
        self._listening.wait(timeout=15)

    def _run(self, callback: Callable[[str, int], None]) -> None:
        import psycopg

        first = True
        while not self._closed.is_set():
            try:
                with _connect(self._dsn, self._name) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        self._catch_up(conn, callback)
                    first = False
                    self._listening.set()
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=self.WAIT):
                            self._tell(note.pid, note.payload, callback)
            except psycopg.OperationalError as error:
                self.errors.append(str(error).strip())
                self._closed.wait(self.RETRY)

    def _tell(self, session: int, payload: str, callback: Callable[[str, int], None]) -> None:
        code, _, index = payload.rpartition(":")
        if not code or not index.isdigit():
            return
        self._told[code] = max(self._told.get(code, -1), int(index))
        if self._own_sessions is None or session not in self._own_sessions():
            callback(code, int(index))

    def _catch_up(self, conn: psycopg.Connection[Any],
                  callback: Callable[[str, int], None]) -> None:
        rows = conn.execute("SELECT code, max(idx) FROM voice_spades_entries "
                            "GROUP BY code").fetchall()
        for code, last in rows:
            if last > self._told.get(code, -1):
                self._told[code] = last
                callback(code, last)

    def close(self) -> None:
        """Stop listening; returns within :data:`WAIT` seconds (plus a connect's)."""
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=self.WAIT + 12)


def open_postgres(dsn: str) -> tuple[PostgresStore, PostgresFeed]:
    """The store and feed for ``--database postgresql://...`` (the feed passes on what
    other processes append, not this store's own entries)."""
    store = PostgresStore(dsn)
    return store, PostgresFeed(dsn, own_sessions=store.sessions, name=store.name)

