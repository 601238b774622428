"""The client of a shared table: the remote table the session plays, the line to the
server (which comes back by itself), and the ``host`` and ``join`` commands.

Each client words the stream itself, through the same narrator as the local game, in
its own language, speech and verbosity: the server sends facts (events, views, catalog
ids), never sentences.
"""

from voice_spades.client.remote_table import RemoteTable, SeatInfo

__all__ = ["RemoteTable", "SeatInfo"]
