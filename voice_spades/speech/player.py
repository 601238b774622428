"""Interruptible playback of synthesized speech through ALSA's ``aplay``.

pyttsx3 2.99's espeak driver synthesizes a whole utterance into memory and then
runs ``aplay`` on a temporary WAV from inside a callback (``os.system``), which
nothing can interrupt. So the speakers here only synthesize with pyttsx3 and
play the samples themselves: one ``aplay`` process per utterance, fed through a
pipe, which :meth:`AplayPlayer.abort` ends at once.

The samples are fed no more than :data:`LEAD` seconds ahead of the clock. That
bounds what can still come out after an abort on any device (a real card drops
its buffer when aplay dies, but some virtual devices have no clock at all and
would otherwise take the whole sentence in a few milliseconds).
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from voice_spades.errors import SetupError

_log = logging.getLogger(__name__)

LEAD = 0.25
"""Seconds of audio handed to aplay ahead of the clock."""
BUFFER_US = 200_000
"""aplay's ALSA buffer, in microseconds; aplay starts playing once it is full."""
CHUNK_SECONDS = 0.02
KILL_GRACE = 0.2
"""Seconds aplay gets to abort cleanly after SIGTERM before SIGKILL."""
STALL_GRACE = 3.0
"""Seconds past an utterance's length after which aplay is taken for stuck (a hung
audio server) and killed: the game waits for speech, so speech must always end."""

NO_APLAY = "speech.no_aplay"
NO_DEVICE = "speech.no_device"
DEVICE_LOST = "speech.device_lost"
"""Catalog ids of the :class:`SetupError` s raised here."""


@dataclass(frozen=True)
class Pcm:
    """Mono signed 16-bit little-endian samples at ``rate`` Hz."""

    data: bytes
    rate: int

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return len(self.data) / 2 / self.rate

    @classmethod
    def from_wav(cls, path: Path) -> Pcm:
        """Read a mono 16-bit WAV file (what pyttsx3 writes)."""
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                raise ValueError(f"{path.name} is not mono 16-bit audio")
            return cls(wav.readframes(wav.getnframes()), wav.getframerate())


class AplayPlayer:
    """Plays :class:`Pcm` through ``aplay``, one process per utterance.

    ``device`` is an ALSA PCM name (``aplay -D``); None uses the default device.
    """

    def __init__(self, device: str | None = None) -> None:
        found = shutil.which("aplay")
        if found is None:
            raise SetupError(NO_APLAY)
        self._aplay = found
        self._device = device
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None

    def probe(self) -> None:
        """Play 30 ms of silence; raise :class:`SetupError` if there is no working device."""
        self.play(Pcm(bytes(2 * 661), 22050), threading.Event(), lost_message=NO_DEVICE)

    def play(self, pcm: Pcm, cancel: threading.Event, lost_message: str = DEVICE_LOST) -> bool:
        """Play ``pcm`` until done (True) or until ``cancel`` is set (False).

        Raises :class:`SetupError` with the message id ``lost_message`` if aplay fails.
        """
        command = [self._aplay, "-q", "-t", "raw", "-f", "S16_LE", "-c", "1",
                   "-r", str(pcm.rate), f"--buffer-time={BUFFER_US}"]
        if self._device:
            command += ["-D", self._device]
        with tempfile.TemporaryFile() as errors:
            try:
                proc = subprocess.Popen([*command, "-"], stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=errors, bufsize=0,
                                        start_new_session=True)
            except OSError as error:
                raise SetupError(lost_message) from error
            with self._lock:
                self._proc = proc
            watchdog = threading.Timer(pcm.duration + STALL_GRACE, _kill_if_alive, args=(proc,))
            watchdog.daemon = True
            watchdog.start()
            try:
                finished = self._feed(proc, pcm, cancel) and self._drain(proc, cancel)
            finally:
                watchdog.cancel()
                with self._lock:
                    self._proc = None
                if proc.returncode is None:
                    _end(proc)
            if finished and proc.returncode == 0:
                return True
            if cancel.is_set():
                return False
            errors.seek(0)
            _log.info("aplay failed (%s): %s", proc.returncode,
                      errors.read().decode(errors="replace").strip())
            raise SetupError(lost_message)

    @staticmethod
    def _feed(proc: subprocess.Popen[bytes], pcm: Pcm, cancel: threading.Event) -> bool:
        assert proc.stdin is not None
        chunk = 2 * max(1, int(pcm.rate * CHUNK_SECONDS))
        start = time.monotonic()
        try:
            for offset in range(0, len(pcm.data), chunk):
                delay = start + offset / 2 / pcm.rate - LEAD - time.monotonic()
                if cancel.wait(delay) if delay > 0 else cancel.is_set():
                    return False
                _write_all(proc.stdin, pcm.data[offset:offset + chunk])
            proc.stdin.close()
        except OSError:  # aplay is gone: a failed device, or abort()
            return False
        # Finish with the clock: a device with no clock would have "played" it all already.
        return not cancel.wait(max(0.0, start + pcm.duration - time.monotonic()))

    @staticmethod
    def _drain(proc: subprocess.Popen[bytes], cancel: threading.Event) -> bool:
        while True:
            try:
                proc.wait(timeout=0.02)
                return True
            except subprocess.TimeoutExpired:
                if cancel.is_set():
                    return False

    def abort(self) -> None:
        """End the utterance playing now, from any thread."""
        with self._lock:
            proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            # aplay may be stuck in a hung audio server: make sure it goes.
            timer = threading.Timer(KILL_GRACE, _kill_if_alive, args=(proc,))
            timer.daemon = True
            timer.start()


def _write_all(pipe: IO[bytes], data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = pipe.write(view)
        view = view[written or 0:]


def _kill_if_alive(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Stop aplay: SIGTERM lets it abort the PCM cleanly, SIGKILL if it does not exit."""
    if proc.stdin is not None:
        with contextlib.suppress(OSError):
            proc.stdin.close()
    proc.terminate()
    try:
        proc.wait(timeout=KILL_GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
