"""Stand-ins for the prism backends that cannot run here (NVDA, JAWS: Windows; VoiceOver:
macOS), at the one seam the game uses: :class:`~voice_spades.speech.screen_reader.ReaderBackend`
and :class:`~voice_spades.speech.choice.PrismSeam`.

:class:`FakeReader` behaves as those readers do as far as the game can see: ``speak``
queues text, the reader "speaks" each text for ``seconds_per_char`` per character on
a clock of its own, ``speaking`` says so where the real backend can, and ``stop``
empties its queue (NVDA's cancelSpeech and JAWS's StopSpeech drop everything queued).
It records what was heard whole, what was cut, and what went to braille.

:class:`ConsoleReader` is the other half of NVDA, JAWS and Orca: they also read new
console text by themselves. The game's output goes to a pseudo-terminal, and every
line that appears on it is "heard", as those readers speak new console text.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import TextIO

from prism import BackendFeatures


def features(*, speaking: bool = True, braille: bool = True, runtime: bool = True,
             rate: bool = False) -> BackendFeatures:
    """Features as prism reports them for NVDA (speaking, braille) or JAWS (neither)."""
    return BackendFeatures(is_supported_at_runtime=runtime, supports_speak=True,
                           supports_output=True, supports_stop=True,
                           supports_is_speaking=speaking, supports_braille=braille,
                           supports_get_rate=rate, supports_set_rate=rate)


class FakeReader:
    """A screen reader with its own queue (see module doc)."""

    def __init__(self, name: str = "NVDA", *, seconds_per_char: float = 0.004,
                 feats: BackendFeatures | None = None, fail_after: int | None = None,
                 speaking_error: Exception | None = None) -> None:
        self.name = name
        self.features = feats if feats is not None else features()
        self.rate = 0.5
        self.seconds_per_char = seconds_per_char
        self.heard: list[str] = []
        self.cut: list[str] = []
        self.brailled: list[str] = []
        self.spoken_calls: list[str] = []
        self.stops = 0
        self.max_queued = 0
        self._fail_after = fail_after
        self._speaking_error = speaking_error
        self._queue: list[tuple[str, float]] = []  # (text, end time once started)
        self._lock = threading.Lock()
        self.threads: set[str] = set()

    def _advance(self) -> None:
        now = time.monotonic()
        while self._queue:
            text, end = self._queue[0]
            if end > now:
                return
            self.heard.append(text)
            self._queue.pop(0)
            if self._queue:
                nxt = self._queue[0][0]
                self._queue[0] = (nxt, end + len(nxt) * self.seconds_per_char)

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.threads.add(threading.current_thread().name)
        with self._lock:
            if self._fail_after is not None and len(self.spoken_calls) >= self._fail_after:
                raise RuntimeError("Prism Error Code: backend not available")
            self._advance()
            if interrupt:
                self._stop()
            self.spoken_calls.append(text)
            start = time.monotonic() if not self._queue else 0.0
            self._queue.append((text, start + len(text) * self.seconds_per_char))
            self.max_queued = max(self.max_queued, len(self._queue))

    def output(self, text: str, interrupt: bool = False) -> None:
        self.speak(text, interrupt)
        self.brailled.append(text)

    def stop(self) -> None:
        self.threads.add(threading.current_thread().name)
        with self._lock:
            self._advance()
            self._stop()

    def _stop(self) -> None:
        self.stops += 1
        self.cut.extend(text for text, _ in self._queue[:1])
        self._queue.clear()

    @property
    def speaking(self) -> bool:
        if self._speaking_error is not None:
            raise self._speaking_error
        with self._lock:
            self._advance()
            return bool(self._queue)

    def wait_quiet(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                self._advance()
                if not self._queue:
                    return
            time.sleep(0.005)


@dataclass
class FakePrism:
    """prism's registry with the given backends; ``create`` of any other raises as
    prism does (``ValueError: Invalid or unsupported backend``). ``hang`` names
    backends whose creation never returns (a reader waiting on a run loop)."""

    backends: dict[str, FakeReader] = field(default_factory=dict)
    hang: set[str] = field(default_factory=set)
    created: list[str] = field(default_factory=list)

    def create(self, backend: str) -> FakeReader:
        self.created.append(backend)
        if backend in self.hang:
            threading.Event().wait(30)
        if backend not in self.backends:
            raise ValueError("Invalid or unsupported backend")
        return self.backends[backend]


class ConsoleReader:
    """A reader that reads the console by itself (see module doc): write to
    :attr:`stream`, a terminal; each line that appears on it is added to :attr:`heard`
    (the terminal's own line ends and empty lines are not read)."""

    def __init__(self) -> None:
        self._master, slave = os.openpty()
        self.stream: TextIO = os.fdopen(slave, "w", encoding="utf-8", buffering=1)
        self.heard: list[str] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True, name="console-reader")
        self._thread.start()

    def _read(self) -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(self._master, 4096)
            except OSError:  # the terminal was closed
                return
            if not chunk:
                return
            pending += chunk
            *lines, pending = pending.split(b"\n")
            with self._lock:
                self.heard += [text for raw in lines
                               if (text := raw.decode("utf-8").strip("\r"))]

    def settle(self, quiet: float = 0.2, timeout: float = 5.0) -> list[str]:
        """What was heard, once nothing new has come for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        count, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            with self._lock:
                now = len(self.heard)
            if now != count:
                count, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
            time.sleep(0.01)
        with self._lock:
            return list(self.heard)

    def close(self) -> None:
        """Close the terminal (the reading thread ends)."""
        self.stream.close()
        os.close(self._master)
        self._thread.join(timeout=2)
