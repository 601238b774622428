"""Tables shared with other server processes (PostgreSQL).

Any process may serve any client, so a join or a resume naming a table this process has
not loaded loads it from the store, rebuilt from its log, and from then on the feed
keeps it up to date (``Hub.catch_up_table``).

A process that dies (``kill -9`` included) cannot say that its players lost their line:
the log still holds them connected, and a table waiting for one of them would wait for
ever. Each player's arrival names the process it came through (``via``); every
:data:`PROCESS_CHECK` seconds a process asks the store which of the processes its
tables' players came through are still running, and for each player of a dead one, the
process leading the table (the one that plays its bots) marks the player dropped: the
grace period starts, a bot then stands in, and the player takes the seat back on
return, through any process. A watcher of a dead process is marked dropped the same
way, so the table hears that they are gone."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable
from typing import Protocol

from voice_spades.protocol.codec import ProtocolError
from voice_spades.server.live_table import LiveTable
from voice_spades.server.store import Entry, Feed, TableStore
from voice_spades.server.table_bots import TableBots, watcher_entry
from voice_spades.server.table_core import Outgoing, TableCore

PROCESS_CHECK = 2.0
"""Seconds between asks whether the processes players came through still run (one
query each time, and only while another process's players are at this one's tables)."""


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


class SharedHub(Protocol):
    """What the watch of processes needs of the hub (:class:`~.hub.Hub`)."""

    tables: dict[str, LiveTable]
    store: TableStore
    bots: TableBots

    async def lead(self, code: str) -> bool:
        """Whether this process leads the table (plays its bots)."""
        ...

    async def commit(self, table: LiveTable, entry: Entry,
                     remake: Callable[[], Entry] | None = None) -> list[Outgoing]:
        """Store, apply and send an entry."""
        ...


async def watch_processes(hub: SharedHub) -> None:
    """Every :data:`PROCESS_CHECK` seconds, :func:`drop_dead_processes_players`."""
    while True:
        await asyncio.sleep(PROCESS_CHECK)
        await drop_dead_processes_players(hub)


async def drop_dead_processes_players(hub: SharedHub) -> None:
    """Mark dropped each player the log holds connected through a process that no
    longer runs, at the tables this process leads (see the module's text)."""
    own = hub.store.process()
    suspects = {code: [seat for seat, state in enumerate(table.core.seats)
                       if state.kind == "human" and state.connected and state.via
                       and state.via != own]
                for code, table in hub.tables.items()}
    watchers = {code: [viewer for viewer, via in table.core.watcher_via.items()
                       if via != own and viewer not in table.core.watchers_away]
                for code, table in hub.tables.items()}
    names = {hub.tables[code].core.seats[seat].via
             for code, seats in suspects.items() for seat in seats} | \
        {hub.tables[code].core.watcher_via[viewer]
         for code, viewers in watchers.items() for viewer in viewers}
    if not names:
        return
    alive = await asyncio.to_thread(hub.store.alive, names)
    for code, viewers in watchers.items():
        await _drop_watchers(hub, code, [v for v in viewers
                                         if hub.tables[code].core.watcher_via.get(v)
                                         not in alive])
    for code, seats in suspects.items():
        table = hub.tables.get(code)
        if table is None or all(table.core.seats[s].via in alive for s in seats) or \
                not await hub.lead(code):
            continue
        async with table.lock:
            for seat in seats:
                dropped = functools.partial(_dropped, table, seat, alive | {own})
                try:  # made again after news from other processes
                    await hub.commit(table, dropped(), dropped)
                except ProtocolError:
                    continue  # back meanwhile, or no longer theirs
                hub.bots.start_grace(table, seat)
        hub.bots.schedule(table)


async def _drop_watchers(hub: SharedHub, code: str, viewers: list[str]) -> None:
    """Mark dropped each of ``viewers``, watching ``code`` through a dead process."""
    table = hub.tables.get(code)
    if table is None or not viewers or not await hub.lead(code):
        return
    async with table.lock:
        for viewer in viewers:
            dropped = functools.partial(_watcher_dropped, table, viewer)
            with contextlib.suppress(ProtocolError):  # back meanwhile, or gone
                await hub.commit(table, dropped(), dropped)


def _watcher_dropped(table: LiveTable, viewer: str) -> Entry:
    core = table.core
    via = core.watcher_via.get(viewer)
    if via is None or viewer in core.watchers_away:
        raise ProtocolError("net.stale")
    return watcher_entry(viewer, "dropped", core.watcher_names.get(viewer, ""))


def _dropped(table: LiveTable, seat: int, running: set[str]) -> Entry:
    state = table.core.seats[seat]
    if state.kind != "human" or not state.connected or state.via in running:
        raise ProtocolError("net.stale")
    return {"k": "presence", "seat": seat, "state": "dropped", "name": state.name}


def stamped(entry: Entry, process: str) -> Entry:
    """A player's or a watcher's arrival, wait or return names the process it came
    through (``process``; nothing when the store is not shared), unless it names one
    already (a friend seated by another process than their own)."""
    if not process or entry["k"] != "presence" or "via" in entry or entry["state"] not in (
            ("watching", "back") if entry.get("seat") is None
            else ("joined", "took_seat", "back", "waiting")):
        return entry
    return {**entry, "via": process}
