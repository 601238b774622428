"""Two terminal games on pseudo-terminals, one in English (the host) and one in Italian
(a friend), and two bots play a whole hand on 127.0.0.1; each prints exactly what a
local game of the same deal, seen from its seat, in its language, prints.

The deal is the server's: the test reads its seed and the actions from the host's own
store (the SQLite file in the host's data folder), never through the protocol."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pexpect

from tests.session.fakes import RecordingOutput
from voice_spades.bots import Bot
from voice_spades.engine import (
    Action,
    Match,
    Phase,
    PlayerView,
    action_from_text,
    options_from_dict,
)
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.narration.catalog import active_language, set_language
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.session import GameSettings, Pacer, Ports, Session

PROMPTS = {"en": re.compile(r"^(Your bid[.:]|Your lead\.|Your play:)"),
           "it": re.compile(r"^(La tua dichiarazione:|Dichiara\.|Tocca a te)")}
HAND_WITHIN = 90.0
"""Seconds a whole hand may take on loopback (bots instant, no pacing): about 10."""


class LoggedBot:
    """Plays a seat's actions as the server's log has them, in order."""

    name = "logged"

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions

    def _next(self, view: PlayerView) -> Action:
        return self.actions.pop(0)

    bid = play = draw = blind_nil = exchange = _next  # type: ignore[assignment]


def replay(seed: int, rules: dict[str, object], log: list[dict[str, object]], seat: int,
           language: str) -> tuple[list[str], list[str]]:
    """The lines a local game of this deal prints at ``seat`` in ``language`` when the
    player presses the keys the test pressed (2 and Enter to bid, Enter to play); and
    their message ids."""
    rules_options = options_from_dict(rules)
    acts = [e for e in log if e["k"] == "act"]
    by_seat: dict[int, list[Action]] = {}
    for entry in acts:
        by_seat.setdefault(int(str(entry["seat"])), []).append(
            action_from_text(str(entry["action"])))

    def logged(_rules: object, _settings: object) -> Mapping[int, Bot]:
        return {s: LoggedBot(actions) for s, actions in by_seat.items()  # type: ignore[misc]
                if s != seat}

    before = active_language()
    set_language(language)
    try:
        out = RecordingOutput()
        session = Session(Match(rules_options, seed), Ports(out, pacer=Pacer(out.is_busy, 0.0)),
                          settings=GameSettings(seat=seat), bot_factory=logged)
        keyboard = KeyboardInput(session, load_keymap())
        session.start()
        while session.match.hands_played < 1:
            session.play_bots()
            if session.match.hands_played >= 1:
                break
            keys = ["2", "enter"] if session.view.phase is Phase.BID else ["enter"]
            for key in keys:
                keyboard.press(key)
                while session.step():
                    pass
        played = session.match.finished[0].actions  # the keys played what the server logged
        assert played == [action_from_text(str(e["action"])) for e in acts][:len(played)]
        return out.texts, out.ids
    finally:
        set_language(before)


def spawn(args: list[str], home: Path) -> pexpect.spawn:
    env = {**os.environ, "VOICE_SPADES_HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb"}
    return pexpect.spawn(sys.executable, ["-m", "voice_spades", *args, "--no-speech",
                                          "--no-voice", "--sounds", "off", "--pace", "0"],
                         env=env, encoding="utf-8", timeout=20, dimensions=(50, 400))


class Terminal:
    """One game on a pseudo-terminal, and what it printed, line by line."""

    def __init__(self, child: pexpect.spawn, language: str) -> None:
        self.child, self.language = child, language
        self.text = ""
        self.answered = 0

    def read(self) -> None:
        try:
            while True:
                self.text += self.child.read_nonblocking(65536, timeout=0.05)
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass

    @property
    def lines(self) -> list[str]:
        return [line for line in self.text.replace("\r", "").split("\n")]

    def answer_prompts(self) -> None:
        """Press the keys for each new prompt: 2 and Enter to bid, Enter to play."""
        prompts = [line for line in self.lines[:-1] if PROMPTS[self.language].match(line)]
        while self.answered < len(prompts):
            prompt = prompts[self.answered]
            self.answered += 1
            if prompt.startswith(("Your bid", "La tua dichiarazione:", "Dichiara.")):
                self.child.send("2")
                time.sleep(0.05)
            self.child.send("\r")


def test_two_terminals_in_two_languages_print_the_local_game_of_their_seat(
        tmp_path: Path) -> None:
    host_home, friend_home = tmp_path / "host", tmp_path / "friend"
    host = Terminal(spawn(["host", "--port", "0", "--listen", "127.0.0.1", "--bot-delay", "0",
                           "--name", "Ada", "--language", "en", "--rules", "pagat"],
                          host_home), "en")
    host.child.expect(r"join (\d{6}) --server \S+:(\d+)")
    code, port = host.child.match.group(1), host.child.match.group(2)
    host.child.expect("S starts the match.")
    for key in ("3", "4"):  # partner North and East: bots at easy; West stays open
        host.child.send(key)
        host.child.expect(r"(North|East): bot, easy")
    friend = Terminal(spawn(["join", code, "--server", f"127.0.0.1:{port}", "--seat", "2",
                             "--name", "Giulia", "--language", "it"], friend_home), "it")
    host.child.expect("Giulia sat down")
    host.child.send("s")
    store = SQLiteStore(host_home / "tables.sqlite3")
    deadline = time.monotonic() + HAND_WITHIN
    log: list[dict[str, object]] = []
    while time.monotonic() < deadline:
        for terminal in (host, friend):
            terminal.read()
            terminal.answer_prompts()
        log = list(store.entries(code))
        scored = Match(options_from_dict(store_rules(store, code)), store_seed(store, code))
        for entry in log:
            if entry["k"] == "act":
                scored.apply(action_from_text(str(entry["action"])))
        if scored.hands_played >= 1:
            break
    played = time.monotonic() - (deadline - HAND_WITHIN)
    time.sleep(1.0)
    for terminal in (host, friend):
        terminal.read()
        terminal.child.send("q")
    for name, terminal in (("host", host), ("friend", friend)):
        (tmp_path / f"{name}.txt").write_text(terminal.text, encoding="utf-8")
    seed, rules = store_seed(store, code), store_rules(store, code)
    for terminal, seat in ((host, 0), (friend, 1)):
        expected, ids = replay(seed, rules, log, seat, terminal.language)
        # The second hand begins with its number and cards ("hand.dealt"; the first
        # hand's are "hand.dealt_first"): compare from the first deal to the results,
        # before the players quit.
        hand_end = next((i for i, message_id in enumerate(ids) if message_id == "hand.dealt"),
                        len(ids))
        expected = expected[1:hand_end]
        printed = terminal.lines
        assert expected and expected[0] in printed, (expected[:3], printed[-20:])
        start = printed.index(expected[0])
        assert printed[start:start + len(expected)] == expected
    print(f"\na whole hand in {played:.1f} s; {len(expected)} lines compared at the friend's")
    for terminal in (host, friend):
        terminal.child.expect(pexpect.EOF, timeout=10)


def store_seed(store: SQLiteStore, code: str) -> int:
    record = store.table(code)
    assert record is not None
    return record.seed


def store_rules(store: SQLiteStore, code: str) -> dict[str, object]:
    record = store.table(code)
    assert record is not None
    return dict(record.rules)
