"""A table server's page: a friend without the game opens the server's address in a
browser, types the table's code, picks a seat (or watches) and plays, in their language.

The page is public (the table's code guards the table, and wrong codes are limited per
browser as the protocol's are), but a foreign Origin is refused. The language is the
one the address asks for (``?lang=it``), else the browser's first of en, it, fr.
"""

from __future__ import annotations

import asyncio
import json
import time

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from voice_spades.messages import Message
from voice_spades.narration.catalog import catalog
from voice_spades.narration.language import LANGUAGES
from voice_spades.protocol.codec import ProtocolError
from voice_spades.protocol.wire import CODE_DIGITS, WS_PATH, parse_frame
from voice_spades.server.limits import CodeTries
from voice_spades.web.access import Gate
from voice_spades.web.friend_seat import PACE, FriendSeat, joined
from voice_spades.web.page_app import (
    PAGE_WS_PATH,
    STATIC,
    page_html,
    serve_page,
    static_text,
)

JOIN_TRIES = 20
"""Join forms one page may send before it is closed (the code limit stops guessing)."""


def page_language(asked: str | None, accepted: str) -> str:
    """The page's language: ``asked`` (the address's ``lang``) if the game speaks it,
    else the first of the browser's Accept-Language it speaks, else English.

    >>> page_language(None, "fr-CA,fr;q=0.9,en;q=0.8"), page_language("it", "fr")
    ('fr', 'it')
    """
    if asked in LANGUAGES:
        return asked
    for part in accepted.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def friend_routes(table_url: str, pace: float = PACE) -> list[BaseRoute]:
    """The page's routes on a table server whose protocol listens at ``table_url``
    (reached from inside the server, on loopback); ``pace``: seconds between the other
    seats' moves as a page shows them."""
    gate = Gate()
    tries = CodeTries()

    def language_of(connection: Request | WebSocket) -> str:
        return page_language(connection.query_params.get("lang"),
                             connection.headers.get("accept-language", ""))

    async def page(request: Request) -> Response:
        why = gate.refusal(request.headers, request.query_params)
        words = catalog(language_of(request))
        if why is not None:
            return PlainTextResponse(words.render(why), 403)
        return HTMLResponse(page_html(words, "", "friend"), headers={
            "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "default-src 'self'; connect-src 'self'"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("", 404)
        why = gate.refusal(request.headers, request.query_params)
        if why is not None:
            return PlainTextResponse(catalog(language_of(request)).render(why), 403)
        return Response(static_text(name), media_type=STATIC[name])

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def line(websocket: WebSocket) -> None:
        if gate.refusal(websocket.headers, websocket.query_params) is not None:
            await websocket.close(1008)
            return
        await websocket.accept()
        language = language_of(websocket)
        address = websocket.client.host if websocket.client else "?"
        try:
            seat = await _seated(websocket, table_url, language, address, tries, pace)
        except WebSocketDisconnect:
            return
        if seat is not None:
            await serve_page(websocket, seat.start())

    return [Route("/", page), Route("/static/{name}", static), Route("/favicon.ico", no_icon),
            WebSocketRoute(PAGE_WS_PATH, line)]


async def _seated(websocket: WebSocket, table_url: str, language: str, address: str,
                  tries: CodeTries, pace: float) -> FriendSeat | None:
    """Read the page's join forms until one seats it (None: too many)."""
    words = catalog(language)
    for _ in range(JOIN_TRIES):
        text = await websocket.receive_text()
        form = _join_form(text)
        if form is None:
            continue
        code, seat, watch, name = form
        code = "".join(code.split())
        if len(code) != CODE_DIGITS or not code.isascii() or not code.isdigit():
            refusal = Message("web.bad_code", digits=CODE_DIGITS)
        elif tries.blocked(address, time.monotonic()):
            refusal = Message("net.too_many_tries")
        else:
            got = await asyncio.to_thread(joined, table_url, language, code, seat, watch,
                                          name, address)
            if isinstance(got, Message):
                refusal = got
                if got.id == "net.no_such_table":
                    tries.failed(address, time.monotonic())
            else:
                return FriendSeat(*got, language, pace)
        await websocket.send_text(json.dumps({"t": "refused",
                                              "text": words.render_message(refusal)}))
    await websocket.close(1008)
    return None


def _join_form(text: str) -> tuple[str, int | None, bool, str] | None:
    """``{"t": "join", "code": "123456", "seat": 2, "watch": false, "name": "Ann"}``
    as its parts; None for anything else (the page is not trusted)."""
    try:
        form = parse_frame(text)
    except ProtocolError:
        return None
    if form.get("t") != "join":
        return None
    code, seat, watch, name = (form.get(k) for k in ("code", "seat", "watch", "name"))
    if not isinstance(code, str) or not (seat is None or type(seat) is int) \
            or not isinstance(watch, bool) or not isinstance(name, str):
        return None
    return code[:20], seat, watch, name[:200]


def loopback_url(host: str, port: int) -> str:
    """The protocol's address of a server listening on ``host`` and ``port``, as the
    server itself reaches it (every address: loopback).

    >>> loopback_url("0.0.0.0", 8765), loopback_url("::", 80), loopback_url("10.0.0.2", 1)
    ('ws://127.0.0.1:8765/ws', 'ws://[::1]:80/ws', 'ws://10.0.0.2:1/ws')
    """
    name = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    name = f"[{name}]" if ":" in name else name
    return f"ws://{name}:{port}{WS_PATH}"


def page_address(server: str) -> str:
    """The page's address on the table server friends join at ``server`` ("host:port",
    or a ``ws://`` or ``wss://`` address).

    >>> page_address("192.168.1.5:8765"), page_address("wss://cards.example/ws")
    ('http://192.168.1.5:8765/', 'https://cards.example/')
    """
    scheme = "https" if server.startswith("wss://") else "http"
    rest = server.split("://", 1)[-1]
    return f"{scheme}://{rest.split('/', 1)[0]}/"
