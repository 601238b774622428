"""`voice-spades bench server` on a small load: real server process, real clients."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from voice_spades.bench.server import main
from voice_spades.bench.server_clients import percentile


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([3.0], 0.99) == 3.0
    assert percentile([], 0.5) == 0.0


def test_a_small_run_times_every_action_and_loses_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--clients", "8", "--think", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["tables"] == 2 and result["clients"] == 8
    assert result["store"] == "sqlite"
    assert result["failed_tables"] == 0
    assert result["lost"] == 0 and result["duplicated"] == 0
    assert result["actions"] >= 2 * (4 + 52)
    assert result["timed_actions"] == result["actions"]
    assert 0 < result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    # Each action reaches four viewers; seating and the opening add a few more.
    assert result["messages"] >= 4 * result["actions"]
    assert result["server_cpu_percent"] > 0 and result["server_rss_mb"] > 10


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--clients", "1"]) == 2
    assert main(["--processes", "2", "--database", "/tmp/tables.sqlite3"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2
    assert all(line.startswith("voice-spades bench server: ") for line in lines)


def test_a_terminated_run_stops_its_servers_and_removes_its_files(tmp_path: Path) -> None:
    # SQLite keeps it quick; a private PostgreSQL is closed by the same unwinding.
    run = subprocess.Popen(
        [sys.executable, "-m", "voice_spades", "bench", "server", "--clients", "8",
         "--think", "5", "--timeout", "60"],
        env={**os.environ, "TMPDIR": str(tmp_path)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not list(tmp_path.glob("voice-spades-bench-*/tables.sqlite3")):
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=20) == 128 + signal.SIGTERM
    finally:
        if run.poll() is None:
            run.kill()
    assert list(tmp_path.iterdir()) == []
