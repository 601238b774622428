"""Sound cues through the virtual stereo device: each arrives, in the channel of its
seat, mixed with speech, and without holding speech back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from tests.background import Scenario
from tests.speech import cues_scenario as scenario
from tests.speech.virtual_device import (
    db_ratio,
    energy,
    recording,
    recording_offset,
)

pytestmark = [pytest.mark.audio, pytest.mark.slow]

SCENARIO = Path(scenario.__file__)
Played = tuple[dict[str, Any], npt.NDArray[np.float32]]


BACKGROUND = Scenario(SCENARIO, "played", timeout=180)


@pytest.fixture(scope="module")
def played() -> Played:
    stdout, out = BACKGROUND.result()
    report: dict[str, Any] = json.loads(stdout)
    rec = recording(out)
    return report, rec[recording_offset(rec, report["frames_written"]):]


def segment(rec: npt.NDArray[np.float32], span: list[int]) -> npt.NDArray[np.float32]:
    return rec[span[0]:span[1]]


def test_each_cue_arrives_whole_at_its_place(played: Played) -> None:
    report, rec = played
    for name, cue in report["each"].items():
        left, right = energy(segment(rec, cue["span"]))
        want_left, want_right = cue["energy"]
        assert left == pytest.approx(want_left, rel=0.02), name
        assert right == pytest.approx(want_right, rel=0.02, abs=1e-9), name


def test_each_seat_sounds_in_its_channel(played: Played) -> None:
    report, rec = played
    ratios: dict[str, float] = {}
    for place in report["places"]:
        ratio = db_ratio(*energy(segment(rec, place["span"])))
        ratios[f"{place['players']}p seat {place['seat']}"] = round(ratio, 1)
        pan = place["pan"]
        if pan == 0:
            assert abs(ratio) < 0.1, place  # the player, the partner: centre
        elif pan == -1:
            assert ratio > 40, place  # far left: the right channel silent
        elif pan == 1:
            assert ratio < -40, place
        else:  # between: louder on its side, by the constant-power law's ratio
            expected = -20 * np.log10(np.tan((1 - abs(pan)) * np.pi / 4))
            assert ratio == pytest.approx(np.sign(-pan) * expected, abs=0.2), place
    print("L/R energy ratio (dB) of a card cue by seat:", ratios)


def test_a_cue_is_mixed_into_speech(played: Played) -> None:
    report, rec = played
    speech, cue = report["overlap"]["speech"], report["overlap"]["cue"]
    assert speech[0] < cue[0] and cue[1] < speech[1]  # sounded while a sentence played
    left, right = energy(segment(rec, cue))
    assert right > 1e-4  # the sentence goes on in both channels...
    assert left > 1.5 * right  # ...and the left-hand opponent's cue is added on the left
    assert report["overlap"]["cue_latency_ms"] < 50


def test_a_cue_does_not_delay_speech(played: Played) -> None:
    report, _ = played
    delays, gaps = report["delays_ms"], report["next_line_gap_ms"]
    print("emit to first audio (ms, medians of 8):", delays, "; gap before the next line:",
          gaps)
    assert delays["with_cue"] - delays["without"] < 50  # the line the cue comes with
    assert gaps["with_cue"] - gaps["without"] < 50  # the line after it
    assert delays["cue"] < 50  # and the cue itself sounds at once


def test_the_narrators_voice_can_be_placed_by_seat(played: Played) -> None:
    report, rec = played
    ratios = {int(seat): db_ratio(*energy(segment(rec, span)))
              for seat, span in report["voice_placed"].items()}
    assert ratios[1] > 40 and ratios[3] < -40 and abs(ratios[2]) < 0.1
