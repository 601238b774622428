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


def law(pan: float) -> float:
    """Left over right in dB for ``pan`` by the constant-power law's ratio."""
    return float(np.sign(-pan) * -20 * np.log10(np.tan((1 - abs(pan)) * np.pi / 4)))


def test_each_seat_sounds_in_its_channel(played: Played) -> None:
    report, rec = played
    ratios: dict[str, float] = {}
    for place in report["places"]:
        ratio = db_ratio(*energy(segment(rec, place["span"])))
        ratios[f"{place['players']}p seat {place['seat']}"] = round(ratio, 1)
        pan = place["pan"]
        if pan == 0:
            assert abs(ratio) < 0.1, place  # the player, the partner: centre
        else:  # louder on its side, by the constant-power law's ratio
            assert ratio == pytest.approx(law(pan), abs=0.2), place
            assert np.sign(ratio) == np.sign(-pan) and abs(ratio) > 2.5, place
        # Never in one ear only: the far ear within 10 dB (9.8 at the far seats).
        assert abs(ratio) < 10.0, place
    print("L/R energy ratio (dB) of a card cue by seat:", ratios)


def brightness(sound: npt.NDArray[np.float32]) -> float:
    """The spectral centroid (Hz) of both channels summed."""
    magnitude = np.abs(np.fft.rfft(sound.astype(np.float64).sum(axis=1)))
    freqs = np.fft.rfftfreq(len(sound), 1 / 48_000)
    return float((magnitude * freqs).sum() / magnitude.sum())


def test_the_partners_card_is_told_from_ones_own(played: Played) -> None:
    # Both in the centre at four; the partner's card, from across the table, comes out
    # of the device muffled (a lower centroid) and echoed (40 ms longer).
    report, rec = played
    at_four = {p["seat"]: p for p in report["places"] if p["players"] == 4}
    own, partner = at_four[0], at_four[2]
    assert partner["across"] and not own["across"]
    mine, theirs = segment(rec, own["span"]), segment(rec, partner["span"])
    print(f"card cue centroid: own {brightness(mine):.0f} Hz, partner's "
          f"{brightness(theirs):.0f} Hz; length {len(mine)} and {len(theirs)} frames")
    assert brightness(theirs) < 0.5 * brightness(mine)
    assert len(theirs) - len(mine) == int(0.04 * 48_000)
    # In the centre both: heard alike in both ears.
    assert abs(db_ratio(*energy(theirs))) < 0.1 and abs(db_ratio(*energy(mine))) < 0.1


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
    # The far seats clearly to their side and still heard in the other ear.
    assert law(-0.6) - 0.3 < ratios[1] < 10 and -10 < ratios[3] < law(0.6) + 0.3
    assert abs(ratios[2]) < 0.1
