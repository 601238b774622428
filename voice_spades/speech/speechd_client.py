"""Speech Dispatcher spoken to directly, over its own protocol (SSIP), for the screen
reader speaker.

prism's Speech Dispatcher backend lists every voice of the daemon when it connects
(13,362 with espeak-ng's variants: 1.5 s on an idle machine, 3.6 s from launch to the
first sentence on a loaded one) and cannot say when a line is done. The game needs
neither the list (the voice is the player's) nor a guess: :class:`SpeechdBackend`
connects in milliseconds (a socket and three commands), asks for the daemon's events, and
knows a line is done when the daemon says it ended or was cancelled. Its ``stop``
cancels every line of the game's still in the daemon (SSIP ``CANCEL self``), so no
line can play after a key. It implements the
:class:`~voice_spades.speech.screen_reader.ReaderBackend` protocol, so the
:class:`~voice_spades.speech.screen_reader.ScreenReaderSpeaker` uses it as it uses a
prism backend.

The daemon is found as libspeechd finds it: ``SPEECHD_ADDRESS`` (``unix_socket:PATH``
or ``inet_socket:HOST:PORT``), else the user's socket,
``$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock``; a daemon not running there is
started as libspeechd starts it (``speech-dispatcher --spawn``).
"""

from __future__ import annotations

import contextlib
import getpass
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPLY_TIMEOUT = 5.0
"""Seconds the daemon may take to answer a command before it is taken as gone."""
SPAWN_TIMEOUT = 5.0
"""Seconds a daemon started by the game may take to open its socket."""
STARTING_WAIT = 1.0
"""Seconds to keep knocking at a socket that is there but refuses (a daemon between
making its socket and listening on it)."""
NEWLINE = "\r\n"
SETTLING = ("702", "703")
"""The SSIP events that settle a line: it ended, or was cancelled (701 is its begin;
index marks, pause and resume are not asked for)."""


class SpeechdError(OSError):
    """The daemon cannot be reached, refused a command, or went away."""


@dataclass(frozen=True, slots=True)
class Features:
    """What the backend can do, under the names of a ``prism.BackendFeatures``."""

    is_supported_at_runtime: bool = True
    supports_speak: bool = True
    supports_output: bool = True
    supports_braille: bool = False
    supports_is_speaking: bool = True
    supports_stop: bool = True
    supports_get_rate: bool = True
    supports_set_rate: bool = True


@dataclass(frozen=True, slots=True)
class Address:
    """Where the daemon listens: a unix socket ``path``, or ``host`` and ``port``."""

    path: str | None = None
    host: str | None = None
    port: int = 6560
    default: bool = False
    """True when no address was given: the daemon may be started there."""


def daemon_address(environ: dict[str, str] | None = None) -> Address:
    """The daemon's address, as libspeechd reads it (see the module text).

    >>> daemon_address({"SPEECHD_ADDRESS": "unix_socket:/run/s.sock"}).path
    '/run/s.sock'
    >>> daemon_address({"SPEECHD_ADDRESS": "inet_socket:localhost:7000"}).port
    7000
    >>> daemon_address({"XDG_RUNTIME_DIR": "/run/user/5"})
    Address(path='/run/user/5/speech-dispatcher/speechd.sock', host=None, port=6560, default=True)
    """
    env = os.environ if environ is None else environ
    given = env.get("SPEECHD_ADDRESS", "").strip()
    method, _, rest = given.partition(":")
    if method == "unix_socket" and rest:
        return Address(path=rest)
    if method == "inet_socket":
        host, _, port = rest.partition(":")
        return Address(host=host or "127.0.0.1", port=int(port) if port.isdigit() else 6560)
    runtime = env.get("XDG_RUNTIME_DIR") or str(Path.home() / ".cache")
    return Address(path=str(Path(runtime) / "speech-dispatcher" / "speechd.sock"),
                   default=True)


def _connect(address: Address) -> socket.socket:
    deadline = time.monotonic() + STARTING_WAIT
    while True:
        try:
            return _connect_once(address)
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _connect_once(address: Address) -> socket.socket:
    if address.path is None:
        sock = socket.create_connection((address.host or "127.0.0.1", address.port),
                                        REPLY_TIMEOUT)
        sock.settimeout(None)
        return sock
    if sys.platform == "win32":
        raise SpeechdError("no unix sockets here")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(address.path)
    except OSError:
        sock.close()
        raise
    return sock


def _spawn(address: Address) -> socket.socket:
    """Start the user's daemon as libspeechd does, and connect once its socket opens."""
    program = shutil.which("speech-dispatcher")
    if program is None or address.path is None:
        raise SpeechdError("no speech-dispatcher to start")
    subprocess.run([program, "--spawn", "--communication-method", "unix_socket",
                    "--socket-path", address.path], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=SPAWN_TIMEOUT, check=False)
    deadline = time.monotonic() + SPAWN_TIMEOUT
    while True:
        try:
            return _connect(address)
        except OSError as error:
            if time.monotonic() > deadline:
                raise SpeechdError("speech-dispatcher did not start") from error
            time.sleep(0.05)


class SpeechdBackend:
    """A connection to Speech Dispatcher (see the module text); raises
    :class:`SpeechdError` (an OSError) when the daemon cannot be reached."""

    name = "Speech Dispatcher"
    features = Features()

    def __init__(self, address: Address | None = None) -> None:
        address = address if address is not None else daemon_address()
        try:
            self._socket = _connect(address)
        except OSError as error:
            if not address.default:
                raise SpeechdError(f"speech-dispatcher is not at {address}") from error
            self._socket = _spawn(address)
        self._replies: queue.Queue[tuple[str, str, list[str]] | None] = queue.Queue()
        self._command = threading.RLock()
        self._state = threading.Lock()
        self._unsettled: set[str] = set()
        """The ids of the lines sent and not yet ended or cancelled."""
        self._settled: set[str] = set()
        self._last: str | None = None
        """The id of the line sent last: the one "speaking" is about (a line whose end
        never came cannot hold up the next)."""
        self._sending = False
        self._closed = False
        self._reader = threading.Thread(target=self._read, daemon=True, name="speechd-client")
        self._reader.start()
        try:
            self._ask(f"SET self CLIENT_NAME {_user()}:voice_spades:game")
            self._ask("SET self NOTIFICATION end on")
            self._ask("SET self NOTIFICATION cancel on")
        except BaseException:
            self.close()
            raise

    # --- the ReaderBackend protocol -------------------------------------------------

    @property
    def speaking(self) -> bool:
        """True from a line's sending until the daemon says it ended or was cancelled."""
        with self._state:
            return self._sending or self._last in self._unsettled

    @property
    def rate(self) -> float:
        """The daemon's rate for the game, 0 (slowest) to 1 (fastest; 0.5 its default)."""
        _, _, data = self._ask("GET RATE")
        return (int(data[0]) + 100) / 200 if data else 0.5

    @rate.setter
    def rate(self, fraction: float) -> None:
        value = round(max(0.0, min(1.0, fraction)) * 200 - 100)
        self._ask(f"SET self RATE {value}")

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Send ``text`` to be said (after cancelling the game's lines if ``interrupt``)."""
        if interrupt:
            self.stop()
        lines = [("." + line) if line.startswith(".") else line
                 for line in text.replace("\r", " ").split("\n")]
        with self._state:
            self._sending = True
        try:
            with self._command:  # the text follows its SPEAK, nothing between
                self._ask("SPEAK")
                _, _, data = self._ask(NEWLINE.join(lines) + NEWLINE + ".")
            with self._state:
                for message in data[:1]:
                    ended_first = message in self._settled  # its end came before its id
                    self._last = message
                    self._unsettled.clear()
                    self._settled.clear()
                    if not ended_first:
                        self._unsettled.add(message)
        finally:
            with self._state:
                self._sending = False

    def output(self, text: str, interrupt: bool = False) -> None:
        """As :meth:`speak` (the daemon has no braille)."""
        self.speak(text, interrupt)

    def stop(self) -> None:
        """Cancel every line of the game's, the one playing and any waiting in the
        daemon; the daemon's events then settle them."""
        self._ask("CANCEL self")

    def close(self) -> None:
        """Say goodbye and close the connection."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._socket.sendall(b"QUIT" + NEWLINE.encode())
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)
        self._socket.close()
        if threading.current_thread() is not self._reader:
            self._reader.join(timeout=1.0)

    # --- the protocol -------------------------------------------------------------

    def _ask(self, command: str) -> tuple[str, str, list[str]]:
        """Send one command (or a line's text) and wait for its reply."""
        with self._command:
            if self._closed:
                raise SpeechdError("the connection to speech-dispatcher is closed")
            try:
                self._socket.sendall((command + NEWLINE).encode("utf-8"))
                reply = self._replies.get(timeout=REPLY_TIMEOUT)
            except (OSError, queue.Empty) as error:
                raise SpeechdError("speech-dispatcher does not answer") from error
            if reply is None:
                raise SpeechdError("speech-dispatcher went away")
            code, message, _ = reply
            if not code.startswith("2"):
                raise SpeechdError(f"speech-dispatcher refused {command.split()[0]!r}: "
                                   f"{code} {message}")
            return reply

    def _read(self) -> None:
        """Read the daemon's replies and events until the connection ends."""
        buffer = b""
        data: list[str] = []
        try:
            while True:
                chunk = self._socket.recv(4096)
                if not chunk:
                    break
                buffer += chunk
                while b"\r\n" in buffer:
                    raw, buffer = buffer.split(b"\r\n", 1)
                    line = raw.decode("utf-8", errors="replace")
                    code, sep, text = line[:3], line[3:4], line[4:]
                    if sep == "-":
                        data.append(text)
                        continue
                    if code in SETTLING:
                        self._settle(data[0] if data else "")
                    elif not code.startswith("7"):
                        self._replies.put((code, text, data))
                    data = []
        except OSError:
            pass
        finally:
            with self._state:
                self._unsettled.clear()
            self._replies.put(None)

    def _settle(self, message: str) -> None:
        with self._state:
            if message in self._unsettled:
                self._unsettled.discard(message)
            else:
                self._settled.add(message)


def _user() -> str:
    try:
        return getpass.getuser().replace(":", "_").replace(" ", "_") or "unknown"
    except (OSError, KeyError):
        return "unknown"
