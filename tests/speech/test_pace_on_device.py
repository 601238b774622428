"""Issue 48's pace by ear: a hand's turnover and a new game's start, played by the
game's voice through the virtual sound device, stay within 18 s and 10 s in English,
Italian and French. ``pytest -s`` prints the figures.

The scenes play in real time, about 75 s in all, so they start with the run
(:mod:`tests.background`) and play while the other tests run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.background import Scenario
from tests.speech import pace_scenario as scenario

BOUNDS = {"turnover": 18.0, "start": 10.0}
BACKGROUND = Scenario(Path(scenario.__file__), "heard", ("{out}",), timeout=600)


@pytest.fixture(scope="module")
def heard() -> list[dict[str, Any]]:
    stdout, _ = BACKGROUND.result()
    rows: list[dict[str, Any]] = json.loads(stdout)
    for row in rows:
        print(f"\n{row['language']} {row['scene']}: heard {row['heard']} s on the device, "
              f"{row['speech']} s of speech")
    return rows


@pytest.mark.slow
@pytest.mark.audio
def test_the_turnover_and_the_start_heard_on_the_device_are_short(
        heard: list[dict[str, Any]]) -> None:
    assert {(r["language"], r["scene"]) for r in heard} == {
        (language, scene) for language in ("en", "it", "fr") for scene in BOUNDS}
    for row in heard:
        assert row["heard"] <= BOUNDS[row["scene"]], row


@pytest.mark.slow
@pytest.mark.audio
def test_the_device_got_the_whole_speech(heard: list[dict[str, Any]]) -> None:
    # Every line was played: the span heard is the speech less the silence espeak-ng
    # leaves before the first line and after the last (0.1 to 0.2 s when written), so a
    # lost line, 0.7 s at the shortest ("Your bid."), would show.
    for row in heard:
        assert row["heard"] >= row["speech"] - 0.5, row
