"""How long a table stays on the server.

A finished match's table is marked finished in the store at once, so no later start
of a server loads it again; this process serves it :data:`FINISHED_KEEP` seconds more
(its players may come back to hear the end and review the last hand), then removes it
from memory and from the store. A table that has not started and has had no player
connected for ``abandon_after`` seconds (``serve --abandon-after``) is removed too: a
host who opened a table and went away leaves nothing behind. A start removes what
earlier runs left finished.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from voice_spades.server.live_table import LiveTable
from voice_spades.server.store import TableStore

log = logging.getLogger(__name__)

FINISHED_KEEP = 600.0
"""Seconds a finished match's table stays served (players may come back to hear the
end) before it leaves memory and the store: a served table keeps up to 400 frames per
viewer, about 3 MB at six seats and a watcher."""
ABANDON_AFTER = 1800.0
"""Seconds a table that has not started may have no player connected before it is
removed (``serve --abandon-after``, in minutes: 30)."""
SWEEP_MOST = 60.0
"""The longest wait between looks for abandoned tables (a quarter of ``abandon_after``
when that is shorter), so a table goes at most this much after its time."""


class Upkeep:
    """The removals of one hub's tables; see the module's text."""

    def __init__(self, tables: dict[str, LiveTable], store: TableStore,
                 close: Callable[[LiveTable], None], clock: Callable[[], float],
                 finished_keep: float = FINISHED_KEEP,
                 abandon_after: float = ABANDON_AFTER) -> None:
        self.tables = tables
        self.store = store
        self.close = close
        self.clock = clock
        self.finished_keep = finished_keep
        self.abandon_after = abandon_after
        self.alone_since: dict[str, float] = {}
        """When each table not started was first seen with no player connected."""
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Remove what earlier runs left finished; look for abandoned tables from now."""
        await asyncio.to_thread(self.store.remove_finished, self.finished_keep)
        self._sweeper = asyncio.ensure_future(self._sweep_forever())

    def match_over(self, table: LiveTable) -> None:
        """The table's match just ended (or a start found it ended)."""
        if table.finish_task is None:
            table.finish_task = asyncio.ensure_future(self._finish(table))

    async def _finish(self, table: LiveTable) -> None:
        await asyncio.to_thread(self.store.finish, table.core.code)
        await asyncio.sleep(self.finished_keep)
        await self.remove(table)

    async def remove(self, table: LiveTable) -> None:
        """Take the table out of memory (closing its lines) and out of the store."""
        code = table.core.code
        self.close(table)
        self.alone_since.pop(code, None)
        if self.tables.get(code) is table:
            del self.tables[code]
        await asyncio.to_thread(self.store.release, code)
        await asyncio.to_thread(self.store.remove, code)

    async def _sweep_forever(self) -> None:
        pause = min(SWEEP_MOST, self.abandon_after / 4)
        while True:
            await asyncio.sleep(pause)
            await self.sweep()

    async def sweep(self) -> None:
        """Remove each table that has not started and has had no player connected for
        ``abandon_after`` seconds."""
        now = self.clock()
        for code, table in list(self.tables.items()):
            core = table.core
            if core.started or core.humans_present():
                self.alone_since.pop(code, None)
                continue
            since = self.alone_since.setdefault(code, now)
            if now - since >= self.abandon_after:
                log.info("table %s: removed, not started and no one there for %.0f s",
                         code, now - since)
                await self.remove(table)

    def stop(self) -> None:
        """Stop the looks and the pending removals (the store keeps what it has)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            if table.finish_task is not None:
                table.finish_task.cancel()
