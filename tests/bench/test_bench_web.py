"""``voice-spades bench web`` plays a seeded hand with the page open in headless
Chromium and measures every change of the table to the page's DOM: the issue's figure
is a median within 100 ms. About 5 s: a real Chromium starts and a whole hand (56
changes of the table) is shown."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from voice_spades.bench.web import percentile


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="Debian's chromium is not installed "
                           "(scripts/bootstrap.sh --test installs it)")
def test_every_change_of_a_seeded_hand_reaches_the_page_within_100_ms_median() -> None:
    done = subprocess.run([sys.executable, "-m", "voice_spades", "bench", "web",
                           "--hands", "1", "--pace", "0.02", "--json"],
                          capture_output=True, text=True, timeout=120, check=True)
    figures = json.loads(done.stdout)
    # A hand of four players: 4 bids and 52 cards, each a change the page must show.
    assert figures["states"] >= 56
    assert figures["measured"] >= figures["states"] - 2
    assert 0 < figures["median_ms"] < 100
    assert figures["median_ms"] <= figures["p95_ms"] <= figures["max_ms"]


def test_the_percentile_is_the_nearest_rank() -> None:
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([float(n) for n in range(1, 21)], 0.95) == 19.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
