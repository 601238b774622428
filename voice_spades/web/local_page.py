"""The local game's table as its pages see it (``voice-spades --web``).

A page is one more input and output of the one session: its keys go through the same
:class:`KeyboardInput` as the terminal's (so a key in either acts once, on the session's
queue, in order), and it is sent the table after every change the session publishes
(:meth:`Session.watch`) and every line the session says.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from voice_spades.commands import Act, Chat, ChatStep
from voice_spades.engine import Bid, Card
from voice_spades.errors import InvalidInputError
from voice_spades.keys import KeyboardInput, Keymap
from voice_spades.keys.names import key_label, parse_key
from voice_spades.narration import Line
from voice_spades.narration.catalog import active_language, catalog, speaking
from voice_spades.session import KeyPress, Session
from voice_spades.table import TableSnapshot
from voice_spades.web.page_clients import PageClients
from voice_spades.web.page_output import PageOutput
from voice_spades.web.page_state import Cursor, Json, PageLog, PageWords, page_state

STAMPS_KEPT = 512
"""Sequence numbers whose sending time is kept for the bench's round trips."""


class LocalPage:
    """The pages showing the local session's table."""

    def __init__(self, session: Session, keyboard: KeyboardInput,
                 output: PageOutput | None = None, *, clients: PageClients | None = None,
                 language: str | None = None) -> None:
        self.session = session
        self.keyboard = keyboard
        self.output = output
        self.clients = clients or PageClients()
        self.language = language
        """The page's language (None: the game's)."""
        self.log = PageLog()
        self.keys = self.keys_of(keyboard.keymap)
        self.ack = False
        """True to ask pages to say when they have shown each state (``bench web``)."""
        self.delays: list[float] = []
        """Seconds from each change of the table to a page showing it, while :attr:`ack`."""
        self._seq = 0
        self._lock = threading.Lock()
        self.stamps: dict[int, float] = {}
        """When the table changed (``time.perf_counter``), by the sequence number of the
        state that shows it (the recent ones)."""
        self.changes = 0
        """States sent that show a change of the table."""

    @staticmethod
    def keys_of(keymap: Keymap) -> list[str]:
        """Every key the keymap binds (the page sends only these, leaving Tab and the
        browser's own keys to the browser)."""
        return sorted({key for section in keymap.bindings.values()
                       for keys in section.values() for key in keys
                       if key not in ("tab", "shift+tab")})

    # ----- from the session (its thread) ------------------------------------------
    def watch(self, snapshot: TableSnapshot) -> None:
        """The session's watcher: the table changed."""
        self.publish(at=time.perf_counter())

    def said(self, lines: Sequence[Line]) -> None:
        """Lines the session said: into the log, and to the pages."""
        with self._lock:
            added = self.log.add(lines)
        self.publish(added)

    def publish(self, lines: Sequence[Json] = (), at: float | None = None) -> None:
        """Send every page the table now (with ``lines``, new in the log); ``at``: when
        the table changed, if it did."""
        if not len(self.clients):
            return
        self.clients.send(self.state(lines, at))

    def state(self, lines: Sequence[Json] | None = None, at: float | None = None) -> Json:
        """The table now for a page; ``lines`` new in the log (None: the whole log, for
        a page that has just connected); ``at``: when the table changed, if it did."""
        context = self.session.context()
        words = PageWords(catalog(self.language), context.view,
                          None if self.session.table.watching else self.session.human)
        with self._lock:
            self._seq += 1
            seq = self._seq
            if at is not None:
                self.changes += 1
                self.stamps[seq] = at
                if len(self.stamps) > STAMPS_KEPT:
                    del self.stamps[min(self.stamps)]
            shown = self.log.lines if lines is None else lines
            state = page_state(context.view, Cursor(context.cursor, context.marked,
                                                    context.question, context.typed_bid),
                               words, seq=seq, over=context.over, lines=shown,
                               watching=self.session.table.watching)
        state["reader"] = self.output is not None and self.output.reader
        state["full_log"] = lines is None
        return state

    def hello(self) -> Json:
        """What a page is told first: the keys it sends, and the texts its script says."""
        words = catalog(self.language)
        return {"t": "hello", "keys": self.keys, "language": words.language,
                "ack": self.ack, "chat_keys": self.keyboard.keymap.keys_for("chat"),
                "texts": {"connection_lost": words.render("web.connection_lost")}}

    # ----- from a page (the page server's thread) ----------------------------------
    def press(self, key: str) -> None:
        """A key pressed in a page, exactly as the terminal's (a key that cannot be
        named is said as unknown)."""
        with speaking(self.language or active_language()):
            try:
                name = parse_key(key)
            except InvalidInputError:
                self.session.submit(KeyPress(key[:20], lambda _pending: None))
                return
            self.keyboard.press(name, time.perf_counter())

    def play(self, code: str) -> None:
        """A card clicked or touched: play it (the session says why not, if it may not)."""
        try:
            card = Card.parse(code)
        except (InvalidInputError, ValueError):
            return
        self.session.interrupt_speech()
        self.session.submit(KeyPress(str(card), lambda _pending: Act(card)))

    def bid(self, tricks: int) -> None:
        """A bid button: make that bid (the session says why not, if it may not)."""
        if not 0 <= tricks <= 13:
            return
        self.session.interrupt_speech()
        with speaking(self.language or active_language()):
            label = key_label("b")
        self.session.submit(KeyPress(label, lambda _pending: Act(Bid(tricks))))

    def set_reader(self, on: bool) -> None:
        """The page's screen reader switch."""
        if self.output is not None:
            self.output.set_reader(on)
        self.publish()

    def chat(self, text: str) -> None:
        """A message typed in the page: sent to the table as the chat key's line sends
        it (a local table says there is no one to talk to)."""
        self.session.submit(Chat(ChatStep.SEND, text))

    def rendered(self, seq: int) -> None:
        """A page has shown state ``seq``: the time since the change it shows is kept
        (while :attr:`ack`)."""
        at = time.perf_counter()
        with self._lock:
            start = self.stamps.pop(seq, None)
            if self.ack and start is not None:
                self.delays.append(at - start)

    def closed(self) -> None:
        """A page went away (the game goes on in the terminal)."""
