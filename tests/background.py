"""Real-time sound scenarios started when the run starts, and read when a test needs them.

A few scenarios play speech and cues in real time through the virtual sound device
(:mod:`tests.speech.virtual_device`): a whole hand spoken takes about 150 s, of which
the process spends a few seconds on the processor. Run one after the other they held
the suite back by some 215 s; started together as soon as the tests are collected
(``tests/conftest.py``), they play while the other tests run, and the module fixture
that needs one waits for what is left of it.

A test module declares its scenario as a module-level ``BACKGROUND`` naming the
fixture that reads it; a run that selects none of that fixture's tests does not start
it, and a fixture asked first (a module run alone) starts it then.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.speech.virtual_device import ROOT, stereo_home


@dataclass
class Scenario:
    """``python script *args`` in a HOME whose default sound device is recorded.

    ``args`` may hold ``{out}``, replaced by the folder the recording is written to."""

    script: Path
    fixture: str
    args: tuple[str, ...] = ()
    timeout: float = 300.0
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _base: Path | None = field(default=None, repr=False)
    _started: float = field(default=0.0, repr=False)

    def start(self) -> None:
        """Start the script, unless it runs already."""
        if self._process is not None:
            return
        self._base = Path(tempfile.mkdtemp(prefix=f"voice-spades-{self.script.stem}-"))
        out = self._base / "out"
        env = stereo_home(self._base / "home", out)
        runtime = self._base / "runtime"  # see conftest's _runtime_folder
        runtime.mkdir(mode=0o700)
        env["XDG_RUNTIME_DIR"] = str(runtime)
        args = [a.replace("{out}", str(out)) for a in self.args]
        with (self._base / "stdout").open("wb") as stdout, \
                (self._base / "stderr").open("wb") as stderr:
            self._process = subprocess.Popen([sys.executable, str(self.script), *args],
                                             env=env, cwd=ROOT, stdout=stdout, stderr=stderr)
        self._started = time.monotonic()

    def result(self) -> tuple[str, Path]:
        """Wait for the script (started now if it was not); its standard output and the
        folder holding the recording. It must succeed within ``timeout`` of its start."""
        self.start()
        assert self._process is not None and self._base is not None
        left = self.timeout - (time.monotonic() - self._started)
        try:
            code = self._process.wait(timeout=max(left, 1.0))
        except subprocess.TimeoutExpired:
            self._process.kill()
            raise
        stderr = (self._base / "stderr").read_text(errors="replace")
        assert code == 0, stderr[-4000:]
        return (self._base / "stdout").read_text(), self._base / "out"

    def stop(self) -> None:
        """Kill the script if it still runs, and delete its folder."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        if self._base is not None:
            shutil.rmtree(self._base, ignore_errors=True)
