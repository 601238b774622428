"""A friend's seat played in a browser at a table of this server.

The browser speaks to the server's page route, never to the table protocol itself:
for each page, :class:`FriendSeat` opens the protocol's own client (a
:class:`RemoteTable` over a :class:`~voice_spades.client.line.Line`, on loopback to this
same server), so the friend's seat is exactly one more client of the protocol, sent only
that seat's view. A session over it, on a thread of its own speaking the friend's
language (:func:`~voice_spades.narration.catalog.speaking`), words the game; the page
shows its lines and table as the local page does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from voice_spades.client.line import Line, open_line
from voice_spades.client.remote_table import RemoteTable
from voice_spades.keys import KeyboardInput, help_text, hints, key_help, key_lister, load_keymap
from voice_spades.messages import Message
from voice_spades.narration.catalog import Catalog, catalog, speaking
from voice_spades.protocol.wire import NAME_MAX, Chat, Join, Leave
from voice_spades.session import GameSettings, InputEnded, InputHooks, Pacer, Ports, Session
from voice_spades.web.local_page import LocalPage
from voice_spades.web.page_clients import PageClients
from voice_spades.web.page_output import PageOutput, SilentOutput
from voice_spades.web.page_state import Json

START_POLL = 0.1
"""Seconds between looks at a table whose match has not started."""
PACE = 0.4
"""Seconds between the computer players' moves as the page shows them (play's pace for
text)."""


def joined(url: str, language: str, code: str, seat: int | None, watch: bool,
           name: str, address: str) -> tuple[Line, RemoteTable] | Message:
    """A line to the table ``code`` at ``url`` for the browser at ``address``, seated
    (or watching); else why not."""
    name = " ".join(name.split())[:NAME_MAX] or catalog(language).render("web.friend_name")
    line, table = open_line(url, name, Join(code.strip(), seat=seat, watch=watch),
                            language=language, for_address=address)
    refusal = table.errors[0] if table.token is None and table.errors else line.failure
    if refusal is not None or not table.seated:
        line.close()
        return refusal or Message("table.unreachable", address=url)
    return line, table


class FriendSeat:
    """One browser's seat: the page's table once the match has started, and what the
    table says (who sits down, the wait for the host) before."""

    def __init__(self, line: Line, table: RemoteTable, language: str,
                 pace: float = PACE) -> None:
        self.line = line
        self.pace = pace
        self.table = table
        self.language = language
        self.words: Catalog = catalog(language)
        self.clients = PageClients()
        self.page: LocalPage | None = None
        self.session: Session | None = None
        self._left = threading.Event()
        self._lines: list[str] = []
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="voice-spades-browser-seat")

    def start(self) -> FriendSeat:
        """Wait for the match, then play it, on the seat's own thread."""
        self._thread.start()
        return self

    # ----- the seat's thread --------------------------------------------------------
    def _run(self) -> None:
        with speaking(self.language):
            greeting = Message("table.watching" if self.table.my_seat is None
                               else "table.joined", code=self.table.code)
            self._note(greeting)
            if not self.table.started:
                self._note(Message("table.waiting_start"))
            while not (self.table.started and self.table.ready.is_set()):
                for note in self.table.notes():
                    self._note(note.message)
                if self._left.wait(START_POLL):
                    return
            self._play()

    def _play(self) -> None:
        keymap = load_keymap(None)
        output = PageOutput(SilentOutput(), SilentOutput())
        fresh = self.table.fresh()
        if not fresh:
            self.table.advance()  # the table as it stands, said as a resumed game
        session = Session(self.table, Ports(output, pacer=Pacer(lambda: False, min_gap=self.pace)),
                          settings=GameSettings(rules=self.table.rules.name,
                                                seat=self.table.seat),
                          hints=hints(keymap),
                          hooks=InputHooks(help_text=lambda: help_text(keymap),
                                           key_help=key_help(keymap),
                                           key_list=key_lister(keymap)))
        page = LocalPage(session, KeyboardInput(session, keymap), output,
                         clients=self.clients, language=self.language)
        output.said = page.said
        self.session, self.page = session, page
        session.watch(page.watch)
        if fresh:
            session.start(greeting=session.line("table.started"))
        else:
            session.start(resumed=True)
        if self._left.is_set():
            return
        session.run()

    def _note(self, message: Message) -> None:
        text = self.words.render_message(message)
        self._lines.append(text)
        self.clients.send(self._lobby([text]))

    def _lobby(self, texts: list[str]) -> Json:
        return {"t": "lobby", "language": self.language, "lines": texts}

    # ----- the page (the page server's threads) -------------------------------------
    def hello(self) -> Json:
        """The keys the page sends, and the texts its script says."""
        keymap = load_keymap(None)
        return {"t": "hello", "keys": LocalPage.keys_of(keymap), "language": self.language,
                "chat_keys": keymap.keys_for("chat"),
                "texts": {"connection_lost": self.words.render("web.connection_lost")}}

    def state(self, lines: list[Json] | None = None) -> Json:
        """The table now; before the match, what was said while waiting."""
        page = self.page
        return page.state(lines) if page is not None else self._lobby(list(self._lines))

    def _to_page(self, act: Callable[[LocalPage], None]) -> None:
        page = self.page
        if page is not None:
            act(page)

    def press(self, key: str) -> None:
        """A key pressed in the page."""
        self._to_page(lambda page: page.press(key))

    def play(self, code: str) -> None:
        """A card clicked."""
        self._to_page(lambda page: page.play(code))

    def bid(self, tricks: int) -> None:
        """A bid button."""
        self._to_page(lambda page: page.bid(tricks))

    def chat(self, text: str) -> None:
        """A message typed in the page, for the table: through the page's game once the
        match is on, straight down the line while the friend waits for it."""
        page = self.page
        if page is not None:
            page.chat(text)
        else:
            self.line.send(Chat(text))

    def set_reader(self, on: bool) -> None:
        """No voice of the game's here: nothing to silence."""

    def rendered(self, seq: int) -> None:
        """The page showed a state (the bench's round trip)."""
        self._to_page(lambda page: page.rendered(seq))

    def closed(self) -> None:
        """The page went: leave the table (a bot plays the seat after the grace period)."""
        self._left.set()
        session = self.session
        if session is not None:
            session.submit(InputEnded())
        self.line.send(Leave())
        self.line.close()
