"""``voice-spades bench web``: how soon the large-print page shows what happened.

A seeded match is played in this process (legal bots at every seat, the player's seat
too, a move every ``--pace`` seconds) by a real session with its page served on
loopback (:mod:`voice_spades.web`), and headless Chromium shows the page. For every
change of the table the session publishes, the time runs from the session's watcher
call, just after the engine applied the move, to the page's "shown" message for that
state, sent by its script once the DOM holds it: the DOM update plus one loopback frame
back, so an upper bound of what a player waits. The median and the 95th percentile are
printed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence

from voice_spades.bench.pace import _bots
from voice_spades.bots import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.commands import Act
from voice_spades.engine import Match, profile
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.session import GameSettings, InputEnded, Pacer, Ports, Session
from voice_spades.web.access import new_token
from voice_spades.web.local_page import LocalPage
from voice_spades.web.page_app import PageServer
from voice_spades.web.page_output import PageOutput, SilentOutput

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
"""The headless browsers tried, in order."""
BROWSER_WAIT = 30.0
"""Seconds to wait for the browser's page to connect."""


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` (0 to 1) quantile of ``values``, nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile(list(range(100)), 0.95)
    (2.0, 94)
    """
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def build_parser() -> argparse.ArgumentParser:
    """The bench's options."""
    p = argparse.ArgumentParser(prog="voice-spades bench web", description=__doc__)
    p.add_argument("--seed", type=int, default=7, help="the match's seed (default 7)")
    p.add_argument("--hands", type=int, default=1, help="hands to play (default 1)")
    p.add_argument("--pace", type=float, default=0.1,
                   help="seconds between moves (default 0.1; the game's own is 0.25-0.4)")
    p.add_argument("--browser", help="the browser to run headless (default: chromium)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the bench; 2 without a browser, 1 if the page never showed the match."""
    args = build_parser().parse_args(argv)
    browser = args.browser or next((b for b in BROWSERS if shutil.which(b)), None)
    if browser is None or shutil.which(browser) is None:
        print("bench web: no headless browser found (Debian: apt-get install chromium)",
              file=sys.stderr)
        return 2
    delays, states = run(browser, args.seed, args.hands, args.pace)
    if not delays:
        print("bench web: the page showed nothing", file=sys.stderr)
        return 1
    figures = {"seed": args.seed, "hands": args.hands, "pace": args.pace,
               "states": states, "measured": len(delays),
               "median_ms": round(statistics.median(delays) * 1000, 1),
               "p95_ms": round(percentile(delays, 0.95) * 1000, 1),
               "max_ms": round(max(delays) * 1000, 1)}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"bench web: seed {args.seed}, {args.hands} hand(s), a move every "
              f"{args.pace:g} s: {len(delays)} changes of the table shown of {states} sent")
        print(f"  engine event -> page's DOM (and one frame back): median "
              f"{figures['median_ms']} ms, p95 {figures['p95_ms']} ms, "
              f"max {figures['max_ms']} ms")
    return 0


def run(browser: str, seed: int, hands: int, pace: float) -> tuple[list[float], int]:
    """Play ``hands`` hands of the seeded match with the page open in ``browser``: the
    delays measured, and how many states were sent."""
    match = Match(profile("pagat"), seed)
    output = PageOutput(SilentOutput(), SilentOutput())
    session = Session(match, Ports(output, pacer=Pacer(lambda: False, min_gap=pace)),
                      settings=GameSettings(rules=match.rules.name, seed=seed),
                      bot_factory=_bots)
    keymap = load_keymap(None)
    page = LocalPage(session, KeyboardInput(session, keymap), output)
    page.ack = True
    output.said = page.said
    session.watch(page.watch)
    server = PageServer(page, new_token()).start()
    profile_dir = tempfile.TemporaryDirectory(prefix="voice-spades-bench-web-")
    shown = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={profile_dir.name}", server.address],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + BROWSER_WAIT
        while not len(page.clients) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not len(page.clients):
            return [], 0
        session.start()
        runner = threading.Thread(target=session.run, daemon=True, name="bench-session")
        runner.start()
        _play_player(session, seed, hands, pace)
        time.sleep(0.5)  # the last states' acknowledgements
        return list(page.delays), page.changes
    finally:
        session.submit(InputEnded())
        shown.terminate()
        try:
            shown.wait(10)
        except subprocess.TimeoutExpired:
            shown.kill()
        server.stop()
        profile_dir.cleanup()


def _play_player(session: Session, seed: int, hands: int, pace: float) -> None:
    """The player's seat, a legal bot, until ``hands`` hands are over (at most 2 minutes
    a hand)."""
    player = LegalMovePlayer(seed=seed)
    deadline = time.monotonic() + 120 * hands
    while time.monotonic() < deadline and not session.stopped.is_set():
        view = session.context().view
        if view.hand_number > hands or session.table.is_over:
            return
        if view.is_my_turn and view.legal and session.waiting.is_set():
            session.submit(Act(decide(player, view)))
            time.sleep(pace)
        time.sleep(0.01)
