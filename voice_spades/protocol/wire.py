"""The messages of protocol version 1, their limits, and the checks a frame goes through.

Every message is a JSON object with a ``"t"`` (type) field, sent as one WebSocket text
frame on :data:`WS_PATH`. :func:`parse_frame` turns a received frame into an object
(refusing one too big, too deep or not JSON) and :func:`read_client` turns a client's
object into one of the typed client messages below, refusing anything else with a
:class:`ProtocolError` whose message is the ``net.*`` error to send back. The client
builds what it sends with the same classes (:meth:`ClientMessage.to_json`), so the two
sides cannot disagree on a field's name.

>>> read_client(parse_frame('{"t":"join","code":"123456","watch":true}'))
Join(code='123456', seat=None, watch=True)
>>> read_client({"t": "act", "action": "play:QS", "at_seq": 4}).to_json()
{'t': 'act', 'action': 'play:QS', 'at_seq': 4}
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, ClassVar

from voice_spades.protocol.codec import JsonValue, ProtocolError, bad

VERSION = 1
"""The protocol version a hello names; a server refuses another (``net.version``)."""
WS_PATH = "/ws"
MAX_FRAME_BYTES = 16 * 1024
"""Frames above this are refused (close code :data:`CLOSE_TOO_BIG`). The biggest the
server sends, a state message with a full view after a trick of 6 players, is about
3 KiB, so 16 KiB leaves room without letting a client make the server parse much."""
MAX_DEPTH = 8
"""JSON nesting deeper than this is refused before it is parsed."""
RATE_PER_SECOND = 20
RATE_BURST = 40
"""A connection may send :data:`RATE_BURST` messages at once, then
:data:`RATE_PER_SECOND` a second (a token bucket); more gets ``net.rate_limited``."""
RATE_WINDOW = 5.0
RATE_CLOSE = 200
"""More than this many messages in :data:`RATE_WINDOW` seconds closes the connection
(:data:`CLOSE_POLICY`): 1,000 a second is cut within its first 0.2 s."""
CODE_TRIES = 5
CODE_WINDOW = 60.0
"""At most :data:`CODE_TRIES` joins with a wrong code per client address in
:data:`CODE_WINDOW` seconds; then ``net.too_many_tries`` for that long. With a
million codes that is one guess in 200,000 per address an hour."""
CODE_DIGITS = 6
NAME_MAX = 40
CHAT_MAX = 200
CHAT_PER_WINDOW = 5
CHAT_WINDOW = 10.0
GRACE_DEFAULT = 30
GRACE_MAX = 3600
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
LANGUAGES = ("en", "it", "fr")
LEVELS = ("easy", "medium", "hard")
SEAT_KINDS = ("human", "bot", "open")
PRESENCE_STATES = ("joined", "left", "dropped", "back", "bot_standing_in", "took_seat",
                   "watching", "waiting")
STREAM_TYPES = ("table", "state", "presence", "chat")
"""Server messages that carry a ``seq`` (the viewer's stream)."""
SERVER_TYPES = ("welcome", "created", "error", "pong", "caught_up", *STREAM_TYPES)


def parse_frame(frame: str | bytes) -> dict[str, JsonValue]:
    """A received frame as a JSON object with a text ``"t"``.

    Raises ProtocolError: ``net.too_big`` above :data:`MAX_FRAME_BYTES`,
    ``net.bad_message`` for anything not a JSON object within :data:`MAX_DEPTH`."""
    size = len(frame) if isinstance(frame, bytes) else len(frame.encode("utf-8", "replace"))
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("net.too_big", limit=MAX_FRAME_BYTES)
    if isinstance(frame, bytes):
        try:
            frame = frame.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise bad("utf-8") from exc
    if _depth(frame) > MAX_DEPTH:
        raise bad("depth")
    try:
        data = json.loads(frame)
    except ValueError as exc:
        raise bad("json") from exc
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise bad("t")
    return data


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (JSON is not parsed yet)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def encode(message: dict[str, JsonValue]) -> str:
    """A message as the compact JSON text of one frame."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


# ----- client -> server -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ClientMessage:
    """Base of the messages a client sends; ``to_json`` is the wire form."""

    t: ClassVar[str] = ""

    def to_json(self) -> dict[str, JsonValue]:
        """This message as the object to send (fields left at None are omitted)."""
        out: dict[str, JsonValue] = {"t": self.t}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is not None and value is not False:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Hello(ClientMessage):
    """First message of every connection; a token resumes a seat or watcher place."""

    t: ClassVar[str] = "hello"
    name: str
    lang: str
    v: int = VERSION
    token: str | None = None
    last_seq: int | None = None


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a new table: a ``human`` (the creator at seat 0, or a friend), a
    ``bot`` at ``level``, or ``open`` (a friend may sit; a bot plays it from the start)."""

    kind: str
    level: str | None = None


@dataclass(frozen=True, slots=True)
class Create(ClientMessage):
    """Create a table: rules as ``options_to_dict``, one :class:`SeatSpec` per seat."""

    t: ClassVar[str] = "create"
    rules: dict[str, JsonValue]
    seats: tuple[SeatSpec, ...]
    grace: int = GRACE_DEFAULT

    def to_json(self) -> dict[str, JsonValue]:
        """The wire form, seats as objects."""
        seats = [{k: v for k, v in dataclasses.asdict(s).items() if v is not None}
                 for s in self.seats]
        return {"t": self.t, "rules": self.rules, "seats": seats, "grace": self.grace}


@dataclass(frozen=True, slots=True)
class Join(ClientMessage):
    """Sit at the table with ``code`` (at ``seat``, or the first free one) or watch it."""

    t: ClassVar[str] = "join"
    code: str
    seat: int | None = None
    watch: bool = False


@dataclass(frozen=True, slots=True)
class SetSeat(ClientMessage):
    """Host only, before the start or between hands: make a seat a bot or open."""

    t: ClassVar[str] = "seat"
    seat: int
    kind: str
    level: str | None = None


@dataclass(frozen=True, slots=True)
class Start(ClientMessage):
    """Host only: start the match; open seats become bots."""

    t: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Act(ClientMessage):
    """An engine action in its text form; ``at_seq`` is the last stream seq seen."""

    t: ClassVar[str] = "act"
    action: str
    at_seq: int


@dataclass(frozen=True, slots=True)
class Chat(ClientMessage):
    """A line of chat to the table."""

    t: ClassVar[str] = "chat"
    text: str


@dataclass(frozen=True, slots=True)
class Leave(ClientMessage):
    """Leave the table for good (the seat goes to a bot)."""

    t: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Ping(ClientMessage):
    """Answered by ``pong``, outside the stream."""

    t: ClassVar[str] = "ping"


def read_client(data: dict[str, JsonValue]) -> ClientMessage:
    """The typed client message of a parsed frame; raises ProtocolError
    (``net.unknown_type``, ``net.bad_message``, ``net.chat_too_long``)."""
    kind = data.get("t")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise ProtocolError("net.unknown_type", type=str(kind)[:20])
    message: ClientMessage = reader(_Fields(data))
    return message


class _Fields:
    """Typed access to a message's fields, each refusal naming the field."""

    def __init__(self, data: dict[str, JsonValue]) -> None:
        self.data = data

    def text(self, name: str, limit: int, *, optional: bool = False) -> Any:
        """Field ``name``: text of at most ``limit`` characters (None if optional)."""
        value = self.data.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, str) or len(value) > limit:
            raise bad(name)
        return value

    def number(self, name: str, low: int, high: int, *, optional: bool = False) -> Any:
        """Field ``name``: a whole number from ``low`` to ``high`` (None if optional)."""
        value = self.data.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise bad(name)
        return value

    def choice(self, name: str, choices: tuple[str, ...], *, optional: bool = False) -> Any:
        """Field ``name``: one of ``choices`` (None if optional)."""
        value = self.data.get(name)
        if value is None and optional:
            return None
        if value not in choices:
            raise bad(name)
        return value


_SEQ_MAX = 1 << 40


def _hello(f: _Fields) -> Hello:
    name = f.text("name", NAME_MAX)
    if not name.strip() or not name.isprintable():
        raise bad("name")
    return Hello(name=name.strip(), lang=f.choice("lang", LANGUAGES),
                 v=f.number("v", 0, 1 << 20), token=f.text("token", 100, optional=True),
                 last_seq=f.number("last_seq", 0, _SEQ_MAX, optional=True))


def _create(f: _Fields) -> Create:
    rules, seats = f.data.get("rules"), f.data.get("seats")
    if not isinstance(rules, dict):
        raise bad("rules")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 6:
        raise bad("seats")
    specs = []
    for seat in seats:
        if not isinstance(seat, dict):
            raise bad("seats")
        spec = _Fields(seat)
        specs.append(SeatSpec(spec.choice("kind", SEAT_KINDS),
                              spec.choice("level", LEVELS, optional=True)))
    grace = f.number("grace", 0, GRACE_MAX, optional=True)
    return Create(rules, tuple(specs), GRACE_DEFAULT if grace is None else grace)


def _join(f: _Fields) -> Join:
    code = f.text("code", CODE_DIGITS)
    if len(code) != CODE_DIGITS or not code.isascii() or not code.isdigit():
        raise bad("code")
    watch = f.data.get("watch", False)
    if not isinstance(watch, bool):
        raise bad("watch")
    return Join(code, f.number("seat", 0, 5, optional=True), watch)


def _seat(f: _Fields) -> SetSeat:
    return SetSeat(f.number("seat", 0, 5), f.choice("kind", ("bot", "open")),
                   f.choice("level", LEVELS, optional=True))


def _act(f: _Fields) -> Act:
    return Act(f.text("action", 60), f.number("at_seq", 0, _SEQ_MAX))


def _chat(f: _Fields) -> Chat:
    text = f.data.get("text")
    if not isinstance(text, str):
        raise bad("text")
    if len(text) > CHAT_MAX:
        raise ProtocolError("net.chat_too_long", limit=CHAT_MAX)
    text = "".join(c if c.isprintable() else " " for c in text).strip()
    if not text:
        raise bad("text")
    return Chat(text)


_READERS: dict[str, Any] = {
    "hello": _hello, "create": _create, "join": _join, "seat": _seat,
    "start": lambda f: Start(), "act": _act, "chat": _chat, "leave": lambda f: Leave(),
    "ping": lambda f: Ping(),
}


# ----- server -> client -----------------------------------------------------------------
def error(message_id: str, **fields: JsonValue) -> dict[str, JsonValue]:
    """An error to one client: a catalog id (``net.*``) and its fields."""
    return {"t": "error", "id": message_id, "fields": fields}


def welcome(code: str, seat: int | None, token: str, host: bool, seq: int,
            watcher: int | None = None) -> dict[str, JsonValue]:
    """The answer to a join, a create or a resumed hello (``watcher``: a watcher's
    number, which the table's presence messages about that watcher carry)."""
    message: dict[str, JsonValue] = {"t": "welcome", "v": VERSION, "code": code,
                                     "seat": seat, "token": token, "host": host, "seq": seq}
    if watcher is not None:
        message["watcher"] = watcher
    return message


def is_stream(message: dict[str, JsonValue]) -> bool:
    """Whether a server message belongs to the viewer's numbered stream."""
    return message.get("t") in STREAM_TYPES


__all__ = ["Act", "Chat", "ClientMessage", "Create", "Hello", "Join", "Leave", "Ping",
           "ProtocolError", "SeatSpec", "SetSeat", "Start"]
