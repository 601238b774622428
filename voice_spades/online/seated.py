"""At the shared table: the host's seat choices (or a friend's wait) until the match
starts, then the terminal game on the remote table.

Before the start there is no match to play, so no session yet: the lines go straight
to the output, worded for this player's seat, and keys are read here (a seat's number,
S to start, Q or Escape to leave). From the start, the game is ``play``'s: the same
output, keys, voice and cues, on a :class:`~voice_spades.client.RemoteTable`.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from collections.abc import Callable, Iterator, Sequence

from voice_spades.app import VoiceRunning, play, start_voice_input
from voice_spades.client.line import Line
from voice_spades.client.lobby import Lobby, seat_line
from voice_spades.client.remote_table import RemoteTable, SeatInfo
from voice_spades.keys import (
    KeyboardInput,
    TerminalKeys,
    help_text,
    hints,
    key_help,
    key_lister,
    load_keymap,
)
from voice_spades.messages import Message
from voice_spades.narration import Line as SaidLine
from voice_spades.narration import Phrasebook, Priority, Verbosity
from voice_spades.protocol.wire import Leave
from voice_spades.session import GameSettings, InputHooks, Pacer, Ports, Session
from voice_spades.session.quit_signals import QuitSignals
from voice_spades.speech.cues import start_sounds
from voice_spades.speech.from_options import keep_rate, make_output
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.storage import DataPaths
from voice_spades.web.friend_page import page_address
from voice_spades.web.local_game import page_output, start_local_page

LEAVE_KEYS = ("q", "Q", "escape", "ctrl+c")
"""Keys that leave the table before the start."""
POLL = 0.1
"""Seconds between looks at the table while waiting for the start."""

KeySource = Callable[[float], "list[str] | None"]
"""Keys pressed within a number of seconds (maybe none); None once input has ended."""


class LineKeys:
    """Key names typed as lines on a standard input that is not a terminal (a pipe, a
    test), read on a thread of its own; the rest of the input then goes to the game."""

    def __init__(self, stream: Iterator[str]) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ahead: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True, name="lines").start()

    def _read(self, stream: Iterator[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        finally:
            self._lines.put(None)

    def read(self, timeout: float) -> list[str] | None:
        """The key names of the next line typed within ``timeout`` seconds."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return []
        if line is None:
            self._lines.put(None)
            return None
        return line.split("#", 1)[0].split()

    def rest(self) -> Iterator[str]:
        """The lines not read yet, as they come, for the game's keyboard."""
        while (line := self._lines.get()) is not None:
            yield line
        self._lines.put(None)


def say(output: AnnouncerOutput, words: Phrasebook, messages: Sequence[Message],
        priority: Priority = Priority.NORMAL) -> None:
    """Say catalog messages before the session exists."""
    output.emit([SaidLine(m.id, words.message(m), priority=priority) for m in messages])


def wait_for_start(table: RemoteTable, line: Line, output: AnnouncerOutput,
                   keys: KeySource, signals: QuitSignals, words: Phrasebook) -> bool:
    """The host chooses the seats and starts; a friend waits. Both hear who sits down
    and leaves. True once the match has started and its first view is here."""
    lobby = Lobby(table) if table.host else None
    seats: tuple[SeatInfo, ...] = table.seats
    if lobby is not None:
        say(output, words, lobby.menu())
    elif not table.started:
        say(output, words, [Message("table.waiting_start")])
    while not (table.started and table.ready.is_set()):
        if signals.requested:
            return False
        say(output, words, [note.message for note in table.notes()])
        if lobby is not None and table.seats != seats:
            changed = [seat_line(s) for s in table.seats if s not in seats]
            seats = table.seats
            say(output, words, changed)
        pressed = keys(POLL)
        if pressed is None:
            return False
        for key in pressed:
            if key in LEAVE_KEYS:
                return False
            answer = lobby.press(key) if lobby is not None else None
            if isinstance(answer, list):
                say(output, words, answer, Priority.HIGH)
            elif answer is not None:
                line.send(answer)
    return True


def sit_and_play(args: argparse.Namespace, paths: DataPaths, table: RemoteTable, line: Line,
                 interactive: bool, signals: QuitSignals, *, address: str | None,
                 notes: Sequence[Message] = ()) -> int:
    """Wait for the start (the host choosing seats), then play the shared table until
    the player quits; 0. ``notes`` are said before the greeting."""
    output, notices = make_output(args, sys.stdout, keep_rate(paths.config_dir))
    keymap = load_keymap(args.keymap or paths.keymap_file)
    terminal = TerminalKeys(sys.stdin.fileno()) if interactive else None
    lines = None if interactive else LineKeys(iter(sys.stdin or ()))
    keys: KeySource = terminal.read if terminal is not None else \
        lines.read if lines is not None else (lambda _timeout: None)
    verbosity = Verbosity(args.verbosity)
    words = Phrasebook(table.rules, table.seat, verbosity)
    greeting = (Message("table.hosting", code=table.code, address=address) if address
                else Message("table.watching" if table.my_seat is None else "table.joined",
                             code=table.code))
    browser = [Message("web.friends_page", address=page_address(address))] if address else []
    say(output, words, [*(n if isinstance(n, Message) else n.message for n in notices),
                        *args.preference_problems, *notes, greeting, *browser])
    if not wait_for_start(table, line, output, keys, signals, words):
        line.send(Leave())
        output.wait_idle(2.0)
        output.close()
        return 0
    cued, said_sounds = start_sounds(output, sounds=args.sounds == "on",
                                     volume=args.sound_volume, players=table.rules.players,
                                     place_voice=args.place_voice)
    shown = page_output(cued, sys.stdout) if args.web else None
    cued = shown or cued
    fresh = table.fresh()
    if not fresh:
        table.advance()  # the table as it stands: said as a resumed game says it
    pace = 0.4 if args.pace is None else args.pace  # play's pace for text, as app.py
    session = Session(table, Ports(cued, pacer=Pacer(output.is_busy, min_gap=pace)),
                      settings=GameSettings(rules=table.rules.name, seat=table.seat),
                      verbosity=verbosity, hints=hints(keymap),
                      hooks=InputHooks(help_text=lambda: help_text(keymap),
                                       key_help=key_help(keymap), key_list=key_lister(keymap)))
    signals.attach(session)
    keyboard = KeyboardInput(session, keymap)
    page, said_page = start_local_page(session, keyboard, shown, port=args.web_port,
                                       open_browser=args.open) if shown else (None, [])
    voice, said = start_voice_input(args, session, output, keymap, paths)
    session.notify([*said_page, *said_sounds, *said], urgent=False)
    if fresh:
        session.start(greeting=session.line("table.started"))
    else:
        session.start(resumed=True)
    try:
        return _played(session, keyboard, output, voice, line,
                       None if lines is None else lines.rest())
    finally:
        if page is not None:
            page.stop()


def _played(session: Session, keyboard: KeyboardInput, output: AnnouncerOutput,
            voice: VoiceRunning | None, line: Line, rest: Iterator[str] | None) -> int:
    if rest is not None:
        threading.Thread(target=lambda: keyboard.run_lines(rest), daemon=True,
                         name="keyboard").start()
        session.run()
        output.wait_idle(4.0)
        output.close()
    else:
        play(session, keyboard, output, True, voice)
    line.send(Leave())
    return 0


__all__ = ["LineKeys", "sit_and_play", "wait_for_start"]
