"""A speech-dispatcher daemon of our own, for tests and ``bench speech``.

:class:`PrivateSpeechd` starts ``speech-dispatcher`` in single mode with a private
configuration folder (espeak-ng output module, PulseAudio output), its own unix socket
and log folder, playing into a :class:`~voice_spades.bench.pulse_sink.PrivatePulse`
(a virtual sound card with a clock: see there why not ALSA's ``file`` device). It
ends by itself :data:`IDLE_EXIT` seconds after its last client leaves, should its
owner die without closing it. Clients reach it with the address
``unix_socket:PATH`` in the ``SPEECHD_ADDRESS`` environment variable, which
libspeechd (and so prism's Speech Dispatcher backend) reads when it connects; no
system daemon, D-Bus or user session is involved, and the daemon is ended by its
process id on :meth:`close`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from types import TracebackType

MODULES = Path("/usr/lib/speech-dispatcher-modules")
MODULE_CONF = Path("/etc/speech-dispatcher/modules/espeak-ng.conf")
START_TIMEOUT = 10.0
IDLE_EXIT = 20
"""Seconds with no client after which the daemon ends."""


def speechd_missing() -> str | None:
    """Why a private daemon cannot start here (a sentence for a test's skip), or None."""
    if shutil.which("speech-dispatcher") is None:
        return "speech-dispatcher is not installed (Debian package speech-dispatcher)"
    if not (MODULES / "sd_espeak-ng").exists():
        return "the espeak-ng module is not installed (speech-dispatcher-espeak-ng)"
    return None


class PrivateSpeechd:
    """A running speech-dispatcher that plays to ``pulse_server`` (see module doc)."""

    def __init__(self, folder: Path, pulse_server: str) -> None:
        self.folder = folder
        self.socket = folder / "run" / "speechd.sock"
        conf = folder / "conf"
        (conf / "modules").mkdir(parents=True, exist_ok=True)
        (folder / "log").mkdir(exist_ok=True)
        self.socket.parent.mkdir(exist_ok=True)
        shutil.copy(MODULE_CONF, conf / "modules" / "espeak-ng.conf")
        (conf / "speechd.conf").write_text(
            "LogLevel 1\n"
            f"LogDir \"{folder / 'log'}\"\n"
            "AudioOutputMethod \"pulse\"\n"
            "AudioPulseMinLength 10\n"
            "AddModule \"espeak-ng\" \"sd_espeak-ng\" \"espeak-ng.conf\"\n"
            "DefaultModule espeak-ng\n"
            "DefaultLanguage \"en\"\n")
        (folder / "home").mkdir(exist_ok=True)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder / "home"),
               "PULSE_SERVER": pulse_server, "XDG_RUNTIME_DIR": str(self.socket.parent)}
        self._process = subprocess.Popen(
            ["speech-dispatcher", "--run-single", "--timeout", str(IDLE_EXIT),
             "--config-dir", str(conf), "--module-dir", str(MODULES),
             "--communication-method", "unix_socket", "--socket-path", str(self.socket),
             "--pid-file", str(folder / "run" / "pid"), "--log-dir", str(folder / "log")],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while not self.socket.exists():
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"speech-dispatcher did not start (see {folder / 'log'})")
            time.sleep(0.02)

    @property
    def address(self) -> str:
        """The value for ``SPEECHD_ADDRESS``."""
        return f"unix_socket:{self.socket}"

    def close(self) -> None:
        """End the daemon (it ends its output module)."""
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)

    def __enter__(self) -> PrivateSpeechd:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
