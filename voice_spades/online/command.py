"""The options of ``host`` and ``join``, the host's server, and the first contact."""

from __future__ import annotations

import argparse
import getpass
import socket
import sys
from collections.abc import Callable
from contextlib import ExitStack

from voice_spades.app import build_parser, check_options
from voice_spades.client.kept_seats import KeptSeat, KeptSeats
from voice_spades.client.line import DEFAULT_PORT, Line, open_line, server_url, wait_until
from voice_spades.client.remote_table import RemoteTable
from voice_spades.engine import options_to_dict
from voice_spades.errors import InvalidInputError
from voice_spades.keys import key_mode
from voice_spades.messages import Message
from voice_spades.narration import render, render_message
from voice_spades.narration.language import start_language, use_language
from voice_spades.online.seated import sit_and_play
from voice_spades.protocol.wire import (
    GRACE_DEFAULT,
    GRACE_MAX,
    NAME_MAX,
    ClientMessage,
    Create,
    Join,
    SeatSpec,
)
from voice_spades.server.app import ServerThread
from voice_spades.server.hub import BOT_DELAY, Hub
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.session.quit_signals import QuitSignals
from voice_spades.speech.plain_text import show_any_text
from voice_spades.storage.preferences import apply_preferences, load_preferences
from voice_spades.web.friend_page import friend_routes, loopback_url

MAX_BOT_DELAY = 10.0
"""The longest a host may make the bots wait, in seconds."""


def host_parser() -> argparse.ArgumentParser:
    """``play``'s options, plus where the table's server listens."""
    p = build_parser()
    p.prog, p.description, p.epilog = "voice-spades host", render("cli.host.description"), None
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=render("cli.host.port"))
    p.add_argument("--listen", default="0.0.0.0", metavar="ADDRESS",
                   help=render("cli.host.listen"))
    p.add_argument("--grace", type=int, default=GRACE_DEFAULT, metavar="SECONDS",
                   help=render("cli.host.grace"))
    p.add_argument("--bot-delay", type=float, default=BOT_DELAY, metavar="SECONDS",
                   help=render("cli.host.bot_delay"))
    p.add_argument("--name", help=render("cli.join.name"))
    p.add_argument("--server", metavar="ADDRESS", help=render("cli.host.server"))
    return p


def join_parser() -> argparse.ArgumentParser:
    """``play``'s options for speech, keys and voice (not its rule options: the table
    has its host's), plus the table to join."""
    p = build_parser(watch_copy=False, rule_options=False)
    p.prog, p.description, p.epilog = "voice-spades join", render("cli.join.description"), None
    p.add_argument("code", help=render("cli.join.code"))
    p.add_argument("--server", default=f"127.0.0.1:{DEFAULT_PORT}", metavar="ADDRESS",
                   help=render("cli.join.server"))
    p.add_argument("--seat", type=int, metavar="N", help=render("cli.join.seat"))
    p.add_argument("--watch", action="store_true", help=render("cli.join.watch"))
    p.add_argument("--name", help=render("cli.join.name"))
    return p


def player_name(given: str | None) -> str:
    """The name the table hears: ``--name``, else the account's."""
    name = given
    if not name:
        try:
            name = getpass.getuser()
        except Exception:  # no account name (some containers): a plain word
            name = render("word.you")
    return " ".join(name.split())[:NAME_MAX] or render("word.you")


def friends_address(port: int) -> str:
    """The address friends give ``join --server``: this machine's own network address
    (found without sending anything), else the loopback one."""
    found = "127.0.0.1"
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127."):
                found = address
                break
    except OSError:
        pass
    return f"{found}:{port}"


def host_main(argv: list[str] | None = None) -> int:
    """``voice-spades host``: 0 after the game, 2 when no table can be made."""
    return _main(argv, hosting=True)


def join_main(argv: list[str] | None = None) -> int:
    """``voice-spades join CODE``: 0 after the game, 2 for a wrong code or no server."""
    return _main(argv, hosting=False)


def _main(argv: list[str] | None, *, hosting: bool) -> int:
    # From ``voice-spades``, the language is chosen already and its option taken out.
    said = start_language(sys.argv[1:]) if argv is None else []
    parser = host_parser() if hosting else join_parser()
    args = parser.parse_args(argv)
    show_any_text(sys.stdout, sys.stderr)
    try:
        requested, _, paths = check_options(args)
    except InvalidInputError as exc:
        print(render("app.bad_options", reason=exc), file=sys.stderr)
        return 2
    args = apply_preferences(parser, argv, *load_preferences(paths.config_dir))
    if args.language:
        said += use_language(args.language)
    for problem in said:
        print(render_message(problem), file=sys.stderr)
    if hosting and not 0 <= args.bot_delay <= MAX_BOT_DELAY:
        print(render("app.bad_options", reason=Message("table.bad_bot_delay",
                                                         high=MAX_BOT_DELAY)), file=sys.stderr)
        return 2
    if hosting and not 0 <= args.grace <= GRACE_MAX:
        print(render("app.bad_options", reason=Message("table.bad_grace", high=GRACE_MAX)),
              file=sys.stderr)
        return 2
    stack = ExitStack()
    with stack:
        first: ClientMessage
        if hosting:
            rules = requested.rule_options()
            seats = (SeatSpec("human"), *(SeatSpec("open") for _ in range(rules.players - 1)))
            first = Create(options_to_dict(rules), seats, args.grace)
        if hosting and args.server is not None:  # a table on a server already running
            url = server_url(args.server)
            address = args.server
        elif hosting:
            try:
                store = paths.data_dir / "tables.sqlite3"
                server = ServerThread(lambda: Hub(SQLiteStore(store), bot_delay=args.bot_delay),
                                      host=args.listen, port=args.port)
                server.routes = friend_routes(loopback_url(args.listen, server.port))
                server.start()
            except (OSError, RuntimeError):
                print(render("table.cannot_listen", port=args.port), file=sys.stderr)
                return 2
            stack.callback(server.stop)
            url = f"ws://127.0.0.1:{server.port}/ws"
            address = friends_address(server.port)
        else:
            seat = None if args.seat is None else args.seat - 1
            first = Join(args.code.strip(), seat=seat, watch=args.watch)
            url = server_url(args.server)
            address = args.server
        kept = KeptSeats(paths.data_dir)
        line, table, notes = reach_table(url, player_name(args.name), first, kept)
        stack.callback(line.close)
        refusal = (table.errors[0] if table.token is None and table.errors
                   else line.failure)  # the server's refusal says more than a closed line
        if refusal is not None or not table.seated:
            print(render_message(refusal or Message("table.unreachable", address=url)),
                  file=sys.stderr)
            return 2
        interactive = sys.stdin is not None and sys.stdin.isatty()
        signals = QuitSignals()
        stack.callback(signals.restore)
        if interactive:
            stack.enter_context(key_mode(sys.stdin.fileno()))
        played = sit_and_play(args, paths, table, line, interactive, signals,
                              address=address if hosting else None, notes=notes)
        if table.code is not None:  # left the table: the seat is no longer to take back
            kept.forget(url, table.code)
        return played
    return 0


def reach_table(url: str, name: str, first: ClientMessage, kept: KeptSeats,
                wait: Callable[[Callable[[], bool], float], bool] = wait_until
                ) -> tuple[Line, RemoteTable, list[Message]]:
    """The line to the table ``first`` asks for. A join whose seat (or watcher's place)
    is kept from an earlier run takes it back by its token; a token the server no
    longer knows (the player was replaced, the table is gone) is forgotten and the
    join goes as a newcomer's, with one sentence saying so."""
    seat = kept.find(url, first.code) if isinstance(first, Join) else None
    notes: list[Message] = []
    if seat is None or not isinstance(first, Join) or \
            (seat.seat is None) != first.watch or \
            (first.seat is not None and first.seat != seat.seat):
        line, table = open_line(url, name, first, wait)
    else:
        line, table = open_line(url, name, first, wait, kept_token=seat.token)
        if table.token is None and any(e.id == "net.bad_token" for e in table.errors):
            line.close()
            kept.forget(url, first.code)
            line, table = open_line(url, name, first, wait)
            notes.append(Message("table.kept_seat_gone", code=first.code))
    if table.token is not None and table.code is not None:  # for a restart of the game
        kept.keep(url, table.code, KeptSeat(table.token, table.my_seat))
    return line, table, notes

