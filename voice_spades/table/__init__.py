"""The table the session plays: the seam between the player's session and a match.

A :class:`Table` is a match seen from one seat (any seat): the player's view, whose
turn it is, the player's own actions, and what happens without the player (a bot's
move, news from a server). :class:`LocalTable` is the game on this machine (the match,
its bots, autosave); the client's ``RemoteTable`` mirrors a table on a server. The
session publishes a :class:`TableSnapshot` to its watchers after every change.
"""

from voice_spades.table.base import Note, PreviousHand, Table, TableSnapshot
from voice_spades.table.local import LocalTable

__all__ = ["LocalTable", "Note", "PreviousHand", "Table", "TableSnapshot"]
