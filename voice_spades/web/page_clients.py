"""The pages connected to one table, each a queue on the page server's event loop."""

from __future__ import annotations

import asyncio
import threading

Json = dict[str, object]

QUEUE_LIMIT = 1000
"""States a page may fall behind by before it is dropped (a hand sends about 300)."""


class PageClients:
    """Sends each message to every connected page; thread-safe (the session's thread
    sends, the page server's loop reads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[Json | None]]] = []

    def join(self) -> asyncio.Queue[Json | None]:
        """A queue for one page, on the running loop."""
        queue: asyncio.Queue[Json | None] = asyncio.Queue(QUEUE_LIMIT)
        with self._lock:
            self._queues.append((asyncio.get_running_loop(), queue))
        return queue

    def leave(self, queue: asyncio.Queue[Json | None]) -> None:
        """Stop sending to ``queue``."""
        with self._lock:
            self._queues = [(loop, q) for loop, q in self._queues if q is not queue]

    def send(self, message: Json) -> None:
        """Queue ``message`` for every page (a page too far behind gets None: it closes)."""
        with self._lock:
            queues = list(self._queues)
        for loop, queue in queues:
            try:
                loop.call_soon_threadsafe(_put, queue, message)
            except RuntimeError:  # that loop has closed: the server is stopping
                self.leave(queue)

    def __len__(self) -> int:
        with self._lock:
            return len(self._queues)


def _put(queue: asyncio.Queue[Json | None], message: Json) -> None:
    if queue.full():
        queue.get_nowait()
        queue.put_nowait(None)
        return
    queue.put_nowait(message)
