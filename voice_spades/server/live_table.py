"""A table being served, as the hub keeps it, and the client connections it serves."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Protocol

from voice_spades.bots import Bot
from voice_spades.server.table_core import TableCore


class Client(Protocol):
    """A connection as the hub sees it (:class:`voice_spades.server.connection.Connection`)."""

    name: str
    address: str
    code: str | None
    viewer: str | None
    token_hash: str

    def send(self, frame: str) -> None:
        """Queue one frame to this client (never blocks)."""
        ...

    def close(self, code: int) -> None:
        """Close the line."""
        ...


@dataclass(eq=False)
class LiveTable:
    """One table being served: its core and everything that is not in the log."""

    core: TableCore
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: dict[str, list[Client]] = field(default_factory=dict)
    bots: dict[int, tuple[str, Bot]] = field(default_factory=dict)
    """Each bot seat's player and its level."""
    bot_task: asyncio.Task[None] | None = None
    grace_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    finish_task: asyncio.Task[None] | None = None
    """Once the match is over: the table's unloading, a while later."""

    def attach(self, client: Client, viewer: str) -> None:
        """``client`` follows ``viewer``'s stream; an older line of the same player
        (same token) is closed: the newer one replaces it."""
        for old in self.clients.get(viewer, []):
            if old is not client and old.token_hash == client.token_hash:
                old.viewer = None
                old.close(1000)
        self.clients[viewer] = [c for c in self.clients.get(viewer, [])
                                if c.viewer == viewer and c is not client] + [client]
        client.code, client.viewer = self.core.code, viewer

    def close_lines(self) -> None:
        """Close every client's line (the table is being removed)."""
        for clients in self.clients.values():
            for client in clients:
                client.viewer = None
                client.close(1000)
        self.clients.clear()

    def detach(self, client: Client) -> None:
        """``client`` no longer follows its stream."""
        if client.viewer is not None:
            self.clients[client.viewer] = [c for c in self.clients.get(client.viewer, [])
                                           if c is not client]
        client.viewer = None


def new_token() -> tuple[str, str]:
    """A new token (from ``secrets``, 256 bits) and what the store keeps of it."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def holder_of(hashed: str) -> str:
    """What the log keeps of a seat's token: the start of its hash."""
    return hashed[:16]
