"""Quitting by signal: Control-C, Control-backslash, kill and a closed terminal save and
quit between two steps of the session, never halfway through an action."""

from __future__ import annotations

import signal
import threading
from types import FrameType

from voice_spades.session.controller import Session

QUIT_SIGNALS = ("SIGINT", "SIGQUIT", "SIGTERM", "SIGHUP", "SIGBREAK")
"""Control-C, Control-backslash, kill and a closed terminal (and Control-Break on
Windows; each platform has only some of them): each saves and quits."""


class QuitSignals:
    """Control-C, Control-backslash, SIGTERM and SIGHUP save and quit between two steps
    of the session: the handler only sets a flag, so it never interrupts an action
    halfway, and the game ends the ordinary way (goodbye said, terminal restored).

    Installed before the game starts (on the main thread only): a signal that comes
    while it is starting quits as soon as the session runs.
    """

    def __init__(self) -> None:
        self.requested = False
        self.stopped = threading.Event()
        """Set by a quit signal (what a watching copy waits on)."""
        self.session: Session | None = None
        self._previous: dict[int, signal._HANDLER] = {}
        if threading.current_thread() is not threading.main_thread():
            return
        for name in QUIT_SIGNALS:
            signum = getattr(signal, name, None)
            if signum is not None:
                self._previous[signum] = signal.signal(signum, self._quit)

    def _quit(self, _signum: int, _frame: FrameType | None) -> None:
        self.requested = True
        self.stopped.set()
        if self.session is not None:
            self.session.stop_requested = True

    def attach(self, session: Session) -> None:
        """The session to stop (at once if a signal came already)."""
        self.session = session
        if self.requested:
            session.stop_requested = True

    def restore(self) -> None:
        """Put the previous handlers back."""
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
