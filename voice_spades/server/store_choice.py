"""Which store ``--database`` means: a ``postgresql://`` address (shared by several
server processes, with a feed), else a SQLite file (default: ``tables.sqlite3`` in the
data folder), which has no feed: one process owns it."""

from __future__ import annotations

from pathlib import Path

from voice_spades.server.store import Feed, TableStore
from voice_spades.server.store_postgres import is_postgres_address, open_postgres
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.storage.paths import data_paths

SQLITE_NAME = "tables.sqlite3"


def open_store(database: str | None,
               data_dir: Path | None = None) -> tuple[TableStore, Feed | None]:
    """The store (and feed, for PostgreSQL) ``database`` names; None: SQLite in
    ``data_dir`` (default: the data folder). Raises OSError (or psycopg's
    OperationalError) when it cannot open."""
    if database is not None and is_postgres_address(database):
        return open_postgres(database)
    if database:
        return SQLiteStore(Path(database)), None
    folder = data_dir if data_dir is not None else data_paths().data_dir
    return SQLiteStore(folder / SQLITE_NAME), None
