"""One server process for ``bench server``: ``python -m voice_spades.bench.serve_process
--port N --database PATH|postgresql://...``, with bots acting at once (``bot_delay`` 0).
It ends on SIGTERM (uvicorn's own handling) and closes its store."""

from __future__ import annotations

import argparse
import asyncio

from voice_spades.server.app import bind, make_server
from voice_spades.server.hub import Hub
from voice_spades.server.store_choice import open_store


def main(argv: list[str] | None = None) -> int:
    """Serve on 127.0.0.1 until terminated."""
    parser = argparse.ArgumentParser(prog="python -m voice_spades.bench.serve_process")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    args = parser.parse_args(argv)
    store, feed = open_store(args.database)
    try:
        # With a shared store the players of stored tables may be at another process.
        server = make_server(Hub(store, feed=feed, bot_delay=0.0,
                                 mark_dropped_at_start=feed is None))
        asyncio.run(server.serve(sockets=[bind(args.host, args.port)]))
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
