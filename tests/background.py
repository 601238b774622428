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

The suite runs in several worker processes (pytest-xdist), and every worker collects
every test, so a scenario is one folder of the run (:func:`open_run`), not one object:
the first process to create the folder starts the script, and any process reads its
outcome there. The script runs under a small keeper that writes its exit code to the
folder, so the scenario outlives the worker that started it; the run's first process
(the one that opened the run) stops what is left when the run ends.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.speech.virtual_device import ROOT, stereo_home

RUN_FOLDER = "VOICE_SPADES_TEST_SCENARIOS"
"""The environment variable naming the run's scenario folder; worker processes inherit it."""

# Runs the script with the keeper's remaining arguments, then writes its exit code
# to "code" through a rename, so a reader never sees half of it.
_KEEPER = (
    "import os, subprocess, sys\n"
    "base = sys.argv[1]\n"
    "with open(os.path.join(base, 'stdout'), 'wb') as out, "
    "open(os.path.join(base, 'stderr'), 'wb') as err:\n"
    "    code = subprocess.call(sys.argv[2:], stdout=out, stderr=err)\n"
    "with open(os.path.join(base, 'code.part'), 'w') as f:\n"
    "    f.write(str(code))\n"
    "os.replace(os.path.join(base, 'code.part'), os.path.join(base, 'code'))\n"
)


def open_run() -> bool:
    """Make the run's scenario folder unless an outer process made it; True if made here."""
    if os.environ.get(RUN_FOLDER):
        return False
    os.environ[RUN_FOLDER] = tempfile.mkdtemp(prefix="voice-spades-scenarios-")
    return True


def close_run() -> None:
    """Stop every scenario of the run that still plays, and delete the run's folder."""
    folder = os.environ.pop(RUN_FOLDER, None)
    if not folder:
        return
    for group in Path(folder).glob("*/group"):
        with contextlib.suppress(ValueError, ProcessLookupError, PermissionError):
            os.killpg(int(group.read_text()), signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Scenario:
    """``python script *args`` in a HOME whose default sound device is recorded.

    ``args`` may hold ``{out}``, replaced by the folder the recording is written to."""

    script: Path
    fixture: str
    args: tuple[str, ...] = ()
    timeout: float = 300.0

    def _base(self) -> Path:
        if not os.environ.get(RUN_FOLDER):
            open_run()  # a process outside pytest's hooks; the folder goes with the machine's /tmp
        return Path(os.environ[RUN_FOLDER]) / self.script.stem

    def start(self) -> None:
        """Start the script, unless this run started it already (in any process)."""
        base = self._base()
        try:
            base.mkdir()
        except FileExistsError:
            return
        out = base / "out"
        env = stereo_home(base / "home", out)
        runtime = base / "runtime"  # see conftest's _runtime_folder
        runtime.mkdir(mode=0o700)
        env["XDG_RUNTIME_DIR"] = str(runtime)
        args = [a.replace("{out}", str(out)) for a in self.args]
        (base / "started").write_text(repr(time.time()))
        keeper = subprocess.Popen(
            [sys.executable, "-c", _KEEPER, str(base), sys.executable, str(self.script), *args],
            env=env, cwd=ROOT, stdin=subprocess.DEVNULL, start_new_session=True)
        (base / "group").write_text(str(keeper.pid))

    def result(self) -> tuple[str, Path]:
        """Wait for the script (started now if it was not); its standard output and the
        folder holding the recording. It must succeed within ``timeout`` of its start."""
        self.start()
        base = self._base()
        code_file = base / "code"
        while not code_file.exists():
            if time.time() - _started(base) > self.timeout:
                raise TimeoutError(f"{self.script.name} ran past {self.timeout:.0f} s")
            time.sleep(0.1)
        code = int(code_file.read_text())
        stderr = (base / "stderr").read_text(errors="replace")
        assert code == 0, stderr[-4000:]
        return (base / "stdout").read_text(), base / "out"


def _started(base: Path) -> float:
    """When the scenario in ``base`` started (its folder's making, until it says)."""
    try:
        return float((base / "started").read_text())
    except (FileNotFoundError, ValueError):
        return base.stat().st_mtime
