"""The line to the server: one WebSocket, on a thread of its own, that comes back by
itself when it drops.

On a drop the line is tried again at once, then after 0.1 s, doubling up to 1 s between
tries (:data:`BACKOFF_FIRST`, :data:`BACKOFF_MOST`), so a line that returns is used again
within about a second; the hello then carries the seat's token and the last stream seq
taken, and the server sends every message after it (no gap, no duplicate: the
:class:`~voice_spades.client.remote_table.RemoteTable` checks each seq).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from voice_spades.client.remote_table import RemoteTable
from voice_spades.messages import Message
from voice_spades.narration.catalog import active_language
from voice_spades.protocol.codec import ProtocolError
from voice_spades.protocol.wire import (
    MAX_FRAME_BYTES,
    WS_PATH,
    ClientMessage,
    Hello,
    encode,
    parse_frame,
)

_log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.1
BACKOFF_MOST = 1.0
"""Seconds between tries after a drop: from the first, doubling up to the most."""
OPEN_TIMEOUT = 3.0
"""Seconds a try may take to open (TCP and the WebSocket handshake)."""
PING_INTERVAL = 5.0
"""A line that answers no ping for this long is taken as dropped (a cable pulled sends
no close): the server's own pings are not relied on."""
RECV_POLL = 0.25
"""Seconds between checks that the line is still wanted while nothing arrives."""
DEFAULT_PORT = 8765


def server_url(address: str) -> str:
    """The WebSocket address of a server given as ``host``, ``host:port``, or a full
    ``ws://`` / ``wss://`` address (the path defaults to the protocol's).

    >>> server_url("192.168.1.20"), server_url("[::1]:9000"), server_url("wss://spades.example/ws")
    ('ws://192.168.1.20:8765/ws', 'ws://[::1]:9000/ws', 'wss://spades.example/ws')
    """
    if "://" not in address:
        host_port = address if ":" in address.rsplit("]", 1)[-1] else f"{address}:{DEFAULT_PORT}"
        address = f"ws://{host_port}"
    parts = urlsplit(address)
    return address if parts.path not in ("", "/") else f"{parts.scheme}://{parts.netloc}{WS_PATH}"


class Line:
    """Keeps one viewer connected to its table.

    ``first`` is what a new viewer sends after its hello (a create or a join); once the
    server has given a token, every later try resumes with it instead. ``tell`` says
    a line lost or back (the session's notes)."""

    def __init__(self, url: str, name: str, language: str, table: RemoteTable,
                 first: ClientMessage | None, tell: Callable[[Message], None] | None = None,
                 for_address: str | None = None, kept_token: str | None = None) -> None:
        self.url = url
        self.for_address = for_address
        """The address of the player this line speaks for (a browser seat's, told to the
        server as X-Forwarded-For: its limits then count that player, not loopback)."""
        self.kept_token = kept_token
        """A seat's token kept from an earlier run: the first hello takes the seat back
        with it (from the table as it stands) instead of sending ``first``."""
        self.name = name
        self.language = language
        self.table = table
        self.first = first
        self.tell = tell or table.tell
        self.opened = threading.Event()
        """Set once the first try has connected, or has failed for good (:attr:`failure`)."""
        self.failure: Message | None = None
        """Why the first try failed (the server is unreachable): one sentence."""
        self.reconnections = 0
        """Times the line came back after a drop."""
        self._ws: ClientConnection | None = None
        self._queue: list[ClientMessage] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._greeted = False
        self._thread = threading.Thread(target=self._run, daemon=True, name="table-line")

    def start(self) -> None:
        """Connect on the line's thread; :attr:`opened` says when the first try ended."""
        self._thread.start()

    def send(self, message: ClientMessage) -> None:
        """Send now, or as soon as the line is back (in order). Thread-safe."""
        with self._lock:
            ws = self._ws
            if ws is None:
                self._queue.append(message)
                return
            try:
                ws.send(encode(message.to_json()))
            except (ConnectionClosed, OSError):
                self._queue.append(message)

    def close(self, timeout: float = 2.0) -> None:
        """Close the line for good and wait (at most ``timeout`` s) for its thread."""
        self._closing.set()
        with self._lock:
            ws = self._ws
        if ws is not None:
            ws.close()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def cut(self) -> None:
        """Drop the line as a failing network would (tests): it comes back by itself."""
        with self._lock:
            ws = self._ws
        if ws is not None:
            ws.close_socket()

    # ----- the line's thread ---------------------------------------------------------
    def _run(self) -> None:
        wait = 0.0
        ever = False
        while not self._closing.is_set():
            if wait:
                self._closing.wait(wait)
                if self._closing.is_set():
                    break
            try:
                forwarded = {} if self.for_address is None else \
                    {"X-Forwarded-For": self.for_address}
                opened = connect(self.url, open_timeout=OPEN_TIMEOUT,
                                 additional_headers=forwarded,
                                 max_size=MAX_FRAME_BYTES * 4, ping_interval=PING_INTERVAL,
                                 ping_timeout=PING_INTERVAL, close_timeout=1.0)
            except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as exc:
                if not ever:
                    _log.info("no table server at %s: %s", self.url, exc)
                    self.failure = Message("table.unreachable", address=self.url)
                    self.opened.set()
                    return
                wait = min(BACKOFF_MOST, max(BACKOFF_FIRST, wait * 2))
                continue
            if ever:
                self.reconnections += 1
                self.tell(Message("table.line_back"))
            ever = True
            wait = 0.0
            with opened as ws:
                self._serve(ws)
            if self.table.token is None:  # never welcomed: nothing to come back to
                self.failure = self.failure or Message("table.unreachable", address=self.url)
                break
            if not self._closing.is_set():
                self.tell(Message("table.line_lost"))
        self.opened.set()

    def _greet(self, ws: ClientConnection) -> None:
        table = self.table
        if table.token is None:
            if self._greeted:  # dropped before the welcome: a second create or join
                raise ConnectionAbortedError  # could make a second table or seat
            self._greeted = True
            if self.kept_token is not None:  # no last seq: the table as it stands
                ws.send(encode(Hello(self.name, self.language,
                                     token=self.kept_token).to_json()))
            else:
                ws.send(encode(Hello(self.name, self.language).to_json()))
                if self.first is not None:
                    ws.send(encode(self.first.to_json()))
        else:
            table.resuming()
            ws.send(encode(Hello(self.name, self.language, token=table.token,
                                 last_seq=table.last_seq).to_json()))
        with self._lock:
            queued, self._queue = self._queue, []
            for message in queued:
                ws.send(encode(message.to_json()))
            self._ws = ws

    def _serve(self, ws: ClientConnection) -> None:
        try:
            self._greet(ws)
            self.opened.set()
            while not self._closing.is_set():
                try:
                    frame = ws.recv(timeout=RECV_POLL)
                except TimeoutError:
                    continue
                try:
                    message = parse_frame(frame)
                except ProtocolError:
                    _log.warning("the server sent a frame this game cannot read")
                    continue
                if not self.table.receive(message):
                    _log.warning("a stream message is missing: resuming from %s",
                                 self.table.last_seq)
                    break
        except (ConnectionClosed, OSError):
            self._take_rest(ws)
        finally:
            with self._lock:
                self._ws = None

    def _take_rest(self, ws: ClientConnection) -> None:
        """Read what the server sent before it closed the line: a server that refuses
        a connection (too many from one address) says why, then closes, maybe before
        the hello could go."""
        try:
            while True:
                self.table.receive(parse_frame(ws.recv(timeout=0)))
        except (ConnectionClosed, OSError, TimeoutError, ProtocolError):
            return


def wait_until(condition: Callable[[], bool], timeout: float, step: float = 0.02) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(step)
    return True


WELCOME_WAIT = 10.0
"""Seconds to wait for the server's welcome (or its refusal) once the line is open."""


def open_line(url: str, name: str, first: ClientMessage,
              wait: Callable[[Callable[[], bool], float], bool] = wait_until,
              language: str | None = None, for_address: str | None = None,
              kept_token: str | None = None) -> tuple[Line, RemoteTable]:
    """The line to ``url``, greeted (with ``first``, or back at a kept seat by its
    token): the server's welcome, its refusal, or the reason there is no server
    (``Line.failure``). ``language``: the player's, if not the game's;
    ``for_address``: the browser's the line speaks for (:class:`Line`)."""
    holder: list[Line] = []
    table = RemoteTable(lambda message: holder[0].send(message))
    line = Line(url, name, language or active_language(), table, first,
                for_address=for_address, kept_token=kept_token)
    holder.append(line)
    line.start()
    line.opened.wait(OPEN_TIMEOUT + 1)
    if line.failure is None:
        wait(lambda: table.seated or bool(table.errors), WELCOME_WAIT)
    return line, table
