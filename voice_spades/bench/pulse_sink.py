"""A private PulseAudio server with a null sink: a virtual sound card with a real clock
(it ends by itself 20 s after its last client, should its owner die).

Speech Dispatcher writes a whole sentence into ALSA in one call; on ALSA's ``file``
device over ``null`` (no clock) the sentence is taken at once, so a stop could never
be seen cutting it. PulseAudio's null sink plays in real time and drops what a stop
drops, like a sound card. :class:`PrivatePulse` starts ``pulseaudio`` with its own
runtime folder and socket (no system or user server, no D-Bus), a mono null sink at
:data:`RATE` Hz, and ``parec`` on the sink's monitor;
a thread stamps what arrives into :class:`~voice_spades.bench.sound_sink.Sound`
chunks (a chunk's play time is its arrival less its length: the recording's own
latency, about 10 ms, makes the figures err long). Ended by process id on
:meth:`close`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from types import TracebackType

from voice_spades.bench.sound_sink import CHUNK_SECONDS, THRESHOLD, Sound, peak

START_TIMEOUT = 10.0
RATE = 22_050
"""The null sink's rate (espeak-ng's own: nothing is resampled)."""
RECORD_LATENCY_MS = 10


def pulse_missing() -> str | None:
    """Why a private PulseAudio cannot start here (a sentence for a skip), or None."""
    for program, package in (("pulseaudio", "pulseaudio"), ("parec", "pulseaudio-utils")):
        if shutil.which(program) is None:
            return f"{program} is not installed (Debian package {package})"
    return None


class PrivatePulse:
    """A running private PulseAudio whose default sink is recorded (see module doc)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        run = folder / "run"
        run.mkdir(exist_ok=True)
        self.socket = run / "native"
        self._sounds: list[Sound] = []
        self._lock = threading.Lock()
        script = folder / "default.pa"
        script.write_text(
            f"load-module module-native-protocol-unix socket={self.socket} auth-anonymous=1\n"
            f"load-module module-null-sink sink_name=game rate={RATE} channels=1 "
            "format=s16le\nset-default-sink game\n")
        env = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "XDG_RUNTIME_DIR": str(run)}
        self._server = subprocess.Popen(
            ["pulseaudio", "-n", "-F", str(script), "--daemonize=no", "--exit-idle-time=20",
             "--use-pid-file=no", "--disable-shm=yes", "--log-target=newfile:"
             f"{folder / 'pulse.log'}"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        self._recorder: subprocess.Popen[bytes] | None = None
        deadline = time.monotonic() + START_TIMEOUT
        while not self.socket.exists():
            if self._server.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"pulseaudio did not start (see {folder / 'pulse.log'})")
            time.sleep(0.02)
        self._recorder = subprocess.Popen(
            ["parec", "-d", "game.monitor", "--raw", "--format=s16le", f"--rate={RATE}",
             "--channels=1", f"--latency-msec={RECORD_LATENCY_MS}"],
            env={**env, "PULSE_SERVER": self.server}, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        threading.Thread(target=self._record, args=(self._recorder,), daemon=True,
                         name="pulse-recorder").start()

    @property
    def server(self) -> str:
        """The value for ``PULSE_SERVER``."""
        return f"unix:{self.socket}"

    def sounds(self) -> list[Sound]:
        """Every chunk holding sound played so far, in order."""
        with self._lock:
            return list(self._sounds)

    def _record(self, recorder: subprocess.Popen[bytes]) -> None:
        stream = recorder.stdout
        assert stream is not None
        size = int(RATE * 2 * CHUNK_SECONDS) // 2 * 2
        while True:
            data = os.read(stream.fileno(), size)
            if not data:
                return
            now = time.monotonic()
            loudest = peak(data)
            if loudest >= THRESHOLD:
                with self._lock:
                    self._sounds.append(Sound(now - len(data) / (RATE * 2), now, loudest))

    def close(self) -> None:
        """End the recorder and the server."""
        for process in (self._recorder, self._server):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)

    def __enter__(self) -> PrivatePulse:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
