"""The server's tables and what happens at them, on one asyncio loop.

The :class:`Hub` holds every live table (:class:`LiveTable`: its :class:`TableCore`,
a lock, the connections of each viewer, its bots and timers). Every change goes one
way, under the table's lock: check it (the core), store the log entry (the store, in
a worker thread; SQLite returns once it is on disk), apply it (the core numbers each
viewer's messages), then queue the frames to the viewers' connections. So a message
is only ever sent about an entry already stored: after ``kill -9`` the table comes
back at its last acknowledged action.

Bots play the bot seats after ``bot_delay`` seconds (at once when no human is
connected), and stand in for a human who dropped once the table's grace period has
passed; the player takes the seat back on return. With a shared store only the process
holding a table's lead (``TableStore.lead``) plays its bots. How long a table stays is
:mod:`voice_spades.server.upkeep`'s.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from voice_spades.bots import Bot, make_bot
from voice_spades.engine import SpadesError, options_from_dict, options_to_dict
from voice_spades.protocol.codec import ProtocolError
from voice_spades.protocol.wire import CODE_DIGITS, encode, welcome
from voice_spades.server.limits import (
    CONNECTIONS_PER_ADDRESS,
    AddressConnections,
    ChatRate,
    CodeTries,
)
from voice_spades.server.live_table import Client, LiveTable, holder_of, new_token, token_hash
from voice_spades.server.shared_tables import find_table, stamped, watch_processes
from voice_spades.server.store import Entry, Feed, TableStore
from voice_spades.server.streams import seat_viewer, viewer_seat, viewer_watcher
from voice_spades.server.table_bots import TableBots, seated_entry, watcher_entry
from voice_spades.server.table_core import Outgoing, TableCore
from voice_spades.server.upkeep import ABANDON_AFTER, FINISHED_KEEP, Upkeep

log = logging.getLogger(__name__)

BOT_DELAY = 1.0
"""Seconds a bot waits before acting, so that players hear each move (``--bot-delay``)."""


class Hub:
    """Every table of this server; see the module's text."""

    def __init__(self, store: TableStore, *, feed: Feed | None = None,
                 bot_delay: float = BOT_DELAY, clock: Callable[[], float] = time.monotonic,
                 bot_factory: Callable[[str, int, Any, int], Bot] = make_bot,
                 mark_dropped_at_start: bool = True,
                 finished_keep: float = FINISHED_KEEP, abandon_after: float = ABANDON_AFTER,
                 max_connections: int = CONNECTIONS_PER_ADDRESS) -> None:
        self.store = store
        self.feed = feed
        self.clock = clock
        self.bots = TableBots(self.commit, bot_delay, bot_factory, self.lead,
                              store.process() if feed is not None else "")
        self.mark_dropped_at_start = mark_dropped_at_start
        self.tables: dict[str, LiveTable] = {}
        self.upkeep = Upkeep(self.tables, store, self._close_table, clock, finished_keep,
                             abandon_after)
        self.connections = AddressConnections(max_connections)
        self.code_tries = CodeTries()
        self.chat_rate = ChatRate()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._processes: asyncio.Future[None] | None = None

    # ----- start-up -----------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild every stored table not finished from its log; players and watchers
        the log holds connected lost their line with the last server, so they are
        marked dropped, and every dropped player not yet stood in for has the grace
        period again."""
        self.loop = asyncio.get_running_loop()
        for record in await asyncio.to_thread(self.store.tables):
            entries = await asyncio.to_thread(self.store.entries, record.code)
            core = TableCore.rebuild(record.code, record.rules, record.seed, record.grace,
                                     entries)
            table = self.tables[record.code] = LiveTable(core)
            if self.mark_dropped_at_start:
                for seat, state in enumerate(core.seats):
                    if state.kind == "human" and state.connected:
                        await self.commit(table, {"k": "presence", "seat": seat,
                                                  "state": "dropped", "name": state.name})
                    if state.kind == "human" and not state.standing_in:
                        self.bots.start_grace(table, seat)
                for viewer, name in list(core.watcher_names.items()):
                    if viewer not in core.watchers_away:
                        await self.commit(table, watcher_entry(viewer, "dropped", name))
            if core.over:
                self.upkeep.match_over(table)
            self.bots.schedule(table)
        await self.upkeep.start()
        if self.feed is not None:
            self.feed.subscribe(self._fed)
            self._processes = asyncio.ensure_future(watch_processes(self))

    async def lead(self, code: str) -> bool:
        """Whether this process drives the table's bots: always with a store of its
        own; with a shared store, the one process holding the table's lead does."""
        return True if self.feed is None else await asyncio.to_thread(self.store.lead, code)

    def _fed(self, code: str, index: int) -> None:
        """Another process appended to ``code`` (called from the feed's thread)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(
                lambda: asyncio.ensure_future(self.catch_up_table(code)))

    async def catch_up_table(self, code: str) -> None:
        """Apply what other processes stored for ``code`` (if this process serves it)."""
        table = self.tables.get(code)
        if table is None:
            return
        async with table.lock:
            await self._sync(table)
            await self.bots.take_pending(table)  # a hand ended at another process
        self.bots.schedule(table)

    async def _sync(self, table: LiveTable) -> None:
        core = table.core
        for entry in await asyncio.to_thread(self.store.entries, core.code, len(core.log)):
            self._deliver(table, core.apply(entry))

    # ----- the one way a table changes ------------------------------------------------
    async def commit(self, table: LiveTable, entry: Entry,
                     remake: Callable[[], Entry] | None = None) -> list[Outgoing]:
        """Store ``entry`` (durably), apply it, send what it causes. The caller holds
        the table's lock, or is the start-up. When another process stored first (a
        shared store), take its entries; then presence and chat go after them, an
        action is checked again against them (``remake``), anything else is stale."""
        core = table.core
        entry = stamped(entry, self.store.process())
        while not await asyncio.to_thread(self.store.append, core.code, len(core.log),
                                          entry):
            before = len(core.log)
            await self._sync(table)
            if len(core.log) == before or (remake is None and
                                           entry["k"] not in ("presence", "chat")):
                raise ProtocolError("net.stale")
            entry = stamped(remake(), self.store.process()) if remake is not None else entry
        out = core.apply(entry)
        self._deliver(table, out)
        if core.over:
            self.upkeep.match_over(table)
        return out

    def _close_table(self, table: LiveTable) -> None:
        """Stop the table's bots and close its lines (it is being removed)."""
        self.bots.close(table)
        table.close_lines()

    def _deliver(self, table: LiveTable, out: list[Outgoing]) -> None:
        for viewer, _, frame in out:
            for client in table.clients.get(viewer, ()):
                client.send(frame)

    # ----- client requests ----------------------------------------------------------
    async def create(self, client: Client, rules: dict[str, Any], seats: list[tuple[str,
                     str | None]], grace: int) -> None:
        """A new table with the client at seat 0 as its host."""
        try:
            options = options_from_dict(rules)
        except SpadesError as exc:
            raise ProtocolError("net.bad_rules", reason=exc.message) from exc
        if len(seats) != options.players:
            raise ProtocolError("net.bad_seats")
        seed = secrets.randbits(31)
        for _ in range(100):
            code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
            if code in self.tables:
                continue
            try:
                await asyncio.to_thread(self.store.create, code, options_to_dict(options),
                                        seed, grace)
                break
            except ValueError:
                continue
        else:
            raise ProtocolError("net.table_full")
        table = self.tables[code] = LiveTable(TableCore(code, options_to_dict(options), seed,
                                                        grace))
        token, hashed = new_token()
        await asyncio.to_thread(self.store.add_token, hashed, code, 0, client.name,
                                seat_viewer(0))
        async with table.lock:
            for seat, (kind, level) in enumerate(seats[1:], 1):
                kind = "bot" if kind == "bot" else "open"
                await self.commit(table, {"k": "seat", "seat": seat, "kind": kind, "name": "",
                                          "level": level if kind == "bot" else None})
            # Stored first, then welcomed: the welcome acknowledges the host's seat.
            await self.commit(table, seated_entry(0, "joined", client.name, hashed, host=True))
            client.send(encode({"t": "created", "code": code}))
            self._welcome(table, client, seat_viewer(0), token, hashed, host=True,
                          resend_from=0)

    def _welcome(self, table: LiveTable, client: Client, viewer: str, token: str,
                 hashed: str, host: bool, resend_from: int | None = None) -> None:
        """Send the welcome, attach the client, resend what it lacks after
        ``resend_from`` (None: nothing)."""
        client.token_hash = hashed
        stream = table.core.streams[viewer]
        seq = stream.seq if resend_from is None else resend_from
        client.send(encode(welcome(table.core.code, viewer_seat(viewer), token, host, seq,
                                   watcher=viewer_watcher(viewer))))
        table.attach(client, viewer)
        if resend_from is not None:
            for frame in stream.since(resend_from) or []:
                client.send(frame)

    async def join(self, client: Client, code: str, seat: int | None, watch: bool) -> None:
        """Sit the client at a table, or let it watch; a wrong code counts against the
        client's address."""
        now = self.clock()
        if self.code_tries.blocked(client.address, now):
            raise ProtocolError("net.too_many_tries")
        table = await find_table(self.tables, self.store, self.feed, code,
                                 self.catch_up_table)
        if table is None:
            self.code_tries.failed(client.address, now)
            raise ProtocolError("net.no_such_table", code=code)
        core = table.core
        async with table.lock:
            token, hashed = new_token()
            if watch:
                viewer = f"watch:{core.watchers}"
                await asyncio.to_thread(self.store.add_token, hashed, code, None, client.name,
                                        viewer)
                await self.commit(table, {"k": "presence", "seat": None,
                                          "state": "watching", "name": client.name})
                self._welcome(table, client, viewer, token, hashed, host=False, resend_from=0)
                return
            if seat is None:
                seat = core.free_seat()
                if seat is None:
                    raise ProtocolError("net.table_full")
            if seat >= len(core.seats):
                raise ProtocolError("net.bad_message", what="seat")
            state = core.seats[seat]
            if state.kind == "human" or seat in core.waiting:
                raise ProtocolError("net.seat_taken")
            viewer = seat_viewer(seat)
            await asyncio.to_thread(self.store.add_token, hashed, code, seat, client.name,
                                    viewer)
            if state.kind == "open" or core.between_hands:
                before = core.streams[viewer].seq
                state_name = "joined" if state.kind == "open" else "took_seat"
                kind = state.kind

                def seated() -> Entry:  # again, if another process changed the table
                    if core.seats[seat].kind != kind or not (kind == "open" or
                                                              core.between_hands):
                        raise ProtocolError("net.seat_taken")
                    return seated_entry(seat, state_name, client.name, hashed)

                await self.commit(table, seated(), remake=seated)
                # Welcomed only once the seat is stored (a refusal above welcomes no
                # one); it gets the stream from before its arrival, its arrival included.
                self._welcome(table, client, viewer, token, hashed, host=False,
                              resend_from=before)
            else:  # a bot's seat mid-hand: the friend hears the seat now, plays from the next hand
                def waits() -> Entry:  # again, if another process changed the table
                    if core.seats[seat].kind != "bot" or seat in core.waiting:
                        raise ProtocolError("net.seat_taken")
                    return {**seated_entry(seat, "waiting", client.name, hashed), "waiting": True}

                await self.commit(table, waits(), remake=waits)
                self._welcome(table, client, viewer, token, hashed, host=False,
                              resend_from=core.streams[viewer].snapshot_from)
        self.bots.schedule(table)

    async def resume(self, client: Client, token: str, last_seq: int | None) -> None:
        """The client comes back by its token: the stream after ``last_seq``, then
        ``caught_up``; a seat's player is back (the bot standing in steps aside)."""
        hashed = token_hash(token)
        record = await asyncio.to_thread(self.store.token, hashed)
        table = None if record is None else await find_table(
            self.tables, self.store, self.feed, record.code, self.catch_up_table)
        if record is None or table is None:
            raise ProtocolError("net.bad_token")
        core = table.core
        seat = viewer_seat(record.viewer)
        if record.viewer not in core.streams:
            raise ProtocolError("net.bad_token")
        waiting = core.waiting.get(seat) if seat is not None else None
        holds = seat is not None and core.seats[seat].kind == "human" and \
            core.seats[seat].holder == holder_of(hashed)
        if seat is not None and not holds and (waiting is None or
                                               waiting[1] != holder_of(hashed)):
            raise ProtocolError("net.bad_token")
        async with table.lock:
            stream = core.streams[record.viewer]
            # No last seq (a game restarted with a kept token): the table as it stands.
            start = stream.snapshot_from if last_seq is None else \
                min(max(0, last_seq), stream.seq)
            missed = stream.since(start)
            if missed is None:  # older than the kept messages: replay the stored log
                entries = await asyncio.to_thread(self.store.entries, core.code)
                full = TableCore.rebuild(core.code, core.rules_json, core.match.seed,
                                         core.grace, entries[:len(core.log)], keep=None)
                missed = full.streams[record.viewer].since(start) or []
            client.name = record.name
            self._welcome(table, client, record.viewer, token, hashed,
                          host=bool(core.host) and core.host == holder_of(hashed))
            for frame in missed:
                client.send(frame)
            client.send(encode({"t": "caught_up", "seq": stream.seq, "missed": len(missed)}))
            if seat is not None and holds and not core.seats[seat].connected:
                self.bots.cancel_grace(table, seat)
                await self.commit(table, {"k": "presence", "seat": seat, "state": "back",
                                          "name": record.name})
            elif seat is None and record.viewer in core.watchers_away:
                await self.commit(table, watcher_entry(record.viewer, "back", record.name))
        self.bots.schedule(table)

    def _table_of(self, client: Client) -> LiveTable:
        table = self.tables.get(client.code or "")
        if table is None or client.viewer is None:
            raise ProtocolError("net.not_at_table")
        return table

    def _host_check(self, table: LiveTable, client: Client) -> None:
        if not table.core.host or table.core.host != holder_of(client.token_hash):
            raise ProtocolError("net.not_host")

    async def set_seat(self, client: Client, seat: int, kind: str, level: str | None) -> None:
        """Host only, before the start or between hands: a seat becomes a bot or open."""
        table = self._table_of(client)
        self._host_check(table, client)
        core = table.core
        async with table.lock:
            if seat >= len(core.seats):
                raise ProtocolError("net.bad_message", what="seat")
            if not core.between_hands:
                raise ProtocolError("net.between_hands")
            if core.seats[seat].kind == "human" or seat in core.waiting:
                raise ProtocolError("net.seat_taken")
            if kind == "open" and core.started:
                raise ProtocolError("net.already_started")
            await self.commit(table, {"k": "seat", "seat": seat, "kind": kind, "name": "",
                                      "level": (level or core.default_level)
                                      if kind == "bot" else None})
        self.bots.schedule(table)

    async def start(self, client: Client) -> None:
        """Host only: the match starts; open seats become bots."""
        table = self._table_of(client)
        self._host_check(table, client)
        def entry() -> Entry:
            if table.core.started:
                raise ProtocolError("net.already_started")
            return {"k": "start"}

        async with table.lock:
            await self.commit(table, entry(), remake=entry)
        self.bots.schedule(table)

    async def act(self, client: Client, action: str, at_seq: int) -> None:
        """The client's action, if it is theirs to take and legal."""
        table = self._table_of(client)
        assert client.viewer is not None
        if viewer_seat(client.viewer) in table.core.waiting:
            raise ProtocolError("net.between_hands")
        async with table.lock:
            viewer = client.viewer
            entry = table.core.act_entry(viewer, action, at_seq)
            await self.commit(table, entry,
                              remake=lambda: table.core.act_entry(viewer, action, at_seq))
            await self.bots.take_pending(table)
        self.bots.schedule(table)

    async def chat(self, client: Client, text: str) -> None:
        """A chat line to everyone at the table."""
        table = self._table_of(client)
        assert client.viewer is not None
        if not self.chat_rate.allow(f"{table.core.code}/{client.viewer}", self.clock()):
            raise ProtocolError("net.chat_too_fast")
        async with table.lock:
            await self.commit(table, {"k": "chat", "seat": viewer_seat(client.viewer),
                                      "name": client.name, "text": text})

    async def leave(self, client: Client) -> None:
        """The client leaves the table for good: its seat goes to a bot (open before
        the start)."""
        table = self._table_of(client)
        viewer = client.viewer
        assert viewer is not None
        seat = viewer_seat(viewer)
        table.detach(client)
        async with table.lock:
            if seat is not None and table.core.waiting.get(seat, ("", ""))[1] == \
                    holder_of(client.token_hash):
                await self.commit(table, {"k": "presence", "seat": seat, "state": "left",
                                          "name": client.name, "waiting": True})
            elif seat is None:
                await self.commit(table, watcher_entry(viewer, "left", client.name))
            elif self._holds(table, seat, client):
                self.bots.cancel_grace(table, seat)
                await self.commit(table, {"k": "presence", "seat": seat, "state": "left",
                                          "name": client.name})
        self.bots.schedule(table)

    def _holds(self, table: LiveTable, seat: int, client: Client) -> bool:
        state = table.core.seats[seat]
        return state.kind == "human" and state.holder == holder_of(client.token_hash)

    async def disconnected(self, client: Client) -> None:
        """The client's line is gone. A seated player is marked dropped (unless a newer
        line of theirs is already here) and the grace period starts."""
        table = self.tables.get(client.code or "")
        if table is None or client.viewer is None:
            return
        viewer = client.viewer
        seat = viewer_seat(viewer)
        table.detach(client)
        if any(c.token_hash == client.token_hash for c in table.clients.get(viewer, [])):
            return  # a newer line of the same player is here already
        if seat is None:  # a watcher: the table hears it, as it hears a player's drop
            async with table.lock:
                if viewer in table.core.watcher_names and \
                        viewer not in table.core.watchers_away:
                    await self.commit(table, watcher_entry(viewer, "dropped", client.name))
            return
        if not self._holds(table, seat, client):
            return
        async with table.lock:
            if table.core.seats[seat].connected:
                await self.commit(table, {"k": "presence", "seat": seat, "state": "dropped",
                                          "name": client.name})
        self.bots.start_grace(table, seat)
        self.bots.schedule(table)

    async def close(self) -> None:
        """Stop every timer and bot (the store stays open: its owner closes it)."""
        self.upkeep.stop()
        if self._processes is not None:
            self._processes.cancel()
        for table in self.tables.values():
            self.bots.close(table)
        if self.feed is not None:
            self.feed.close()
