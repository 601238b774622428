"""One client's WebSocket: its first hello, the limits on what it sends, its requests
handed to the hub, and its outgoing frames in order.

Nothing a client sends can stop the server: every frame goes through
:func:`~voice_spades.protocol.wire.parse_frame` and
:func:`~voice_spades.protocol.wire.read_client`, every refusal is an ``error`` message
with its ``net.*`` id, and a client that floods is cut off (close code 1008) without
slowing anyone else: each connection has its own queue, and a table's lock is held
only by that table's changes.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from voice_spades.protocol.codec import ProtocolError
from voice_spades.protocol.wire import (
    CLOSE_POLICY,
    VERSION,
    Act,
    Chat,
    ClientMessage,
    Create,
    Hello,
    Join,
    Leave,
    Ping,
    SetSeat,
    Start,
    encode,
    parse_frame,
    read_client,
)
from voice_spades.server.hub import Hub
from voice_spades.server.limits import MessageRate
from voice_spades.server.table_core import error_frame

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to say hello."""
QUEUE_LIMIT = 4000
"""Frames waiting for a client that reads too slowly; past this its line is closed
(1013, try again) and it resumes by its token. A whole match is about 700 frames."""
CLOSE_SLOW = 1013
CLOSE_WAIT = 2.0
"""Seconds the last frames and the close may take to go out before the line is dropped."""


class Connection:
    """A client's line; the hub reaches it through :class:`~.live_table.Client`."""

    def __init__(self, websocket: WebSocket, hub: Hub) -> None:
        self.websocket = websocket
        self.hub = hub
        self.address = websocket.client.host if websocket.client else "?"
        self.name = ""
        self.lang = "en"
        self.code: str | None = None
        self.viewer: str | None = None
        self.token_hash = ""
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.closing = False
        self.rate = MessageRate(hub.clock())
        self._last_rate_error = -1.0

    def send(self, frame: str) -> None:
        """Queue a frame; a client too far behind is closed instead."""
        if self.closing:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close(CLOSE_SLOW)
            return
        self.queue.put_nowait(frame)

    def close(self, code: int) -> None:
        """Close the line once the frames queued before are sent."""
        if not self.closing:
            self.closing = True
            self.queue.put_nowait(code)

    def error(self, error: ProtocolError) -> None:
        """Send a refusal."""
        self.send(encode(error_frame(error)))

    async def run(self) -> None:
        """Serve the line until it closes; one address past its cap of connections is
        told so (``net.too_many_connections``) and closed."""
        writer = asyncio.ensure_future(self._write())
        admitted = self.hub.connections.admit(self.address)
        try:
            if admitted:
                await self._read()
            else:
                log.info("refusing a connection from %s: %d open already", self.address,
                         self.hub.connections.most)
                self.error(ProtocolError("net.too_many_connections",
                                         limit=self.hub.connections.most))
        except (WebSocketDisconnect, ConnectionError, RuntimeError):
            pass
        finally:
            if admitted:
                self.hub.connections.closed(self.address)
            self.close(CLOSE_POLICY)  # after whatever is queued (an error that says why)
            try:
                await self.hub.disconnected(self)
            finally:
                try:
                    await asyncio.wait_for(writer, CLOSE_WAIT)
                except (TimeoutError, asyncio.CancelledError):
                    writer.cancel()

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, int):
                    await self.websocket.close(item)
                    return
                await self.websocket.send_text(item)
        except (WebSocketDisconnect, ConnectionError, RuntimeError):
            return

    async def _read(self) -> None:
        first = True
        while not self.closing:
            if first:
                try:
                    message = await asyncio.wait_for(self.websocket.receive(), HELLO_TIMEOUT)
                except TimeoutError:
                    self.error(ProtocolError("net.hello_first"))
                    self.close(CLOSE_POLICY)
                    return
            else:
                message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            now = self.hub.clock()
            allowed = self.rate.allow(now)
            if self.rate.flooding:
                log.info("closing a flooding client from %s", self.address)
                self.close(CLOSE_POLICY)
                return
            if not allowed:
                if now - self._last_rate_error >= 1.0:
                    self._last_rate_error = now
                    self.error(ProtocolError("net.rate_limited"))
                continue
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            try:
                request = read_client(parse_frame(frame))
                if first and not isinstance(request, Hello):
                    raise ProtocolError("net.hello_first")
                await self._handle(request, first)
                first = False
            except ProtocolError as refusal:
                self.error(refusal)
                if refusal.message_id in ("net.hello_first", "net.version", "net.bad_token") \
                        and first:
                    self.close(CLOSE_POLICY)
                    return
            except Exception:  # a bug must cost one request, never the server
                log.exception("request from %s failed", self.address)
                self.error(ProtocolError("net.bad_message", what="server"))

    async def _handle(self, request: ClientMessage, first: bool) -> None:
        hub = self.hub
        if isinstance(request, Hello):
            if not first:
                raise ProtocolError("net.bad_message", what="hello")
            if request.v != VERSION:
                raise ProtocolError("net.version", server=VERSION, client=request.v)
            self.name, self.lang = request.name, request.lang
            if request.token is not None:
                await hub.resume(self, request.token, request.last_seq)
            return
        if isinstance(request, Ping):
            self.send(encode({"t": "pong"}))
            return
        in_table = self.viewer is not None
        if isinstance(request, Create | Join) and in_table:
            raise ProtocolError("net.bad_message", what="already at a table")
        if isinstance(request, Create):
            seats: list[tuple[str, str | None]] = [(s.kind, s.level) for s in request.seats]
            await hub.create(self, request.rules, seats, request.grace)
        elif isinstance(request, Join):
            await hub.join(self, request.code, request.seat, request.watch)
        elif isinstance(request, SetSeat):
            await hub.set_seat(self, request.seat, request.kind, request.level)
        elif isinstance(request, Start):
            await hub.start(self)
        elif isinstance(request, Act):
            await hub.act(self, request.action, request.at_seq)
        elif isinstance(request, Chat):
            await hub.chat(self, request.text)
        elif isinstance(request, Leave):
            await hub.leave(self)
