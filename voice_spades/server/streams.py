"""Each viewer's numbered stream: seq 1, 2, 3 ... with no gap, and the latest messages
kept to resend after a dropped line.

A viewer is a seat (whoever sits in it, through every reconnection): ``"seat:2"``, or a
watcher: ``"watch:0"``. What a stream holds is derived from the table's log alone, so
the same log gives the same stream, seq for seq, after a restart.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from voice_spades.protocol.wire import encode

BUFFER = 400
"""Stream messages kept per viewer for a resume: a hand is at most about 75 of them
(6 players' bids and 48 cards; two-player's 26 draws, 26 cards and bids), so 400 cover
five hands away; an older ``last_seq`` is served by replaying the stored log."""


def seat_viewer(seat: int) -> str:
    """The viewer key of a seat."""
    return f"seat:{seat}"


def watch_viewer(index: int) -> str:
    """The viewer key of the ``index``-th watcher of a table."""
    return f"watch:{index}"


def viewer_watcher(viewer: str) -> int | None:
    """The watcher number of a viewer key; None for a seat."""
    kind, _, number = viewer.partition(":")
    return int(number) if kind == "watch" else None


def viewer_seat(viewer: str) -> int | None:
    """The seat of a viewer key; None for a watcher."""
    kind, _, number = viewer.partition(":")
    return int(number) if kind == "seat" else None


class Stream:
    """One viewer's stream: its last seq and its latest messages as sent."""

    __slots__ = ("buffer", "last_state", "last_table", "seq")

    def __init__(self, keep: int | None = BUFFER) -> None:
        self.seq = 0
        self.last_state = 0
        """The seq of the last ``state`` message: what this viewer acts on (seating,
        presence and chat change nothing an action depends on)."""
        self.last_table = 0
        """The seq of the last ``table`` message."""
        self.buffer: deque[tuple[int, str]] = deque(maxlen=keep)

    def add(self, message: dict[str, Any]) -> tuple[int, str]:
        """Number ``message``, keep it, and return (seq, frame text)."""
        return self.add_text(message["t"], encode(message))

    def add_text(self, kind: str, body: str) -> tuple[int, str]:
        """Number a message of type ``kind`` given as JSON object text (without its
        seq), keep it, and return (seq, frame text)."""
        self.seq += 1
        if kind == "table":
            self.last_table = self.seq
        elif kind == "state":
            self.last_state = self.seq
        frame = f'{body[:-1]},"seq":{self.seq}}}'
        self.buffer.append((self.seq, frame))
        return self.seq, frame

    def since(self, last_seq: int) -> list[str] | None:
        """The frames after ``last_seq``, or None when the oldest is no longer kept."""
        if last_seq >= self.seq:
            return []
        if not self.buffer or self.buffer[0][0] > last_seq + 1:
            return None
        return [frame for seq, frame in self.buffer if seq > last_seq]

    @property
    def snapshot_from(self) -> int:
        """The seq to resend from so that a newcomer has the seating and the view: the
        last seq before the latest ``table`` and ``state`` messages."""
        return max(0, min(self.last_table or self.seq, self.last_state or self.seq) - 1)
