"""The server as an ASGI app (Starlette) run by uvicorn, in this thread or another.

Starlette and uvicorn because one app on one port serves both the WebSocket of this
protocol and the browser page (:mod:`voice_spades.web`, given as routes); uvicorn runs
it with the ``websockets`` library's protocol and enforces the frame limit
(:data:`MAX_FRAME_BYTES`, close 1009) before a byte of an oversized frame reaches our
code.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import uvicorn
import uvicorn.config
from starlette.applications import Starlette
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket

from voice_spades.protocol.wire import MAX_FRAME_BYTES, WS_PATH
from voice_spades.server.connection import Connection
from voice_spades.server.hub import Hub

WS_IMPLEMENTATION = ("websockets-sansio" if "websockets-sansio" in uvicorn.config.WS_PROTOCOLS
                     else "websockets")
"""uvicorn's protocol over the ``websockets`` library: its sans-I/O one where uvicorn
has it (0.35 and later), the older one (which websockets 14 and later deprecate)
otherwise."""

STORE_THREADS = 64
"""Worker threads for the hub's store calls (see ``make_app``)."""


def make_app(hub: Hub, routes: Sequence[BaseRoute] = ()) -> Starlette:
    """The ASGI app serving ``hub`` on :data:`WS_PATH` (and ``routes``: the browser
    page's); it loads the stored tables as it starts."""

    async def table_line(websocket: WebSocket) -> None:
        await websocket.accept()
        await Connection(websocket, hub).run()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # The hub's store calls wait on the disk, not the CPU: with asyncio's default
        # (6 threads on 2 cores) at most 6 tables' appends shared a commit, and 1,000
        # clients got p99 1.4 s (bench server, SQLite, 134 actions a second).
        asyncio.get_running_loop().set_default_executor(
            concurrent.futures.ThreadPoolExecutor(STORE_THREADS, "voice-spades-store"))
        await hub.load()
        yield
        await hub.close()

    return Starlette(routes=[WebSocketRoute(WS_PATH, table_line), *routes], lifespan=lifespan)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host`` (IPv4 or IPv6) and ``port`` (0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not 0: asyncio turns Nagle off (TCP_NODELAY) only on sockets
    # whose proto says TCP, and accepted sockets inherit it. With 0, a frame waited for
    # the client's delayed ACK: 30-45 ms for one viewer in four (bench server, 1 table).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


def make_server(hub: Hub, routes: Sequence[BaseRoute] = ()) -> uvicorn.Server:
    """A uvicorn server for ``hub`` and ``routes`` (sockets are given to
    :meth:`uvicorn.Server.serve`)."""
    # No permessage-deflate: compressing every frame cost 9% of the server's CPU per
    # action (bench server, 200 clients: 2.32 -> 2.11 ms), and a player's whole stream
    # is about 3 KB a second uncompressed.
    config = uvicorn.Config(make_app(hub, routes), ws=WS_IMPLEMENTATION,
                            ws_max_size=MAX_FRAME_BYTES, ws_ping_interval=20.0,
                            ws_ping_timeout=20.0, lifespan="on",
                            log_level="warning", access_log=False, proxy_headers=True,
                            ws_per_message_deflate=False)
    return uvicorn.Server(config)


class ServerThread:
    """A server on a thread of its own, for ``voice-spades host`` and the tests.

    ``start()`` returns once it listens; :attr:`port` is then the port (useful with
    port 0); ``stop()`` shuts it down. :attr:`routes` (the browser page's) are served
    beside the protocol's WebSocket; set them before ``start()``."""

    def __init__(self, hub_factory: Callable[[], Hub], host: str = "127.0.0.1",
                 port: int = 0) -> None:
        self.hub_factory = hub_factory
        self.sock = bind(host, port)
        self.host = host
        self.port: int = self.sock.getsockname()[1]
        self.routes: list[BaseRoute] = []
        self.hub: Hub | None = None
        self.server: uvicorn.Server | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, name="voice-spades-server",
                                        daemon=True)
        self._error: BaseException | None = None

    @property
    def address(self) -> str:
        """The WebSocket address clients connect to."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}{WS_PATH}"

    def start(self, timeout: float = 10.0) -> ServerThread:
        """Start serving; raises RuntimeError if it did not start within ``timeout``."""
        self._thread.start()
        for _ in range(int(timeout / 0.01)):
            if (self.server is not None and self.server.started) or self._error is not None:
                break
            threading.Event().wait(0.01)
        if self._error is not None or self.server is None or not self.server.started:
            raise RuntimeError(f"the server did not start: {self._error!r}")
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported by start()
            self._error = exc

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.hub = self.hub_factory()
        self.server = make_server(self.hub, self.routes)
        await self.server.serve(sockets=[self.sock])

    def call(self, function: Callable[[Hub], Any], timeout: float = 10.0) -> Any:
        """Run ``function(hub)`` (a coroutine function or a plain one) on the server's
        loop and return its result: for tests that look inside."""
        assert self.loop is not None and self.hub is not None
        hub = self.hub

        async def run() -> Any:
            result = function(hub)
            return await result if asyncio.iscoroutine(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving and wait for the thread."""
        if self.server is not None:
            self.server.should_exit = True
        self._thread.join(timeout)
        self.sock.close()
