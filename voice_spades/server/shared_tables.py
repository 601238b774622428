"""Tables another server process created: with a shared store (PostgreSQL), any process
may serve any client, so a join or a resume naming a table this process has not loaded
loads it from the store, rebuilt from its log, and from then on the feed keeps it up to
date (``Hub.catch_up_table``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from voice_spades.server.live_table import LiveTable
from voice_spades.server.store import Feed, TableStore
from voice_spades.server.table_core import TableCore


async def find_table(tables: dict[str, LiveTable], store: TableStore, feed: Feed | None,
                     code: str, catch_up: Callable[[str], Awaitable[None]]
                     ) -> LiveTable | None:
    """Table ``code``: one of the ``tables`` served here, or, when the store is shared
    (there is a ``feed``), one another process created; None if there is no such
    table. ``catch_up(code)`` applies what other processes stored since."""
    table = tables.get(code)
    if table is not None or feed is None:
        return table
    record = await asyncio.to_thread(store.table, code)
    if record is None:
        return None
    entries = await asyncio.to_thread(store.entries, code)
    core = TableCore.rebuild(record.code, record.rules, record.seed, record.grace, entries)
    table = tables.setdefault(code, LiveTable(core))
    # Entries stored between the read above and now were announced while this process
    # did not serve the table yet: read them too.
    await catch_up(code)
    return table
