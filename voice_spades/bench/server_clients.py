"""Simulated players for ``bench server``: real WebSocket clients of the wire protocol.

A :class:`TableRun` is one table of simulated clients, every seat a client (so every
action is one a client sent and timed). The first client creates the table on the
first server address, the others join it, each on the next address in turn (with two
server processes, a table's players are split between them), and the host starts.
A client whose view says it is to act waits ``think`` seconds, then sends a legal
action picked at random from its view (the bot's decision is instant, client-side).

What is measured, per action: from the moment its client sent it to the moment the
``state`` message it caused reached the last of the table's viewers. Only one seat
acts at a time, so the table's k-th action causes each viewer's k-th ``state`` after
the opening one. Every stream message's ``seq`` is checked: one more than the last
(else a gap: a lost message) and never one already seen (a duplicate); at the end
each viewer must hold one ``state`` per action sent, plus the opening one.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

PRIVATE_EVENTS = frozenset({"HandDealt", "DrawFinished", "CardDrawn", "CardsExchanged"})
"""Events each viewer gets its own redaction of (``protocol.redact``)."""
RECEIVE_TIMEOUT = 30.0
"""Seconds a client waits for its next message before it calls its table stalled."""


@dataclass
class Viewer:
    """What one client received."""

    seat: int
    last_seq: int = 0
    states: list[float] = field(default_factory=list)
    """Arrival time (``time.perf_counter``) of each ``state`` message, in order."""
    messages: int = 0
    gaps: int = 0
    duplicates: int = 0
    hands_scored: int = 0
    done: bool = False
    public: list[str] = field(default_factory=list)
    """The events every viewer sees alike (not the deal, draw or exchange), as JSON."""


@dataclass
class TableRun:
    """One table of simulated clients, and what they measured."""

    number: int
    players: int
    hands: int
    think: float
    rules: dict[str, Any]
    addresses: list[str]
    code: str = ""
    sent: list[float] = field(default_factory=list)
    """When each action was sent (``time.perf_counter``), in the table's order."""
    viewers: list[Viewer] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seated: asyncio.Event = field(default_factory=asyncio.Event)
    created: asyncio.Event = field(default_factory=asyncio.Event)
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    joined: int = 0
    start_sent: bool = False

    def latencies(self) -> list[float]:
        """Seconds from each action sent to its ``state`` at the last viewer to get it."""
        result = []
        for k, sent in enumerate(self.sent, start=1):
            arrivals = [v.states[k] for v in self.viewers if len(v.states) > k]
            if len(arrivals) == len(self.viewers):
                result.append(max(arrivals) - sent)
        return result

    def lost(self) -> int:
        """State messages some viewer never got (one per action per viewer expected)."""
        expected = len(self.sent) + 1
        return sum(max(0, expected - len(v.states)) for v in self.viewers) + sum(
            v.gaps for v in self.viewers)

    def check_done(self) -> None:
        if all(v.done for v in self.viewers):
            self.finished.set()


def _seats(players: int) -> list[dict[str, Any]]:
    return [{"kind": "human"}] + [{"kind": "open"} for _ in range(players - 1)]


async def _receive(ws: ClientConnection) -> dict[str, Any]:
    raw = await asyncio.wait_for(ws.recv(), RECEIVE_TIMEOUT)
    message = json.loads(raw)
    if not isinstance(message, dict):
        raise ValueError(f"not an object: {raw!r:.80}")
    return message


async def _welcomed(ws: ClientConnection, table: TableRun) -> dict[str, Any]:
    """Read until ``welcome`` (noting ``created``'s code); an ``error`` ends the table."""
    for _ in range(50):
        message = await _receive(ws)
        if message["t"] == "created":
            table.code = str(message["code"])
        elif message["t"] == "welcome":
            if not table.code:
                table.code = str(message["code"])
            return message
        elif message["t"] == "error":
            raise RuntimeError(f"error {message.get('id')} {message.get('fields')}")
    raise RuntimeError("no welcome after 50 messages")


async def run_client(table: TableRun, seat: int, rng: random.Random) -> None:
    """Play one seat of ``table`` to the end of its hands (see module doc)."""
    address = table.addresses[seat % len(table.addresses)]
    viewer = Viewer(seat)
    table.viewers.append(viewer)
    try:
        async with connect(address, open_timeout=20, close_timeout=2, ping_interval=None,
                           max_size=2**20) as ws:
            await ws.send(json.dumps({"t": "hello", "v": 1, "name": f"B{table.number}.{seat}",
                                      "lang": "en"}))
            if seat == 0:
                await ws.send(json.dumps({"t": "create", "rules": table.rules,
                                          "seats": _seats(table.players), "grace": 30}))
                welcome = await _welcomed(ws, table)
                table.created.set()
            else:
                await asyncio.wait_for(table.created.wait(), RECEIVE_TIMEOUT)
                await ws.send(json.dumps({"t": "join", "code": table.code, "seat": seat}))
                welcome = await _welcomed(ws, table)
            viewer.last_seq = int(welcome.get("seq", 0))
            table.joined += 1
            if table.joined == table.players:
                table.seated.set()
            await _play(ws, table, viewer, rng)
            await asyncio.wait_for(table.finished.wait(), RECEIVE_TIMEOUT)
    except Exception as error:  # a refusal, a closed line, a stall: counted, not raised
        table.errors.append(f"seat {seat}: {type(error).__name__}: {error}")
        table.created.set()  # let the table's other clients stop waiting, and fail
        table.seated.set()
    finally:
        viewer.done = True
        table.check_done()


async def _play(ws: ClientConnection, table: TableRun, viewer: Viewer,
                rng: random.Random) -> None:
    while not viewer.done:
        message = await _receive(ws)
        now = time.perf_counter()
        kind = message.get("t")
        if kind == "error":
            raise RuntimeError(f"error {message.get('id')} {message.get('fields')}")
        if "seq" not in message or kind in ("welcome", "caught_up"):
            continue
        viewer.messages += 1
        seq = int(message["seq"])
        if seq <= viewer.last_seq:
            viewer.duplicates += 1
            continue
        if seq > viewer.last_seq + 1:
            viewer.gaps += seq - viewer.last_seq - 1
        viewer.last_seq = seq
        if kind == "table" and viewer.seat == 0 and not table.start_sent and all(
                s.get("kind") == "human" for s in message.get("seats", ())):
            table.start_sent = True
            # Every friend's arrival is stored (and this is what this server says so):
            # the host starts, as a host hearing the table full would.
            await ws.send(json.dumps({"t": "start"}))
        if kind != "state":
            continue
        viewer.states.append(now)
        for event in message.get("events", ()):
            if event.get("type") not in PRIVATE_EVENTS:
                viewer.public.append(json.dumps(event, sort_keys=True))
            if event.get("type") == "HandScored":
                viewer.hands_scored += 1
            elif event.get("type") == "MatchOver":
                viewer.hands_scored = table.hands
        if viewer.hands_scored >= table.hands:
            viewer.done = True
            table.check_done()
            return
        view = message.get("view") or {}
        legal = view.get("legal") or []
        if view.get("to_act") == viewer.seat and legal:
            if table.think > 0:
                await asyncio.sleep(table.think * rng.uniform(0.5, 1.5))
            table.sent.append(time.perf_counter())
            await ws.send(json.dumps({"t": "act", "action": rng.choice(legal),
                                      "at_seq": viewer.last_seq}))


async def play_table(table: TableRun, seed: int) -> TableRun:
    """Run every seat of ``table`` at once; returns it with what was measured."""
    rng = random.Random(seed)
    await asyncio.gather(*(run_client(table, seat, random.Random(rng.getrandbits(32)))
                           for seat in range(table.players)))
    return table


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank); 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1))
    return ordered[rank]
