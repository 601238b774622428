"""The page's routes (Starlette): the page, its script and style from the package, and
its WebSocket; and :class:`PageServer`, which serves them on a thread for the local game.

Every request goes through the :class:`~voice_spades.web.access.Gate` first: a refused
one gets 403 and one sentence (HTTP), or is closed (WebSocket, close code 1008).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import threading
from collections.abc import Callable
from importlib import resources
from typing import Protocol

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from voice_spades.narration.catalog import Catalog, catalog
from voice_spades.protocol.codec import ProtocolError
from voice_spades.protocol.wire import parse_frame
from voice_spades.server.app import WS_IMPLEMENTATION, bind
from voice_spades.web.access import Gate
from voice_spades.web.page_clients import PageClients
from voice_spades.web.page_state import Json

PAGE_WS_PATH = "/page/ws"
"""The page's own WebSocket (the table server's protocol keeps its own path)."""
MAX_PAGE_FRAME = 4096
"""Largest frame a page may send: its messages are a key or a card, under 100 bytes."""
MAX_CHAT = 200
"""Longest chat message a page may send (the table's own limit)."""
STATIC = {"page.js": "text/javascript; charset=utf-8", "page.css": "text/css; charset=utf-8"}
"""The files served beside the page, with their types."""
_TEXT = re.compile(r"\{\{((?:web|word\.seat)\.[a-z_.]+|token|lang|mode)\}\}")


class PageTable(Protocol):
    """What the routes need of the table a page shows."""

    clients: PageClients

    def hello(self) -> Json:
        """The first message a page gets."""

    def state(self, lines: list[Json] | None = None) -> Json:
        """The table now (``lines``: None for the whole log)."""

    def press(self, key: str) -> None:
        """A key pressed in the page."""

    def play(self, code: str) -> None:
        """A card clicked."""

    def bid(self, tricks: int) -> None:
        """A bid button."""

    def set_reader(self, on: bool) -> None:
        """The screen reader switch."""

    def chat(self, text: str) -> None:
        """A message typed in the page for the table."""

    def rendered(self, seq: int) -> None:
        """The page has shown state ``seq``."""

    def closed(self) -> None:
        """The page went away."""


def static_text(name: str) -> str:
    """A file of the page, from the package."""
    return resources.files("voice_spades.web").joinpath("static", name).read_text("utf-8")


def page_html(words: Catalog, token: str, mode: str) -> str:
    """The page, its texts in ``words``' language."""
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        value = {"token": token, "lang": words.language, "mode": mode}.get(name)
        return html.escape(value if value is not None else words.render(name), quote=True)
    return _TEXT.sub(fill, static_text("page.html"))


def page_routes(table: PageTable, gate: Gate,
                words: Callable[[], Catalog] = catalog) -> list[BaseRoute]:
    """The page's routes for ``table`` behind ``gate``."""

    def refused(request: Request) -> Response | None:
        why = gate.refusal(request.headers, request.query_params)
        return None if why is None else PlainTextResponse(words().render(why), 403)

    async def page(request: Request) -> Response:
        return refused(request) or HTMLResponse(
            page_html(words(), request.query_params.get("t", ""), "local"),
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                     "Content-Security-Policy": "default-src 'self'; connect-src 'self'"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("", 404)
        return refused(request) or Response(static_text(name), media_type=STATIC[name],
                                            headers={"Cache-Control": "no-store"})

    async def line(websocket: WebSocket) -> None:
        if gate.refusal(websocket.headers, websocket.query_params) is not None:
            await websocket.close(1008)
            return
        await websocket.accept()
        await serve_page(websocket, table)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    return [Route("/", page), Route("/static/{name}", static), Route("/favicon.ico", no_icon),
            WebSocketRoute(PAGE_WS_PATH, line)]


async def serve_page(websocket: WebSocket, table: PageTable) -> None:
    """Send the page the table as it changes and carry out what it sends, until it
    goes."""
    queue = table.clients.join()
    sender = asyncio.create_task(_send_all(websocket, table, queue))
    try:
        while True:
            text = await websocket.receive_text()
            if len(text) > MAX_PAGE_FRAME:
                break
            await asyncio.to_thread(carry_out, table, text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        table.clients.leave(queue)
        table.closed()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _send_all(websocket: WebSocket, table: PageTable,
                    queue: asyncio.Queue[Json | None]) -> None:
    await websocket.send_text(json.dumps(table.hello()))
    await websocket.send_text(json.dumps(await asyncio.to_thread(table.state)))
    while (message := await queue.get()) is not None:
        await websocket.send_text(json.dumps(message))
    await websocket.close(1013)  # the page fell too far behind: it reloads the table


def carry_out(table: PageTable, frame: str) -> None:
    """One message from a page: ``{"t": "key", "key": "b"}``, ``{"t": "card",
    "card": "QH"}``, ``{"t": "bid", "bid": 4}``, ``{"t": "reader", "on": true}``,
    ``{"t": "chat", "text": "hello"}``, ``{"t": "rendered", "seq": 12}``.
    Anything else is ignored: the page is not trusted."""
    try:
        message = parse_frame(frame)
    except ProtocolError:
        return
    kind = message.get("t")
    key, card, bid, on, seq, text = (message.get(name) for name in
                                     ("key", "card", "bid", "on", "seq", "text"))
    if kind == "key" and isinstance(key, str) and 0 < len(key) <= 20:
        table.press(key)
    elif kind == "card" and isinstance(card, str) and len(card) <= 3:
        table.play(card)
    elif kind == "bid" and isinstance(bid, int) and not isinstance(bid, bool):
        table.bid(bid)
    elif kind == "reader" and isinstance(on, bool):
        table.set_reader(on)
    elif kind == "chat" and isinstance(text, str) and 0 < len(text) <= MAX_CHAT:
        table.chat(text)
    elif kind == "rendered" and isinstance(seq, int) and not isinstance(seq, bool):
        table.rendered(seq)


class PageServer:
    """The local game's page on 127.0.0.1, served by uvicorn on a thread of its own."""

    def __init__(self, table: PageTable, token: str, port: int = 0,
                 host: str = "127.0.0.1") -> None:
        self.sock = bind(host, port)
        self.host = host
        self.port: int = self.sock.getsockname()[1]
        self.token = token
        self.gate = Gate.local(self.port, token)
        app = Starlette(routes=page_routes(table, self.gate))
        self.server = uvicorn.Server(uvicorn.Config(
            app, ws=WS_IMPLEMENTATION, ws_max_size=MAX_PAGE_FRAME, lifespan="off",
            log_level="warning", access_log=False, ws_per_message_deflate=False))
        self._thread = threading.Thread(target=self._run, name="voice-spades-page",
                                        daemon=True)
        self._error: BaseException | None = None

    @property
    def address(self) -> str:
        """The page's address, with its key."""
        return f"http://{self.host}:{self.port}/?t={self.token}"

    def start(self, timeout: float = 10.0) -> PageServer:
        """Serve; raises RuntimeError if not listening within ``timeout`` seconds."""
        self._thread.start()
        for _ in range(int(timeout / 0.01)):
            if self.server.started or self._error is not None:
                break
            threading.Event().wait(0.01)
        if not self.server.started:
            raise RuntimeError(f"the page server did not start: {self._error!r}")
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self.server.serve(sockets=[self.sock]))
        except BaseException as exc:  # reported by start()
            self._error = exc

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving."""
        self.server.should_exit = True
        self._thread.join(timeout)
        self.sock.close()
