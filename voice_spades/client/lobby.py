"""The host's choices before the match starts, by keys: each seat's number cycles it
through a friend's place and the three bot levels, S (or Enter) starts.

The server holds the seating: a key becomes a ``seat`` or ``start`` message, and the
seat list said back is the one the server's next ``table`` message describes, so what
the host hears is what the table is.
"""

from __future__ import annotations

from voice_spades.client.remote_table import RemoteTable, SeatInfo
from voice_spades.engine import Seat
from voice_spades.messages import Message
from voice_spades.protocol.wire import ClientMessage, SetSeat, Start

CYCLE: tuple[tuple[str, str | None], ...] = (
    ("open", None), ("bot", "easy"), ("bot", "medium"), ("bot", "hard"))
"""What a seat's number key makes of it, in turn: open for a friend, then a bot at each
level (a friend seated is left alone: they leave by themselves)."""
START_KEYS = ("s", "S", "enter")
MENU_KEYS = ("h", "H", "f1", "?")


def seat_line(info: SeatInfo) -> Message:
    """One seat, as the menu says it: its key, its place, who plays it."""
    number, seat = info.seat + 1, Seat(info.seat)
    if info.kind == "human":
        return Message("table.seat_human", number=number, seat=seat, name=info.name)
    if info.kind == "bot":
        return Message("table.seat_bot", number=number, seat=seat,
                       level=Message(f"session.level_name.{info.level or 'medium'}"))
    return Message("table.seat_open", number=number, seat=seat)


class Lobby:
    """Turns the host's keys into the server's seating messages."""

    def __init__(self, table: RemoteTable) -> None:
        self.table = table

    def menu(self) -> list[Message]:
        """The seats, one line each, and the keys that change them."""
        return [*(seat_line(s) for s in self.table.seats), Message("table.host_keys")]

    def press(self, key: str) -> ClientMessage | list[Message] | None:
        """The message to send for ``key`` (a seat change, the start), a line to say
        (the menu, or why that seat cannot change), or None for a key that does nothing
        here."""
        if key in START_KEYS:
            return Start()
        if key in MENU_KEYS:
            return self.menu()
        if len(key) != 1 or not key.isdigit():
            return None
        seat = int(key) - 1
        seats = self.table.seats
        if not 0 < seat < len(seats):  # seat 0 is the host's own
            return self.menu()
        info = seats[seat]
        if info.kind == "human":
            return [Message("net.seat_taken")]
        now = (info.kind, info.level if info.kind == "bot" else None)
        index = CYCLE.index(now) if now in CYCLE else -1
        kind, level = CYCLE[(index + 1) % len(CYCLE)]
        return SetSeat(seat, kind, level)
