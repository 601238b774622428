"""One table as the server holds it: the match, the seats, the log, and every viewer's
stream, all rebuilt by replaying the log.

No I/O and no clock: :meth:`TableCore.apply` takes one log entry (already stored) and
returns the stream messages it causes, each for one viewer, numbered; the checks
(:meth:`TableCore.act_entry` and the seating checks) say whether an entry may be made,
raising :class:`ProtocolError` with the ``net.*`` error. The hub
(:mod:`voice_spades.server.hub`) stores, applies and sends; the leak scan of the tests
drives this class directly with instant bots.

The seed and the match's deck never leave this object: a viewer gets its view and the
events as :func:`~voice_spades.protocol.redact.events_for` cuts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voice_spades.engine import (
    Event,
    HandStarted,
    Match,
    Seat,
    SpadesError,
    Trick,
    action_from_text,
    options_from_dict,
    options_to_dict,
)
from voice_spades.protocol.codec import (
    PRIVATE_FIELDS,
    PUBLIC_FIELDS,
    JsonValue,
    ProtocolError,
    encode_event,
    encode_message,
    encode_value,
    encode_view,
)
from voice_spades.protocol.redact import PRIVATE_EVENTS, event_for, view_for
from voice_spades.protocol.wire import encode
from voice_spades.server.store import Entry
from voice_spades.server.streams import (
    BUFFER,
    Stream,
    seat_viewer,
    viewer_seat,
    viewer_watcher,
    watch_viewer,
)

_PUBLIC_BUT_TRICKS = tuple(name for name in PUBLIC_FIELDS if name != "completed")

DEFAULT_LEVEL = "medium"
"""The level of a bot that takes an open seat, when the table names no bot level."""

Outgoing = tuple[str, int, str]
"""A stream message for one viewer: (viewer key, seq, frame text)."""


@dataclass(slots=True)
class SeatState:
    """Who holds a seat: a human (by name), a bot at a level, or nobody yet."""

    kind: str = "open"
    name: str = ""
    level: str | None = None
    connected: bool = False
    standing_in: bool = False
    """A bot plays this human's seat (the player dropped and the grace period passed)."""
    holder: str = ""
    """Which token holds a human's seat: the start of its SHA-256 (never sent)."""
    via: str = ""
    """The server process the player last came in through, with a shared store."""

    def to_json(self, seat: int) -> dict[str, Any]:
        """The seat as the ``table`` message lists it."""
        return {"seat": seat, "name": self.name, "kind": self.kind, "level": self.level,
                "connected": self.connected, "standing_in": self.standing_in}


class TableCore:
    """A table rebuilt from its log; see the module's text."""

    def __init__(self, code: str, rules: dict[str, Any], seed: int, grace: int,
                 keep: int | None = BUFFER) -> None:
        self.code = code
        self.keep = keep
        self.host = ""
        """The host's token (the start of its SHA-256), from the creator's entry."""
        self.rules = options_from_dict(rules)
        self.rules_json = options_to_dict(self.rules)
        self.grace = grace
        self.match = Match(self.rules, seed)
        self.seats = [SeatState() for _ in range(self.rules.players)]
        self.started = False
        self.log: list[Entry] = []
        self.streams: dict[str, Stream] = {
            seat_viewer(seat): Stream(keep) for seat in range(self.rules.players)}
        self.watchers = 0
        self.waiting: dict[int, tuple[str, str, str]] = {}
        """Bot seats a friend takes over at the next hand: seat -> (name, token holder,
        the process the friend came through)."""
        self.watcher_names: dict[str, str] = {}
        """Each watcher's name, by viewer key, while it watches (connected or not)."""
        self.watchers_away: set[str] = set()
        """Watchers whose line dropped (their drop was said; their return will be)."""
        self.watcher_via: dict[str, str] = {}
        """The process each present watcher came through, when the store is shared."""
        self.actions_this_hand = 0
        self.default_level = DEFAULT_LEVEL
        self._public_text = ""
        self._tricks: dict[Trick, JsonValue] = {}
        """Each finished trick of the hand, encoded once (the view lists them all)."""
        self._event_texts: list[str | None] = []
        self._shared_at: tuple[int, int] = (-1, 0)
        self._no_events: list[Event] = []

    @classmethod
    def rebuild(cls, code: str, rules: dict[str, Any], seed: int, grace: int,
                entries: list[Entry], keep: int | None = BUFFER) -> TableCore:
        """The table its stored log describes (``keep``: messages kept per viewer;
        None keeps all, to resend from any seq)."""
        table = cls(code, rules, seed, grace, keep)
        for entry in entries:
            table.apply(entry)
        return table

    # ----- queries ------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the match is over."""
        return self.match.is_over

    @property
    def between_hands(self) -> bool:
        """Before the start, or before the current hand's first action."""
        return not self.started or self.actions_this_hand == 0

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot acts for ``seat`` now."""
        state = self.seats[seat]
        return state.kind == "bot" or (state.kind == "human" and state.standing_in)

    def bot_to_act(self) -> int | None:
        """The seat a bot must act for now, or None."""
        if not self.started or self.over:
            return None
        seat = self.match.to_act
        return seat if seat is not None and self.bot_plays(seat) else None

    def humans_present(self) -> bool:
        """Whether any human at the table is connected."""
        return any(s.kind == "human" and s.connected for s in self.seats)

    def free_seat(self) -> int | None:
        """The first open seat, or None."""
        return next((i for i, s in enumerate(self.seats) if s.kind == "open"), None)

    # ----- checks -------------------------------------------------------------------
    def act_entry(self, viewer: str, text: str, at_seq: int, *, bot: bool = False) -> Entry:
        """The log entry for ``viewer``'s action ``text``, or ProtocolError: a watcher
        (``net.watcher_cannot_act``), before the start, after the end, another seat's
        turn, an action on a state the viewer had not seen (``net.stale``), or one the
        rules refuse (``net.illegal`` with the engine's reason)."""
        seat = viewer_seat(viewer)
        if seat is None:
            raise ProtocolError("net.watcher_cannot_act")
        if not self.started:
            raise ProtocolError("net.not_started")
        if self.over:
            raise ProtocolError("net.over")
        to_act = self.match.to_act
        if to_act != seat or self.bot_plays(seat) != bot:
            raise ProtocolError("net.not_your_turn", turn=Seat(to_act or 0))
        if at_seq < self.streams[viewer].last_state:
            raise ProtocolError("net.stale")
        try:
            action = action_from_text(text)
        except SpadesError as exc:
            raise ProtocolError("net.bad_message", what="action") from exc
        refusal = self.match.refusal(action, seat)
        if refusal is not None:
            raise ProtocolError("net.illegal", reason=refusal)
        return {"k": "act", "seat": seat, "action": text}

    def bot_entry(self, seat: int, action_text: str) -> Entry:
        """The log entry of a bot's action for ``seat`` (checked like any action)."""
        viewer = seat_viewer(seat)
        return self.act_entry(viewer, action_text, self.streams[viewer].seq, bot=True)

    # ----- applying the log ---------------------------------------------------------
    def apply(self, entry: Entry) -> list[Outgoing]:
        """Apply one stored log entry; the stream messages it causes, in order."""
        self.log.append(entry)
        kind = entry["k"]
        out: list[Outgoing] = []
        if kind == "seat":
            self.seats[entry["seat"]] = SeatState(entry["kind"], entry.get("name") or "",
                                                  entry.get("level"))
            if entry["kind"] == "bot" and entry.get("level") and self.default_level == \
                    DEFAULT_LEVEL and not self.started:
                self.default_level = entry["level"]
            self._to_all(out, self._table_message)
        elif kind == "start":
            self.started = True
            for state in self.seats:
                if state.kind == "open":
                    state.kind, state.level = "bot", self.default_level
            self._to_all(out, self._table_message)
            opening = self.match.opening_events()
            self._to_all(out, lambda viewer: self._state(viewer, opening))
        elif kind == "act":
            events = self.match.apply(action_from_text(entry["action"]))
            self.actions_this_hand += 1
            if any(isinstance(e, HandStarted) for e in events):
                self.actions_this_hand = 0
            self._to_all(out, lambda viewer: self._state(viewer, events))
        elif kind == "presence":
            self._presence(entry, out)
        elif kind == "chat":
            message = {"t": "chat", "seat": entry["seat"], "name": entry["name"],
                       "text": entry["text"]}
            self._to_all(out, lambda viewer: dict(message))
        else:
            raise ValueError(f"unknown log entry {kind!r}")
        return out

    def _presence(self, entry: Entry, out: list[Outgoing]) -> None:
        state_name, seat, name = entry["state"], entry.get("seat"), entry.get("name", "")
        new_viewer: str | None = None
        message: dict[str, Any] = {"t": "presence", "seat": seat, "name": name,
                                   "state": state_name}
        if seat is None:
            given = entry.get("viewer")  # which watcher dropped, came back or left
            watcher = given if isinstance(given, str) else ""
            if state_name == "watching":
                watcher = new_viewer = watch_viewer(self.watchers)
                self.watchers += 1
                self.streams[new_viewer] = Stream(self.keep)
                self.watcher_names[new_viewer] = name
            elif state_name == "dropped":
                self.watchers_away.add(watcher)
            elif state_name == "back":
                self.watchers_away.discard(watcher)
            elif state_name == "left":
                self.watchers_away.discard(watcher)
                self.watcher_names.pop(watcher, None)
            if state_name in ("watching", "back") and entry.get("via"):
                self.watcher_via[watcher] = entry["via"]
            elif state_name in ("dropped", "left"):
                self.watcher_via.pop(watcher, None)
            number = viewer_watcher(watcher)
            if number is not None:
                message["watcher"] = number
        else:
            state = self.seats[seat]
            if entry.get("waiting"):  # a friend waits for this bot's seat, or gave up
                if state_name == "waiting":
                    self.waiting[seat] = (name, entry.get("tok", ""), entry.get("via", ""))
                else:
                    self.waiting.pop(seat, None)
            elif state_name in ("joined", "took_seat"):
                self.waiting.pop(seat, None)
                self.seats[seat] = SeatState("human", name, None, connected=True,
                                             holder=entry.get("tok", ""),
                                             via=entry.get("via", ""))
                if entry.get("host"):
                    self.host = entry.get("tok", "")
                new_viewer = seat_viewer(seat)
            elif state_name == "left":
                level = state.level or self.default_level
                self.seats[seat] = SeatState("bot", "", level) if self.started else SeatState()
            elif state_name == "dropped":
                state.connected = False
            elif state_name == "back":
                state.connected, state.standing_in = True, False
                state.via = entry.get("via", "")
            elif state_name == "bot_standing_in":
                state.standing_in = True
        self._to_all(out, lambda viewer: dict(message))
        self._to_all(out, self._table_message)
        if new_viewer is not None and self.started:
            self._send(out, new_viewer, self._state(new_viewer, self._no_events))

    # ----- messages -----------------------------------------------------------------
    def _to_all(self, out: list[Outgoing], make: Any) -> None:
        for viewer in self.streams:
            self._send(out, viewer, make(viewer))

    def _send(self, out: list[Outgoing], viewer: str, message: dict[str, Any] | str) -> None:
        stream = self.streams[viewer]
        if isinstance(message, str):
            seq, frame = stream.add_text("state", message)
        else:
            seq, frame = stream.add(message)
        out.append((viewer, seq, frame))

    def _table_message(self, viewer: str) -> dict[str, Any]:
        return {"t": "table", "code": self.code, "rules": self.rules_json,
                "started": self.started,
                "seats": [s.to_json(i) for i, s in enumerate(self.seats)]}

    def _trick_text(self, trick: Trick) -> JsonValue:
        encoded = self._tricks.get(trick)
        if encoded is None:
            if len(self._tricks) > 64:  # a past hand's tricks
                self._tricks.clear()
            encoded = self._tricks[trick] = encode_value(trick)
        return encoded

    def _state(self, viewer: str, events: list[Event]) -> str:
        """The ``state`` message for ``viewer`` as JSON text (without its seq).

        What every viewer shares, the public events and the public part of the view
        (about 1,200 values once a few tricks are done), is encoded once per change;
        only a viewer's own fields and private events are encoded for each viewer."""
        seat = viewer_seat(viewer)
        stamp = (len(self.log), id(events))
        if self._shared_at != stamp:
            watched = view_for(None, self.match.view)
            public = encode_view(watched, _PUBLIC_BUT_TRICKS)
            public["completed"] = [self._trick_text(trick) for trick in watched.completed]
            self._public_text = encode(public)
            self._event_texts = [None if isinstance(e, PRIVATE_EVENTS) else
                                 encode(encode_event(e)) for e in events]
            self._shared_at = stamp
        texts = [text if text is not None else encode(encode_event(event_for(seat, event)))
                 for event, text in zip(events, self._event_texts, strict=True)]
        own = encode(encode_view(view_for(seat, self.match.view), ("seat", *PRIVATE_FIELDS)))
        view = self._public_text[:-1] + "," + own[1:]
        return '{"t":"state","events":[' + ",".join(texts) + '],"view":' + view + "}"


def error_frame(error: ProtocolError) -> dict[str, Any]:
    """The ``error`` message of a refusal."""
    return {"t": "error", **encode_message(error.message)}
