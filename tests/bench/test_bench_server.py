"""`voice-spades bench server` on a small load: real server process, real clients."""

from __future__ import annotations

import pytest

from voice_spades.bench.server import main
from voice_spades.bench.server_clients import percentile


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([3.0], 0.99) == 3.0
    assert percentile([], 0.5) == 0.0


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--clients", "1"]) == 2
    assert main(["--processes", "2", "--database", "/tmp/tables.sqlite3"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2
    assert all(line.startswith("voice-spades bench server: ") for line in lines)
