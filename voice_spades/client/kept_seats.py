"""Seats kept across restarts of the game: the token the server gave for a seat (or a
watcher's place), per server address and table code, in ``seats.json`` in the player's
data folder.

So a game that stopped without leaving the table (closed, crashed, the computer
restarted) takes its seat back with the same ``join CODE``: the token is the seat's
key, so the file is the owner's only (mode 0600, written atomically) and the token is
never logged. A player who leaves the table (Q) forgets the seat. The file holds at
most :data:`KEPT_MOST` seats, the latest; one the game cannot read is started afresh
(a seat kept in it is then joined as a newcomer would).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from voice_spades.errors import SpadesError
from voice_spades.storage.atomic import atomic_write_text
from voice_spades.storage.bounded import SETTINGS_FILE_LIMIT, read_capped_text

_log = logging.getLogger(__name__)

FILE_NAME = "seats.json"
KEPT_MOST = 50
"""Seats kept (the latest): a player is at a handful of tables in a week."""
OWNER_ONLY = 0o600


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A seat (``seat`` None: a watcher's place) and its token."""

    token: str
    seat: int | None


class KeptSeats:
    """The seats kept in one data folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE_NAME

    @staticmethod
    def key(server: str, code: str) -> str:
        """Where a seat is kept: the server's address and the table's code."""
        return f"{server} {code}"

    def _read(self) -> dict[str, dict[str, object]]:
        try:
            data = json.loads(read_capped_text(self.path, SETTINGS_FILE_LIMIT))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, SpadesError) as exc:  # never the token: the cause
            _log.warning("the kept seats cannot be read (%s): starting afresh",
                         type(exc).__name__)
            return {}
        return data if isinstance(data, dict) else {}

    def find(self, server: str, code: str) -> KeptSeat | None:
        """The seat kept at ``code`` on ``server``, if any."""
        entry = self._read().get(self.key(server, code))
        if not isinstance(entry, dict):
            return None
        token, seat = entry.get("token"), entry.get("seat")
        if not isinstance(token, str) or not token or not (seat is None or
                                                            isinstance(seat, int)):
            return None
        return KeptSeat(token, seat)

    def keep(self, server: str, code: str, kept: KeptSeat) -> bool:
        """Keep a seat (the latest :data:`KEPT_MOST`); False when the file cannot be
        written (the game plays on; only a restart will not find the seat)."""
        seats = self._read()
        seats.pop(self.key(server, code), None)
        seats[self.key(server, code)] = {"token": kept.token, "seat": kept.seat,
                                         "kept": round(time.time())}
        return self._write(dict(list(seats.items())[-KEPT_MOST:]))

    def forget(self, server: str, code: str) -> bool:
        """The player left the table: the seat is no longer theirs to take back."""
        seats = self._read()
        if seats.pop(self.key(server, code), None) is None:
            return True
        return self._write(seats)

    def _write(self, seats: dict[str, dict[str, object]]) -> bool:
        try:
            atomic_write_text(self.path, json.dumps(seats, indent=1), mode=OWNER_ONLY)
        except OSError as exc:
            _log.warning("the kept seats cannot be written: %s", exc.strerror or exc)
            return False
        return True
