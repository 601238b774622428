"""The keyboard input layer: key presses to session intents, from a terminal or from lines.

Every key first cuts the sentence being spoken, then goes on the session's queue;
the session decides what it means. Without a terminal (piped input, CI), standard
input is read a line at a time, each line being read once the game waits for the
player: a line holds key names or action names separated by spaces, ``#`` starts a
comment, and the end of input saves the game and quits.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from voice_spades.commands import Cancel, Chat, ChatStep, Intent, Propose
from voice_spades.keys.actions import ACTIONS
from voice_spades.keys.keymap import Keymap
from voice_spades.keys.names import key_label, parse_key
from voice_spades.keys.terminal import TerminalKeys
from voice_spades.session import InputEnded, KeyPress, Session
from voice_spades.table import LocalTable

_POLL = 0.2


class KeyboardInput:
    """Feeds one :class:`Session` from the keyboard, with ``keymap``'s bindings."""

    def __init__(self, session: Session, keymap: Keymap) -> None:
        self.session = session
        self.keymap = keymap
        self.made_at = time.perf_counter()
        """When the keyboard was set up: before the game said anything."""
        self.typing: list[str] | None = None
        """The chat message being typed, once the chat key opened the line (a shared
        table only); None while keys do their usual jobs."""

    # ----- one key ----------------------------------------------------------------
    def press(self, key: str, read_at: float | None = None) -> None:
        """A key was pressed: silence speech now, and queue what the key means.
        ``read_at`` is when a terminal read it (None for a key that cannot come early: a
        line of input, read once the game waits)."""
        if self.typing is None and self.session.watchers.take_line():
            self.typing = []  # voice said "chat": this key begins the message
        if self.typing is not None:
            self._type(key)
            return
        if self.keymap.action_for(key, False) == "chat" and \
                not isinstance(self.session.table, LocalTable):
            self.typing = []
        self.session.interrupt_speech()
        self.session.submit(KeyPress(key_label(key), lambda pending: self.intent(key, pending),
                                     read_at))

    def _type(self, key: str) -> None:
        """A key while a chat message is typed: Enter sends it, Escape drops it,
        Backspace takes back a character; a character key adds it."""
        assert self.typing is not None
        if key == "enter":
            text, self.typing = "".join(self.typing), None
            self.session.submit(Chat(ChatStep.SEND, text))
        elif key == "escape":
            self.typing = None
            self.session.submit(Cancel())
        elif key == "backspace":
            self.typing = self.typing[:-1]
        elif key == "space":
            self.typing.append(" ")
        elif len(key) == 1:
            self.typing.append(key)
        elif key.startswith("shift+") and len(key) == len("shift+") + 1:
            self.typing.append(key[-1].upper())

    def intent(self, key: str, question_pending: bool) -> Intent | Propose | None:
        """What ``key`` sends now, or None if nothing is bound to it."""
        action = self.keymap.action_for(key, question_pending)
        return ACTIONS[action] if action is not None else None

    def press_token(self, token: str) -> None:
        """A word from a line of input: a key name, else an action name."""
        try:
            key = parse_key(token)
        except ValueError:
            if token in ACTIONS:
                self.session.interrupt_speech()
                intent = ACTIONS[token]
                self.session.submit(KeyPress(token, lambda _pending: intent))
            else:
                self.session.submit(KeyPress(token, lambda _pending: None))
            return
        self.press(key)

    # ----- reading loops (each runs on its own thread) -----------------------
    def run_terminal(self, keys: TerminalKeys) -> None:
        """Read keys from a terminal until the session stops or input ends (or fails).
        Each key carries when it was read; keys already waiting when reading starts were
        typed while the game started, so they count as read when the keyboard was set up."""
        try:
            pressed = keys.read(0)
            read_at = self.made_at
            while pressed is not None and not self.session.stopped.is_set():
                for key in pressed:
                    self.press(key, read_at)
                pressed = keys.read(_POLL)
                read_at = time.perf_counter()
        except (OSError, ValueError):
            pass  # the terminal is gone: end as at the end of input
        if not self.session.stopped.is_set():
            self.session.submit(InputEnded())

    def run_lines(self, stream: Iterable[str]) -> None:
        """Read lines of key names, each once the game waits for the player."""
        try:
            for line in stream:
                if not self._wait_for_player():
                    return
                for token in line.split("#", 1)[0].split():
                    self.press_token(token)
        except (OSError, ValueError):
            pass  # unreadable input ends the game like the end of input
        if self._wait_for_player():
            self.session.submit(InputEnded())

    def _wait_for_player(self) -> bool:
        while not self.session.stopped.is_set():
            if self.session.waiting.wait(_POLL):
                return True
        return False
