"""The bots of the hub's tables, and the grace period of a player who dropped.

A bot plays a bot seat, or a human's seat once the player has been gone for the
table's grace period (``bot_standing_in``, said to the table); it acts after
``bot_delay`` seconds so players hear each move, at once when no human is connected.
A friend waiting for a bot's seat sits down as soon as a hand is over.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from voice_spades.bots import Bot, decide
from voice_spades.engine import action_to_text
from voice_spades.protocol.codec import ProtocolError
from voice_spades.server.live_table import LiveTable, holder_of
from voice_spades.server.store import Entry
from voice_spades.server.streams import seat_viewer

log = logging.getLogger(__name__)


class Commit(Protocol):
    """Store an entry, apply it, send what it causes (:meth:`Hub.commit`); ``remake``
    makes the entry again if another process stored first."""

    def __call__(self, table: LiveTable, entry: Entry,
                 remake: Callable[[], Entry] | None = None) -> Awaitable[object]:
        ...


Lead = Callable[[str], Awaitable[bool]]
"""Whether this process drives a table's bots (:meth:`TableStore.lead`)."""
LEAD_RETRY = 1.0
"""Seconds between asks for the lead of a table whose bots another process drives: how
long a table's bots may wait after that process dies."""


def seated_entry(seat: int, state: str, name: str, hashed: str, host: bool = False) -> Entry:
    """The presence entry of a player sitting at ``seat`` (``joined`` or ``took_seat``);
    the log keeps the start of the token's hash, to know whose seat it is."""
    entry: Entry = {"k": "presence", "seat": seat, "state": state, "name": name,
                    "tok": holder_of(hashed)}
    if host:
        entry["host"] = True
    return entry


def watcher_entry(viewer: str, state: str, name: str) -> Entry:
    """The presence entry of watcher ``viewer`` (``"watch:0"``) who ``state``:
    ``dropped``, ``back`` or ``left``."""
    return {"k": "presence", "seat": None, "state": state, "name": name, "viewer": viewer}


def _took_seat(table: LiveTable, seat: int, waiting: tuple[str, str, str]) -> Entry:
    """The entry seating the friend who waits for ``seat`` (the hand is over)."""
    core = table.core
    if not core.between_hands or core.waiting.get(seat) != waiting:
        raise ProtocolError("net.stale")
    name, holder, via = waiting
    entry: Entry = {"k": "presence", "seat": seat, "state": "took_seat", "name": name,
                    "tok": holder}
    return {**entry, "via": via} if via else entry


class TableBots:
    """Bot turns and grace timers for the tables of one hub."""

    def __init__(self, commit: Commit, bot_delay: float,
                 bot_factory: Callable[[str, int, Any, int], Bot], lead: Lead,
                 process: str = "") -> None:
        self.commit = commit
        self.lead = lead
        self.process = process
        """This process's name among those sharing the store ("" when none do)."""
        self.bot_delay = bot_delay
        self.bot_factory = bot_factory

    def start_grace(self, table: LiveTable, seat: int) -> None:
        """The player at ``seat`` dropped: a bot stands in after the grace period."""
        self.cancel_grace(table, seat)
        table.grace_tasks[seat] = asyncio.ensure_future(self._grace(table, seat))

    def cancel_grace(self, table: LiveTable, seat: int | None) -> None:
        """The player is back (or left): no stand-in is due."""
        task = table.grace_tasks.pop(seat, None) if seat is not None else None
        if task is not None:
            task.cancel()

    async def _grace(self, table: LiveTable, seat: int) -> None:
        await asyncio.sleep(table.core.grace)
        async with table.lock:
            state = table.core.seats[seat]
            if state.kind == "human" and not state.connected and not state.standing_in:
                await self.commit(table, {"k": "presence", "seat": seat,
                                           "state": "bot_standing_in", "name": state.name})
        table.grace_tasks.pop(seat, None)
        self.schedule(table)

    async def take_pending(self, table: LiveTable) -> None:
        """Friends waiting for a bot's seat sit down once a hand is over (whichever
        process ends the hand seats them). A friend whose line is gone from their own
        process is marked dropped: the seat waits out the grace period. (One who came
        through a process that died is marked so by the watch of processes.)"""
        core = table.core
        for seat, waiting in list(core.waiting.items()):
            if not core.between_hands or core.waiting.get(seat) != waiting:
                continue
            name, holder, via = waiting
            seated = functools.partial(_took_seat, table, seat, waiting)
            try:  # made again after news from other processes
                await self.commit(table, seated(), seated)
            except ProtocolError:
                continue  # another process seated the friend first
            here = any(holder_of(c.token_hash) == holder
                       for c in table.clients.get(seat_viewer(seat), []))
            if not here and via == self.process:
                await self.commit(table, {"k": "presence", "seat": seat,
                                          "state": "dropped", "name": name})
                self.start_grace(table, seat)

    def schedule(self, table: LiveTable) -> None:
        """Start the bot's turn if a bot is to act and none is thinking already."""
        if table.bot_task is not None and not table.bot_task.done():
            return
        if table.core.bot_to_act() is not None:
            table.bot_task = asyncio.ensure_future(self._bot_turn(table))

    async def _bot_turn(self, table: LiveTable) -> None:
        core = table.core
        while (seat := core.bot_to_act()) is not None:
            if not await self.lead(core.code):  # another process drives them
                await asyncio.sleep(LEAD_RETRY)
                continue
            if self.bot_delay and core.humans_present():
                await asyncio.sleep(self.bot_delay)
            async with table.lock:
                if core.bot_to_act() != seat:
                    continue
                level = core.seats[seat].level or core.default_level
                if seat not in table.bots or table.bots[seat][0] != level:
                    table.bots[seat] = (level, self.bot_factory(level, seat, core.rules,
                                                                core.match.seed + seat))
                bot = table.bots[seat][1]
                view = core.match.view(seat)
                action = await asyncio.to_thread(decide, bot, view)
                text = action_to_text(action)
                try:
                    # Made again (and checked again) after news another process
                    # stored first: a presence or a chat leaves the move as it was.
                    await self.commit(table, core.bot_entry(seat, text),
                                      functools.partial(core.bot_entry, seat, text))
                except ProtocolError as refusal:
                    if refusal.message_id in ("net.stale", "net.not_your_turn"):
                        continue  # the table moved on meanwhile: think again
                    log.error("table %s: the bot at seat %d was refused: %r", core.code,
                              seat, refusal.message)
                    return  # a bot's bug: stop, never loop on it
                await self.take_pending(table)

    def close(self, table: LiveTable) -> None:
        """Stop the table's bot and timers."""
        for task in [table.bot_task, *table.grace_tasks.values()]:
            if task is not None:
                task.cancel()
