"""``voice-spades --web``: the local game's page, started beside the terminal."""

from __future__ import annotations

import threading
import webbrowser
from typing import TextIO

from voice_spades.keys import KeyboardInput
from voice_spades.messages import Message
from voice_spades.session import Output, Session
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.web.access import new_token
from voice_spades.web.local_page import LocalPage
from voice_spades.web.page_app import PageServer
from voice_spades.web.page_output import PageOutput

MAX_PORT = 65535


def page_output(voiced: Output, stream: TextIO) -> PageOutput:
    """The session's output with a page: ``voiced`` as usual, printed lines only on
    ``stream`` while the page's screen reader switch is on."""
    return PageOutput(voiced, AnnouncerOutput(Announcer(stream=stream)))


def start_local_page(session: Session, keyboard: KeyboardInput, output: PageOutput, *,
                     port: int = 0, open_browser: bool = False
                     ) -> tuple[PageServer | None, list[Message]]:
    """Serve the session's table on 127.0.0.1 (``port``, 0 for a free one) and say
    where; open the default browser on it when asked. A port that cannot be had is
    said, and the game goes on in the terminal."""
    if not 0 <= port <= MAX_PORT:
        return None, [Message("web.bad_port", port=port, high=MAX_PORT)]
    page = LocalPage(session, keyboard, output)
    try:
        server = PageServer(page, new_token(), port).start()
    except (OSError, RuntimeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        return None, [Message("web.port_busy", port=port, error=str(reason).rstrip("."))]
    output.said = page.said
    session.watch(page.watch)
    said = [Message("web.address", address=server.address)]
    if open_browser:
        opened = threading.Event()
        # webbrowser.open waits for some browsers to start: never on the game's thread.
        thread = threading.Thread(target=lambda: opened.set() if webbrowser.open(
            server.address) else None, daemon=True, name="voice-spades-browser")
        thread.start()
        thread.join(2.0)
        if not thread.is_alive() and not opened.is_set():
            said.append(Message("web.no_browser", address=server.address))
    return server, said
