"""``voice-spades serve``: a table server alone, for friends to host and join tables on.

    voice-spades serve [--host 127.0.0.1] [--port 8765] [--database PATH|postgresql://...]
                       [--bot-delay 1.0] [--max-connections 20] [--abandon-after 30]
                       [--data-dir FOLDER]

It says where it listens and which store it uses, then serves until Ctrl+C (or
SIGTERM). A port already in use or a store that cannot be opened is one sentence and
exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TextIO

from voice_spades.narration import render
from voice_spades.server.app import bind, make_server
from voice_spades.server.hub import BOT_DELAY, Hub
from voice_spades.server.limits import CONNECTIONS_PER_ADDRESS, MOST_CONNECTIONS_PER_ADDRESS
from voice_spades.server.store_choice import open_store
from voice_spades.server.upkeep import ABANDON_AFTER
from voice_spades.storage.paths import data_paths
from voice_spades.web.friend_page import friend_routes, loopback_url

DEFAULT_PORT = 8765
MAX_BOT_DELAY = 10.0
MAX_ABANDON_MINUTES = 10_080
"""A week: a table that waits longer for its players is not coming back to life."""


def build_parser() -> argparse.ArgumentParser:
    """The options of ``voice-spades serve``, with help in the game's language."""
    p = argparse.ArgumentParser(prog="voice-spades serve",
                                description=render("serve.description"))
    p.add_argument("--host", default="127.0.0.1", help=render("serve.host_help"))
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=render("serve.port_help", port=DEFAULT_PORT))
    p.add_argument("--database", help=render("serve.database_help"))
    p.add_argument("--bot-delay", type=float, default=BOT_DELAY,
                   help=render("serve.bot_delay_help", seconds=BOT_DELAY))
    p.add_argument("--max-connections", type=int, default=CONNECTIONS_PER_ADDRESS,
                   metavar="N", help=render("serve.max_connections_help",
                                            count=CONNECTIONS_PER_ADDRESS))
    p.add_argument("--abandon-after", type=float, default=ABANDON_AFTER / 60,
                   metavar="MINUTES", help=render("serve.abandon_help",
                                                  minutes=f"{ABANDON_AFTER / 60:g}"))
    p.add_argument("--data-dir", help=render("cli.play.data_dir"))
    return p


def _option_problem(args: argparse.Namespace) -> str | None:
    """Why an option makes no server (one sentence), or None."""
    if not 0 <= args.bot_delay <= MAX_BOT_DELAY:
        return render("serve.bad_bot_delay", high=MAX_BOT_DELAY)
    if not 0 <= args.port <= 65535:
        return render("serve.bad_port", port=args.port)
    if not 1 <= args.max_connections <= MOST_CONNECTIONS_PER_ADDRESS:
        return render("serve.bad_max_connections", high=MOST_CONNECTIONS_PER_ADDRESS)
    if not 1 <= args.abandon_after <= MAX_ABANDON_MINUTES:
        return render("serve.bad_abandon", high=MAX_ABANDON_MINUTES)
    return None


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Serve until stopped; 2 when the port or the store cannot be had."""
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    problem = _option_problem(args)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    try:
        folder = data_paths(args.data_dir).data_dir if args.data_dir else None
        store, feed = open_store(args.database, folder)
    except Exception as exc:  # any driver's failure (OSError, psycopg's) is one sentence
        print(render("serve.no_database", error=str(exc) or type(exc).__name__),
              file=sys.stderr)
        return 2
    try:
        try:
            sock = bind(args.host, args.port)
        except OSError as exc:
            print(render("serve.port_busy", host=args.host, port=args.port,
                         error=exc.strerror or str(exc)), file=sys.stderr)
            return 2
        port = sock.getsockname()[1]
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(render("serve.listening", address=f"ws://{host}:{port}/ws",
                     database=args.database or "SQLite"), file=out, flush=True)
        print(render("web.friends_page", address=f"http://{host}:{port}/"), file=out,
              flush=True)
        # With a shared store the players of stored tables may be at another process.
        hub = Hub(store, feed=feed, bot_delay=args.bot_delay,
                  mark_dropped_at_start=feed is None, max_connections=args.max_connections,
                  abandon_after=args.abandon_after * 60)
        pages = friend_routes(loopback_url(args.host, port))
        asyncio.run(make_server(hub, pages).serve(sockets=[sock]))
    finally:
        store.close()
    return 0
