"""A real game with its page (``voice-spades --web``) in a process of its own, for the
page's tests: its standard input takes key names, its standard output is kept."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+/\?t=[A-Za-z0-9_-]+)")
ROOT = Path(__file__).resolve().parents[2]


class PageGame:
    """``voice-spades --web`` with text output and no microphone, in ``data_dir``."""

    def __init__(self, data_dir: Path, *extra: str, seed: int = 3) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voice_spades", "--web", "--no-speech", "--no-voice",
             "--sounds", "off", "--new", "--seed", str(seed), "--level", "easy",
             "--pace", "0", "--language", "en", "--data-dir", str(data_dir), *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", cwd=ROOT)
        self.lines: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        self.address = self.wait_for(ADDRESS, 20.0).group(1)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._lock:
                self.lines.append(line.rstrip("\n"))

    def said(self) -> list[str]:
        """Every line printed so far."""
        with self._lock:
            return list(self.lines)

    def wait_for(self, pattern: re.Pattern[str], timeout: float,
                 start: int = 0) -> re.Match[str]:
        """The first line from line ``start`` on that matches ``pattern``; AssertionError
        after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.said()[start:]:
                if found := pattern.search(line):
                    return found
            time.sleep(0.02)
        raise AssertionError(f"no line matched {pattern.pattern}: {self.said()[-10:]}")

    def type(self, keys: str) -> None:
        """A line of key names on the game's standard input (read once it waits)."""
        assert self.process.stdin is not None
        self.process.stdin.write(keys + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        """End the game's input (it saves and quits), or kill it after 10 s."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(5)
