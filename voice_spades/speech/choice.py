"""Which speech the game uses: ``--speech auto|screen-reader|voice|text``.

:func:`choose_speech` tries, in order, the player's screen reader (``auto`` and
``screen-reader``), the game's own voice, and plain text lines, and returns the first
that works with the notices to say at the start: one sentence for each failure, then
which speech was chosen (``auto``, or a fallback). Nothing is said when the speech
asked for works at once, except in ``auto``, which always says what it chose.

A screen reader is used only when it is really running, checked three ways, because
prism's own checks are not enough (its upstream issue #49: the NVDA backend reported
itself available with NVDA not running, so "best backend" picked it and speech was
lost): its process is in the process list (:func:`running_processes`, the seam the
tests fake); prism creates and initializes the backend for it by id (never
``create_best``, which on Linux raises ``ValueError`` with no speech-dispatcher and
may pick a plain synthesizer); and the backend says it is supported at run time and,
where it can, answers whether it is speaking. Creation runs on a helper thread with a
time limit (:data:`CREATE_TIMEOUT`): a backend that waits on a run loop a terminal
program does not have (VoiceOver, AVSpeech) or a reader that hangs is a failure, not
a frozen game.

What each desktop gets:

* Windows: NVDA or JAWS through their own APIs. Narrator cannot be reached from a
  console program (prism reaches it only through UI Automation from a window).
* macOS: VoiceOver cannot be reached from a terminal program (prism needs an AppKit
  window and run loop); ``--speech text`` lets VoiceOver read the printed lines.
* Linux: Orca through its D-Bus service (Orca 49 and later), else through Speech
  Dispatcher, which Orca speaks through. ``--speech screen-reader`` with no Orca
  running speaks through Speech Dispatcher (the desktop's speech service). Speech
  Dispatcher is spoken to directly (:mod:`.speechd_client`), not through prism, whose
  backend lists the daemon's 13,362 voices before its first line.

Every one of those readers also reads new console text by itself, so a line both
printed and sent to it is heard twice. With one of them running, ``auto`` and
``screen-reader`` give each line one way, :data:`READER_LINES`: by default it is
spoken through the reader and not printed (:attr:`Choice.print_lines`), so the game's
rules hold (a key cuts only the line being said, a game event is never dropped
unheard: a reader reading the console drops the lines it had not read yet when a key
silences it); ``--reader-lines console`` prints it for the reader to read (no speech
of the game's at all, prism not even loaded). A reader that cannot take speech from a
terminal program (Narrator, VoiceOver), or whose backend does not start, is left to
read the printed lines: a second voice would say every line twice.
"""

from __future__ import annotations

import functools
import importlib
import logging
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from voice_spades.errors import SetupError, SpadesError
from voice_spades.messages import Message
from voice_spades.speech.base import Speaker
from voice_spades.speech.screen_reader import ReaderBackend, ScreenReaderSpeaker
from voice_spades.speech.speechd_client import SpeechdBackend

_log = logging.getLogger(__name__)

MODES = ("auto", "screen-reader", "voice", "text")
READER_LINES = ("console", "speech")
"""What the game does with a screen reader that reads the console by itself (NVDA,
JAWS, Orca, Narrator, VoiceOver), so that each line reaches the player once: with
``console`` it prints each line and sends the reader no speech (the reader reads the
new text, and its braille follows the console); with ``speech`` it speaks each line
through the reader (a key cuts only the line being said, an event cut is said again
after the answer, braille goes through the reader where it has braille) and does not
print it (the history keys still step through every line)."""
CREATE_TIMEOUT = 15.0
"""Seconds a screen reader's backend may take to start (prism's own Speech Dispatcher
backend took 1.5-4 s, listing the daemon's 13,362 voices; the game's takes
milliseconds)."""
PROCESS_TIMEOUT = 5.0

Notice = Message | SpadesError
VoiceStarter = Callable[[], tuple[Speaker, list[Notice]]]
"""Starts the game's own voice: the speaker and any notice (a voice name not found);
raises SetupError when there is no voice."""


@dataclass(frozen=True, slots=True)
class Reader:
    """A screen reader the game knows: its name, its processes (lower case), the
    prism backends (``prism.BackendId`` names) to try, best first (none means it
    cannot be reached from a terminal program), and whether it reads new console text
    by itself."""

    name: str
    processes: tuple[str, ...]
    backends: tuple[str, ...]
    reads_console: bool = True


READERS: dict[str, tuple[Reader, ...]] = {
    "win32": (Reader("NVDA", ("nvda.exe",), ("NVDA",)),
              Reader("JAWS", ("jfw.exe",), ("JAWS",)),
              Reader("Narrator", ("narrator.exe",), ())),
    "darwin": (Reader("VoiceOver", ("voiceover",), ()),),
    "linux": (Reader("Orca", ("orca",), ("ORCA", "SPEECH_DISPATCHER")),),
}
"""The readers looked for on each platform, in order."""
SYSTEM_SPEECH: dict[str, Reader] = {
    "linux": Reader("Speech Dispatcher", (), ("SPEECH_DISPATCHER",), reads_console=False),
}
"""What ``--speech screen-reader`` speaks through when no reader runs."""


class PrismSeam(Protocol):
    """prism's registry, as the choice uses it (tests fake it for Windows and macOS)."""

    def create(self, backend: str) -> ReaderBackend:
        """Create and initialize the backend named ``backend``; raise if it cannot."""
        ...


class PrismLibrary:
    """The real :class:`PrismSeam`: a ``prism.Context``. Raises ImportError or OSError
    when prismatoid is missing or its native library does not load."""

    def __init__(self) -> None:
        prism = importlib.import_module("prism")  # untyped; loads a native library
        self._prism: Any = prism
        self._context: Any = prism.Context()

    def create(self, backend: str) -> ReaderBackend:
        """``Context.create`` by id, after checking the backend is compiled in."""
        backend_id = self._prism.BackendId[backend]
        if not self._context.exists(backend_id):
            raise LookupError(f"prism has no {backend} backend here")
        created: ReaderBackend = self._context.create(backend_id)
        return created


OWN_BACKENDS: dict[str, Callable[[], ReaderBackend]] = {"SPEECH_DISPATCHER": SpeechdBackend}
"""The backends the game speaks to itself, by prism's name for them: they need no prism
(a missing prismatoid costs only the readers that do)."""


@dataclass
class Choice:
    """The speech chosen: ``speaker`` (None for text), its ``kind`` (a mode other than
    auto), the ``notices`` to say at the start, and whether lines are printed (not
    while a reader that reads the console speaks them: :data:`READER_LINES`)."""

    speaker: Speaker | None
    kind: str
    notices: list[Notice] = field(default_factory=list)
    print_lines: bool = True


def running_processes(platform: str = sys.platform) -> set[str]:
    """The names (lower case) of the processes running now; empty if they cannot be
    listed."""
    try:
        if platform == "win32":
            listing = subprocess.run(["tasklist", "/fo", "csv", "/nh"], capture_output=True,
                                     text=True, timeout=PROCESS_TIMEOUT, check=False)
            return {line.split('","')[0].strip('"').lower()
                    for line in listing.stdout.splitlines() if line}
        if platform == "darwin":
            listing = subprocess.run(["ps", "-axco", "comm="], capture_output=True,
                                     text=True, timeout=PROCESS_TIMEOUT, check=False)
            return {line.strip().lower() for line in listing.stdout.splitlines()}
        names = set()
        for comm in Path("/proc").glob("[0-9]*/comm"):
            try:
                names.add(comm.read_text(encoding="utf-8", errors="replace").strip().lower())
            except OSError:
                continue  # the process ended meanwhile
        return names
    except (OSError, subprocess.SubprocessError):
        return set()


def start_own_speaker(rate: int | None, voice: str | None) -> Speaker:
    """The game's own voice (pyttsx3 on the sound card), or SetupError saying why there
    is none."""
    try:
        from voice_spades.speech.pyttsx3_speaker import make_speaker
    except ImportError as exc:  # a broken install: say so, carry on in text
        raise SetupError("speech.broken_install", error=str(exc)) from exc
    return make_speaker(rate, voice)


def choose_speech(mode: str | None, voice: VoiceStarter, *, platform: str = sys.platform,
                  processes: Callable[[], set[str]] = running_processes,
                  prism: Callable[[], PrismSeam] = PrismLibrary,
                  reader_lines: str = "speech") -> Choice:
    """The speech for ``mode`` (None is ``auto``), with what to say about it; a running
    reader that reads the console is given the lines as ``reader_lines`` says
    (:data:`READER_LINES`)."""
    mode = mode or "auto"
    if mode not in MODES or reader_lines not in READER_LINES:
        raise ValueError(mode if mode not in MODES else reader_lines)
    if mode == "text":
        return Choice(None, "text")
    notices: list[Notice] = []
    if mode in ("auto", "screen-reader"):
        running = processes()
        reading = next((r for r in _running(platform, running) if r.reads_console), None)
        if reading is not None and reader_lines == "console":
            return Choice(None, "console",
                          [Message("speech_choice.reader_reads_console", reader=reading.name)])
        if reading is not None and not reading.backends:
            return Choice(None, "console",
                          [Message("speech_choice.reader_reads_lines", reader=reading.name)])
        reader = _screen_reader(mode, platform, running, prism, notices)
        if reader is not None:
            if mode == "auto" or notices:
                notices.append(Message("speech_choice.using_reader", reader=reader.reader))
            return Choice(reader, "screen-reader", notices,
                          print_lines=not reader.reads_console)
        if reading is not None:  # it could not be spoken through, but it reads the console
            return Choice(None, "console", [
                *notices, Message("speech_choice.reader_reads_lines", reader=reading.name)])
    try:
        speaker, said = voice()
    except SetupError as error:
        return Choice(None, "text", [*notices, error])  # its sentence says: text from now
    notices += said
    if mode != "voice" or notices:
        notices.append(Message("speech_choice.using_voice"))
    return Choice(speaker, "voice", notices)


def _running(platform: str, running: set[str]) -> list[Reader]:
    """The readers of ``platform`` whose process is in ``running``, in order."""
    return [r for r in READERS.get(_family(platform), ())
            if any(p in running for p in r.processes)]


def _screen_reader(mode: str, platform: str, running: set[str],
                   prism: Callable[[], PrismSeam],
                   notices: list[Notice]) -> ScreenReaderSpeaker | None:
    readers = _running(platform, running)
    if not readers and mode == "screen-reader":
        system = SYSTEM_SPEECH.get(_family(platform))
        if system is None:
            notices.append(Message("speech_choice.reader_not_running"))
        else:
            readers = [system]
    if not readers:
        return None
    library = _Loader(prism, notices)
    for reader in readers:
        if not reader.backends:
            notices.append(Message("speech_choice.reader_console", reader=reader.name))
            continue
        speaker = _start_reader(reader, library)
        if speaker is not None:
            return speaker
        if library.failed and not set(reader.backends) & set(OWN_BACKENDS):
            return None  # prism did not load: its sentence says why
        notices.append(Message("speech_choice.reader_unreachable", reader=reader.name)
                       if reader.processes else Message("speech_choice.no_system_speech"))
    return None


class _Loader:
    """prism, loaded when a backend of its is first tried, once; a failure to load is
    one notice."""

    def __init__(self, prism: Callable[[], PrismSeam], notices: list[Notice]) -> None:
        self._prism, self._notices = prism, notices
        self._library: PrismSeam | None = None
        self.failed = False

    def get(self) -> PrismSeam | None:
        """The library, or None when it did not load."""
        if self._library is None and not self.failed:
            try:
                self._library = self._prism()
            except Exception as error:  # ImportError, OSError, RuntimeError from prism
                _log.info("prism did not load: %r", error)
                self._notices.append(Message("speech_choice.no_library"))
                self.failed = True
        return self._library


def _start_reader(reader: Reader, library: _Loader) -> ScreenReaderSpeaker | None:
    for backend_name in reader.backends:
        own = OWN_BACKENDS.get(backend_name)
        loaded = None if own is not None else library.get()
        if own is not None:
            backend = _create(own, backend_name)
        elif loaded is not None:
            backend = _create(functools.partial(loaded.create, backend_name), backend_name)
        else:
            backend = None
        if backend is not None and _answers(backend):
            return ScreenReaderSpeaker(backend, reader.name, reads_console=reader.reads_console)
    return None


def _create(make: Callable[[], ReaderBackend], backend_name: str) -> ReaderBackend | None:
    """Create a backend on a helper thread, giving up after :data:`CREATE_TIMEOUT`."""
    result: list[ReaderBackend] = []

    def create() -> None:
        try:
            result.append(make())
        except Exception as error:  # ValueError, LookupError, PrismError...
            _log.info("prism backend %s not available: %r", backend_name, error)

    worker = threading.Thread(target=create, daemon=True, name=f"prism-{backend_name}")
    worker.start()
    worker.join(CREATE_TIMEOUT)
    if worker.is_alive():
        _log.info("prism backend %s did not start in %s s", backend_name, CREATE_TIMEOUT)
        return None
    return result[0] if result else None


def _answers(backend: ReaderBackend) -> bool:
    """True when the backend says it works now (and answers whether it speaks)."""
    try:
        features = backend.features
        if not features.is_supported_at_runtime or not features.supports_speak:
            return False
        if features.supports_is_speaking:
            bool(backend.speaking)
    except Exception as error:
        _log.info("prism backend %s does not answer: %r", backend.name, error)
        return False
    return True


def _family(platform: str) -> str:
    return "linux" if platform.startswith(("linux", "freebsd")) else platform
