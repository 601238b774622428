"""One viewer's stream made the way the contract says a server makes it (a real match,
the protocol's codec and redaction), for the client tests that need no server."""

from __future__ import annotations

from typing import Any

from voice_spades.engine import Event, Match, options_to_dict
from voice_spades.protocol.codec import encode_event, encode_view
from voice_spades.protocol.redact import events_for, view_for


class SeatStream:
    """Numbers the messages one seat (or a watcher: None) gets from ``match``."""

    def __init__(self, match: Match, seat: int | None, code: str = "123456") -> None:
        self.match, self.seat, self.code = match, seat, code
        self.seq = 0

    def _next(self, message: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        return {**message, "seq": self.seq}

    def welcome(self, token: str = "tok") -> dict[str, Any]:
        return {"t": "welcome", "v": 1, "code": self.code, "seat": self.seat, "token": token,
                "host": self.seat == 0, "seq": self.seq}

    def table(self, names: tuple[str, ...] = ()) -> dict[str, Any]:
        players = self.match.rules.players
        seats = [{"seat": s, "name": names[s] if s < len(names) else "", "level": None,
                  "kind": "human" if s < len(names) else "bot", "connected": True,
                  "standing_in": False} for s in range(players)]
        return self._next({"t": "table", "code": self.code, "started": True, "seats": seats,
                           "rules": options_to_dict(self.match.rules)})

    def state(self, events: list[Event]) -> dict[str, Any]:
        return self._next({"t": "state",
                           "events": [encode_event(e) for e in events_for(self.seat, events)],
                           "view": encode_view(view_for(self.seat, self.match.view))})

    def presence(self, seat: int | None, name: str, state: str) -> dict[str, Any]:
        return self._next({"t": "presence", "seat": seat, "name": name, "state": state})

    def chat(self, seat: int | None, name: str, text: str) -> dict[str, Any]:
        return self._next({"t": "chat", "seat": seat, "name": name, "text": text})
