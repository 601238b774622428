"""A small protocol-level client for the server tests: it speaks protocol version 1
over a real WebSocket (``websockets``' sync client), keeps its stream's last seq and its
token, and checks as it reads that the stream has no gap and no duplicate."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from voice_spades.protocol.wire import Act, ClientMessage, Hello


class StreamBroken(AssertionError):
    """A stream message came with a seq that is not the next one."""


class WireClient:
    """One player (or watcher) at a server; see the module's text."""

    def __init__(self, address: str, name: str = "Ada", lang: str = "en") -> None:
        self.address, self.name, self.lang = address, name, lang
        self.ws: ClientConnection | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.code: str | None = None
        self.last_seq = 0
        self.stream: list[dict[str, Any]] = []
        self.others: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.state_view: dict[str, Any] | None = None
        """The view of the last state message (``view`` may be marked as acted on)."""
        self.first_seq = 0
        """The seq this viewer's stream had when this client first came in."""

    # ----- the line ---------------------------------------------------------------------
    def connect(self, timeout: float = 5.0, resume: bool = False) -> WireClient:
        """Open the line and say hello (with the token and last seq when resuming)."""
        self.ws = connect(self.address, open_timeout=timeout, max_size=2**20).__enter__()
        self.send(Hello(self.name, self.lang, token=self.token if resume else None,
                        last_seq=self.last_seq if resume else None))
        return self

    def reconnect(self, within: float = 5.0) -> float:
        """Come back by token and last seq, retrying (0.1 s up to 1 s apart) until the
        server answers; the seconds it took. Reads through ``caught_up``."""
        start = time.monotonic()
        delay = 0.1
        while True:
            try:
                self.connect(timeout=1.0, resume=True)
                self.until(lambda m: m["t"] == "caught_up", timeout=within)
                return time.monotonic() - start
            except (OSError, WebSocketException, TimeoutError):
                self.close_quietly()
                if time.monotonic() - start > within:
                    raise
                time.sleep(delay)
                delay = min(1.0, delay * 2)

    def send(self, message: ClientMessage | dict[str, Any]) -> None:
        assert self.ws is not None
        data = message.to_json() if isinstance(message, ClientMessage) else message
        self.ws.send(json.dumps(data))

    def send_raw(self, frame: str | bytes) -> None:
        assert self.ws is not None
        self.ws.send(frame)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def close_quietly(self) -> None:
        """Forget a line that is already gone."""
        if self.ws is not None:
            with contextlib.suppress(OSError):
                self.ws.socket.close()
            self.ws = None

    def cut(self) -> None:
        """Drop the line abruptly (no closing handshake), as a lost connection does."""
        if self.ws is not None:
            self.ws.socket.close()
            self.ws = None

    # ----- reading ----------------------------------------------------------------------
    def read(self, timeout: float) -> dict[str, Any]:
        """The next message (stream messages checked and recorded)."""
        assert self.ws is not None
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if "seq" in message and message["t"] in ("table", "state", "presence", "chat"):
            if message["seq"] != self.last_seq + 1:
                raise StreamBroken(f"{self.name}: seq {message['seq']} after {self.last_seq}")
            self.last_seq = message["seq"]
            self.stream.append(message)
            if message["t"] == "state":
                self.view = self.state_view = message["view"]
        else:
            self.others.append(message)
            if message["t"] == "error":  # refused: the last state's choices stand
                self.view = self.state_view
            if message["t"] == "welcome":
                self.token, self.seat, self.code = message["token"], message["seat"], \
                    message["code"]
                if not self.stream and not self.first_seq:  # a newcomer starts where told
                    self.last_seq = self.first_seq = message["seq"]
        return message

    def until(self, done: Any, timeout: float = 5.0) -> dict[str, Any]:
        """Read until ``done(message)``; TimeoutError past ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: nothing matched in {timeout} s")
            message = self.read(left)
            if done(message):
                return message

    def drain(self, quiet: float = 0.05) -> None:
        """Read everything that comes until ``quiet`` seconds pass with nothing."""
        try:
            while True:
                self.read(quiet)
        except TimeoutError:
            pass

    # ----- playing ----------------------------------------------------------------------
    @property
    def my_turn(self) -> bool:
        view = self.view
        return bool(view and view["legal"] and view["to_act"] == self.seat)

    def act(self, action: str | None = None) -> None:
        """Send ``action`` (default: the first legal one) at the seq last seen."""
        assert self.view is not None
        self.send(Act(action or self.view["legal"][0], self.last_seq))


def play(clients: list[WireClient], done: Any, timeout: float = 20.0,
         choose: Any = None) -> None:
    """Read every client's messages and act on each one's turn (``choose(view)`` gives
    the action text; default the first legal one) until ``done()``; TimeoutError past
    ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            raise TimeoutError(f"play did not finish in {timeout} s")
        for client in clients:
            client.drain(0.005)
            if client.my_turn and not done():
                assert client.view is not None
                client.act(choose(client.view) if choose else None)
                client.view = {**client.view, "legal": []}  # wait for the next state


def finished(client: WireClient) -> bool:
    """Whether the client has seen the match end."""
    return bool(client.view and client.view["phase"] == "over") or any(
        e["type"] == "MatchOver" for m in client.stream[-3:] if m["t"] == "state"
        for e in m["events"])
