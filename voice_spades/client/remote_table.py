"""A table on a server, mirrored from this viewer's stream: the table the session plays
at a shared table.

The connection thread hands every message the server sends to :meth:`RemoteTable.receive`;
the session thread plays the states one by one (:meth:`RemoteTable.advance`, paced like
the bots of a local game) and hears the rest as notes (presence, chat, refusals). The
server decides everything; this side only keeps the latest view, the public history of
the hand finished last (for the review keys) and the stream's sequence number, and sends
the player's intents.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from voice_spades.client.away import AwaySummary
from voice_spades.engine import (
    Action,
    Bid,
    BidMade,
    Event,
    HandScored,
    HandStarted,
    MatchOver,
    Outcome,
    PlayerView,
    RuleOptions,
    Seat,
    Trick,
    TrickWon,
    action_to_text,
    match_outcome,
    options_from_dict,
)
from voice_spades.messages import Message
from voice_spades.protocol.codec import (
    JsonValue,
    ProtocolError,
    decode_event,
    decode_field,
    decode_view,
)
from voice_spades.protocol.redact import WATCHER_SEAT
from voice_spades.protocol.wire import (
    CHAT_MAX,
    CHAT_PER_WINDOW,
    CHAT_WINDOW,
    Act,
    Chat,
    ClientMessage,
)
from voice_spades.storage import SaveStore
from voice_spades.table import Note, PreviousHand

NO_SEAT = -1
"""The seat of a watcher's view: no seat, so no turn and no cards."""
Send = Callable[[ClientMessage], None]
"""Sends one message to the server (the connection queues it while the line is down)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as the table message describes it."""

    seat: int
    name: str
    kind: str
    level: str | None
    connected: bool
    standing_in: bool


class RemoteTable:
    """A :class:`~voice_spades.table.Table` whose match is on a server.

    Thread use: :meth:`receive` from the connection's thread; everything else from the
    session's thread. ``wake`` is called after news arrives (the session's inbox, so a
    waiting session plays it at once)."""

    def __init__(self, send: Send, wake: Callable[[], None] | None = None) -> None:
        self._send = send
        self._wake = wake or (lambda: None)
        self._lock = threading.Lock()
        self._states: deque[tuple[tuple[Event, ...], PlayerView | None]] = deque()
        self._notes: list[Note] = []
        self._view: PlayerView | None = None
        self._over: MatchOver | None = None
        self._hand_bids: list[Bid | None] = []
        self._hand_tricks: list[Trick] = []
        self._previous: PreviousHand | None = None
        self._away: AwaySummary | None = None
        self.ready = threading.Event()
        """Set once the table's rules and a first view are known."""
        self.last_seq = 0
        """The last stream message taken (the connection resumes after it)."""
        self.code: str | None = None
        self.token: str | None = None
        self.my_seat: int | None = None
        """The player's seat; None when watching."""
        self.my_watcher: int | None = None
        """The watcher number the welcome gave; None at a seat."""
        self.host = False
        self._rules: RuleOptions | None = None
        self.started = False
        self.seats: tuple[SeatInfo, ...] = ()
        self.gaps = 0
        """Stream messages found missing (the connection then resumes from :attr:`last_seq`)."""
        self.duplicates = 0
        """Stream messages received twice and dropped."""
        self.catch_ups = 0
        """Times the server said the stream was caught up after a resume."""
        self.errors: list[Message] = []
        """Every error the server sent, in order (the host and join commands read them)."""
        self._chats: list[float] = []
        """When this player's recent chat messages were sent."""
        self._seed = secrets.randbits(31)  # the hint's sampling: the server's seed stays there

    # ----- the Table, for the session thread ---------------------------------------
    @property
    def seat(self) -> int:
        """The player's seat (a watcher hears the table from South's place)."""
        return WATCHER_SEAT if self.my_seat is None else self.my_seat

    @property
    def rules(self) -> RuleOptions:
        """The table's rules (known from its first table message)."""
        if self._rules is None:
            raise RuntimeError("the table has sent no rules yet")
        return self._rules

    @property
    def watching(self) -> bool:
        """True when this viewer watches the table."""
        return self.token is not None and self.my_seat is None

    @property
    def seated(self) -> bool:
        """True once the server has welcomed this viewer and described the table."""
        return self.token is not None and self._rules is not None

    @property
    def seed(self) -> int:
        """A number of this client's own for the hint's sampling."""
        return self._seed

    @property
    def to_act(self) -> int | None:
        """The seat to act in the view played last."""
        return None if self._over is not None else self.view().to_act

    @property
    def is_over(self) -> bool:
        """True once the match-over event has been played."""
        return self._over is not None

    def view(self) -> PlayerView:
        """The view after the last state played (a watcher's sits nowhere, so it is
        never the watcher's turn)."""
        if self._view is None:
            raise RuntimeError("the table has sent no view yet")
        return replace(self._view, seat=NO_SEAT) if self.watching else self._view

    def refusal(self, action: Action) -> Message | None:
        """None: the server says why an action is refused (``net.illegal`` with the
        engine's reason, worded here in the player's language), since the rules need
        more than one seat's view to give their reason."""
        return None

    def act(self, action: Action) -> list[Event]:
        """Send the player's action; its events come back in the stream."""
        self._send(Act(action_to_text(action), self.last_seq))
        return []

    def chat(self, text: str) -> Message | None:
        """Send ``text`` to the table, within the protocol's limits (the server checks
        them too): at most :data:`CHAT_MAX` characters, :data:`CHAT_PER_WINDOW` messages
        in :data:`CHAT_WINDOW` seconds."""
        if len(text) > CHAT_MAX:
            return Message("net.chat_too_long", limit=CHAT_MAX)
        now = time.monotonic()
        self._chats = [at for at in self._chats if now - at < CHAT_WINDOW]
        if len(self._chats) >= CHAT_PER_WINDOW:
            return Message("net.chat_too_fast")
        self._chats.append(now)
        self._send(Chat(text))
        return None

    def pending(self) -> bool:
        """True while received states wait to be played."""
        with self._lock:
            return bool(self._states)

    def advance(self) -> list[Event]:
        """Play the next received state: its view becomes the table's; its events."""
        with self._lock:
            if not self._states:
                return []
            events, view = self._states.popleft()
        for event in events:
            self._follow(event)
        if view is not None:
            self._view = view
        return list(events)

    def fresh(self) -> bool:
        """True when the first state waiting to be played deals the match's first hand
        (the player sat down before the start), False when it joins a match under way."""
        with self._lock:
            return bool(self._states) and bool(self._states[0][0])

    def notes(self) -> list[Note]:
        """Presence, chat, refusals and catch-ups received since the last call."""
        with self._lock:
            notes, self._notes = self._notes, []
        return notes

    def opening_events(self) -> list[Event]:
        """The first received state's events (the deal), played now."""
        return self.advance()

    def previous(self) -> PreviousHand | None:
        """The hand finished last, rebuilt from its public events."""
        return self._previous

    def outcome(self) -> Outcome | None:
        """How the match ended, from its last scores (as the engine decides it)."""
        over = self._over
        if over is None:
            return None
        rules, limit = self.rules, self.rules.hand_limit
        return match_outcome(over.scores, rules.target, rules.losing_score,
                             at_hand_limit=limit is not None and over.hands_played >= limit)

    def save(self, store: SaveStore, settings: Mapping[str, object]) -> None:
        """The server keeps the match: nothing is saved here."""

    def _follow(self, event: Event) -> None:
        """Keep the public history of this hand, for the review keys."""
        if isinstance(event, HandStarted):
            self._hand_bids, self._hand_tricks = [None] * self.rules.players, []
        elif isinstance(event, BidMade):
            if event.seat < len(self._hand_bids):
                self._hand_bids[event.seat] = event.bid
        elif isinstance(event, TrickWon):
            self._hand_tricks.append(event.trick)
        elif isinstance(event, HandScored):
            self._previous = PreviousHand(event.hand_number, tuple(self._hand_bids),
                                          tuple(self._hand_tricks), event)
        elif isinstance(event, MatchOver):
            self._over = event

    def tell(self, message: Message) -> None:
        """Say ``message`` at the table (the line's own news: lost, back). Thread-safe."""
        with self._lock:
            self._notes.append(Note(message))
        self._wake()

    # ----- what the server sends, from the connection's thread -------------------------
    def receive(self, message: dict[str, JsonValue]) -> bool:
        """Take one message from the server. Returns False when a stream message is
        missing before it (the caller resumes the stream from :attr:`last_seq`)."""
        kind = message.get("t")
        if kind == "welcome":
            self._welcome(message)
            return True
        if kind == "caught_up":
            self._caught_up()
            return True
        if kind == "error":
            self._error(message)
            return True
        seq = message.get("seq")
        if not isinstance(seq, int) or kind not in ("table", "state", "presence", "chat"):
            return True  # pong, created: nothing to keep
        with self._lock:
            if seq <= self.last_seq:
                self.duplicates += 1
                return True
            if self.last_seq and seq != self.last_seq + 1:  # a newcomer starts mid-stream
                self.gaps += 1
                return False
            self.last_seq = seq
            self._take(kind, message)
        self._wake()
        return True

    def resuming(self) -> None:
        """The line came back and the stream resumes: what is missed is summed up, not
        narrated one event at a time."""
        with self._lock:
            self._away = AwaySummary()

    def _welcome(self, message: dict[str, JsonValue]) -> None:
        token, code, seat = message.get("token"), message.get("code"), message.get("seat")
        self.token = token if isinstance(token, str) else self.token
        self.code = code if isinstance(code, str) else self.code
        self.my_seat = seat if isinstance(seat, int) else None
        watcher = message.get("watcher")
        self.my_watcher = watcher if isinstance(watcher, int) and self.my_seat is None else None
        self.host = message.get("host") is True

    def _caught_up(self) -> None:
        with self._lock:
            self.catch_ups += 1
            away, self._away = self._away, None
            if away is not None and not away.empty:
                self._notes.extend(away.notes())
                if away.view is not None:  # the missed states become one step to the present
                    self._states.append((away.public_events(), away.view))
        self._wake()

    def _error(self, message: dict[str, JsonValue]) -> None:
        raw_id, raw_fields = message.get("id"), message.get("fields")
        fields: dict[str, object] = {}
        if isinstance(raw_fields, dict):
            for name, raw in raw_fields.items():
                try:
                    fields[name] = decode_field(raw)
                except ProtocolError:
                    continue
        error = Message(raw_id if isinstance(raw_id, str) and raw_id.startswith("net.")
                        else "net.bad_message", **fields)
        with self._lock:
            repeated = error.id in SAID_ONCE and any(e.id == error.id for e in self.errors)
            self.errors.append(error)
            if not repeated:  # the line tries again every second: said the first time
                self._notes.append(Note(error))
        self._wake()

    def _take(self, kind: object, message: dict[str, JsonValue]) -> None:
        """One stream message in order (the lock is held)."""
        if kind == "table":
            self._table(message)
            if self._view is not None and self._rules is not None:
                self.ready.set()  # a rejoin's catch-up may bring the state first
        elif kind == "state":
            events = tuple(decode_event(e) for e in _items(message.get("events")))
            view = decode_view(message.get("view"))
            if self._away is not None:
                self._away.missed_state(events, view)
                for event in events:  # the review keys still see every hand
                    self._follow(event)
            else:
                self._states.append((events, view))
            if self._view is None:
                self._view = view  # the session is built on it before the first state plays
            if self._rules is not None:
                self.ready.set()
        elif kind == "presence" and message.get("seat") == self.my_seat is not None \
                and message.get("state") in ("joined", "took_seat", "back"):
            pass  # the player's own arrival: they know
        elif kind == "presence" and message.get("seat") is None and \
                message.get("watcher") == self.my_watcher is not None and \
                message.get("state") in ("watching", "back"):
            pass  # this watcher's own arrival
        elif kind in ("presence", "chat"):
            note = _note(kind, message)
            if note is not None:
                if self._away is not None:
                    self._away.missed_note(note)
                else:
                    self._notes.append(note)

    def _table(self, message: dict[str, JsonValue]) -> None:
        rules = message.get("rules")
        if isinstance(rules, dict):
            self._rules = options_from_dict(dict(rules))
        self.started = message.get("started") is True
        self.seats = tuple(_seat_info(raw) for raw in _items(message.get("seats"))
                           if isinstance(raw, dict))


def _items(raw: JsonValue) -> list[JsonValue]:
    if not isinstance(raw, list):
        raise ProtocolError("net.bad_message")
    return raw


def _seat_info(raw: dict[str, JsonValue]) -> SeatInfo:
    seat, name, kind, level = raw.get("seat"), raw.get("name"), raw.get("kind"), raw.get("level")
    return SeatInfo(seat if isinstance(seat, int) else -1, name if isinstance(name, str) else "",
                    kind if isinstance(kind, str) else "open",
                    level if isinstance(level, str) else None,
                    raw.get("connected") is True, raw.get("standing_in") is True)


PRESENCE_IDS = {state: f"table.presence.{state}" for state in
                ("joined", "left", "dropped", "back", "bot_standing_in", "took_seat", "watching")}
"""The catalog line for each presence state."""
SAID_ONCE = frozenset({"net.too_many_connections"})
"""Refusals of the line itself, which each try to come back meets again: said once."""
WATCHER_IDS = {"watching": "table.presence.watcher", "dropped": "table.presence.watcher_dropped",
               "back": "table.presence.watcher_back", "left": "table.presence.watcher_left"}
"""The catalog line for each presence state of a watcher."""


def _note(kind: object, message: dict[str, JsonValue]) -> Note | None:
    name = message.get("name")
    seat = message.get("seat")
    who = name if isinstance(name, str) else ""
    where = Seat(seat) if isinstance(seat, int) else None
    if kind == "chat":
        text = message.get("text")
        if not isinstance(text, str):
            return None
        return Note(Message("table.chat" if where is not None else "table.chat_watcher",
                            name=who, seat=where, text=text), chat=True)
    state = message.get("state")
    if not isinstance(state, str) or state not in PRESENCE_IDS:
        return None
    if where is None:
        watcher_id = WATCHER_IDS.get(state)
        return None if watcher_id is None else Note(Message(watcher_id, name=who))
    return Note(Message(PRESENCE_IDS[state], name=who, seat=where))


__all__ = ["RemoteTable", "SeatInfo"]
