"""AudioOut through the virtual stereo device: placement, mixing, resampling, clipping,
stop within a block, the reference tap, and no device."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from tests.speech import audio_out_scenario
from tests.speech.virtual_device import (
    db_ratio,
    energy,
    no_device_home,
    recording,
    recording_offset,
    run_script,
    stereo_home,
)

pytestmark = pytest.mark.audio

SCENARIO = Path(audio_out_scenario.__file__)
TRY_OPEN = """
from voice_spades.errors import SetupError
from voice_spades.speech.audio_out import AudioOut
try:
    AudioOut().close()
    print("opened")
except SetupError as error:
    print(error.message_id)
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) \
        -> tuple[dict[str, Any], npt.NDArray[np.float32]]:
    base = tmp_path_factory.mktemp("audio_out")
    env = stereo_home(base / "home", base / "out")
    report: dict[str, Any] = json.loads(run_script(SCENARIO, env))
    rec = recording(base / "out")
    offset = recording_offset(rec, report["frames_written"])
    return report, rec[offset:]


def segment(rec: npt.NDArray[np.float32], span: list[int]) -> npt.NDArray[np.float32]:
    return rec[span[0]:span[1]]


def test_each_place_lands_in_its_channel(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    ratios = {name: db_ratio(*energy(segment(rec, span)))
              for name, span in report["places"].items()}
    print("L/R dB by pan:", {k: round(v, 1) for k, v in ratios.items()})
    assert ratios["left"] > 40 and ratios["right"] < -40
    assert abs(ratios["centre"]) < 0.1
    assert ratios["half_left"] == pytest.approx(7.66, abs=0.05)  # tan(pi/8): 7.7 dB down
    left, right = energy(segment(rec, report["places"]["centre"]))
    assert left == right == pytest.approx(0.125, rel=0.02)  # a 0.5 sine keeps its level


def test_two_clips_at_once_are_mixed_not_queued(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    long, short = report["overlap"]["long"], report["overlap"]["short"]
    assert abs(short[0] - long[0]) <= report["blocksize"]  # started together
    left, right = energy(segment(rec, short))
    assert left == pytest.approx(0.125, rel=0.05) and right == pytest.approx(0.125, rel=0.05)


def test_a_clip_at_another_rate_is_resampled(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    start, end = report["resampled"]["span"]
    assert end - start == pytest.approx(48_000, abs=2)
    assert 0.85 < report["resampled"]["wall"] < 1.3  # the virtual device keeps real time
    spectrum = np.abs(np.fft.rfft(rec[start:end, 0]))
    assert np.argmax(spectrum) == pytest.approx(500, abs=2)  # 1 Hz bins over 1 s


def test_a_sum_louder_than_full_scale_is_clipped(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    loud = segment(rec, report["loud"])
    assert float(np.abs(loud).max()) == pytest.approx(1.0)
    assert float(np.abs(rec).max()) <= 1.0


def test_stop_silences_from_the_next_block(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    block = report["blocksize"]
    for stop in report["stops"]:
        assert stop["done_at_once"] and stop["whole"] is False
        assert stop["sounding_blocks_after"] <= 1, stop  # at most the block being mixed
        at = stop["at_stop"]
        assert float(np.abs(rec[at + block:at + 10 * block]).max()) == 0.0
        assert float(np.abs(rec[at - block:at]).max()) > 0.1  # it was sounding before
    print("stop -> last sound written (ms, virtual device):",
          [s["ms_after"] for s in report["stops"]])


def test_stop_all_and_tags(played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, _ = played
    assert report["stop_all"] == {"before": 2, "after": 0, "f": False, "g": False}


def test_the_reference_tap_gets_every_block_on_the_stream_clock(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, _ = played
    tapped, written = report["tap_frames_vs_written"]
    assert abs(written - tapped) <= report["blocksize"]  # every block since it was added
    assert report["dac_rising"]
    assert report["dac_vs_time_base"] < 0.5
    dac_span, frame_span = report["dac_span_vs_frames"]
    assert dac_span == pytest.approx(frame_span, rel=0.05)
    assert report["listener_removed"]


def test_the_recording_is_the_stream(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    assert report["paced"]  # this device has no clock: AudioOut kept time itself
    assert len(rec) == report["frames_written"]
    assert report["play_after_close"] == "speech.device_lost"


def test_no_output_device_is_a_setup_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", TRY_OPEN], env=no_device_home(tmp_path),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "speech.no_device"
