"""The real pyttsx3 speaker playing through the virtual stereo device, in a subprocess.

The subprocess gets a HOME whose .asoundrc makes the default playback device an ALSA
``file`` PCM (:mod:`tests.speech.virtual_device`): every frame the game's one output
stream sends lands in ``out.raw``, and the scenario says at which frames each
utterance went out, so each can be found, checked whole or cut, in the recording.
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from tests.background import Scenario
from tests.speech import playback_scenario as scenario
from tests.speech.virtual_device import recording, recording_offset, run_script

pytestmark = [pytest.mark.audio, pytest.mark.slow]

SCENARIO = Path(scenario.__file__)
RATE = scenario.OUT_RATE
SECOND = RATE


BACKGROUND = Scenario(SCENARIO, "played", ("play",), timeout=120)


@pytest.fixture(scope="module")
def played() -> tuple[dict[str, Any], npt.NDArray[np.float32]]:
    stdout, out = BACKGROUND.result()
    report: dict[str, Any] = json.loads(stdout)
    rec = recording(out)
    rec = rec[recording_offset(rec, report["frames_written"]):]
    stops = [_after_stop(rec, s["at_stop"]) for s in report["stops"]]
    print("speech playback measurements:", json.dumps({
        "start_latency_ms": report["start_latency_ms"],
        "stop_call_ms_median": report["stop_ms_median"],
        "stop_to_last_sound_written_ms": [round(s * 1000, 1) for s in stops],
        "high_cut_to_start_ms": report["high_cut_to_start_ms"]}))
    return report, rec


def _after_stop(rec: npt.NDArray[np.float32], at: int) -> float:
    """Seconds of sound written after frame ``at`` before the device went silent (the
    scenario waits 0.2 s before it speaks again)."""
    tail = np.abs(rec[at:at + int(0.15 * RATE)]).max(axis=1)
    loud = np.nonzero(tail > 0)[0]
    return 0.0 if len(loud) == 0 else float(loud[-1] + 1) / RATE


def _whole(span: list[int], frames: float) -> bool:
    """Played whole, and as long as the text synthesized on its own (espeak-ng's length
    for a text varies by a few percent between runs)."""
    start, end, whole = span
    return bool(whole) and abs((end - start) - frames) <= 0.05 * frames


def test_the_device_was_checked_before_speaking(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    (start, end, whole), = report["probe"]
    assert whole and end - start == RATE * 3 // 100
    assert float(np.abs(rec[start:end]).max()) == 0.0  # a moment of silence


def test_normal_utterances_each_play_whole_and_as_loud_as_synthesized(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    expected = report["expected"]
    spans = report["normal"]["spans"]
    for text, span in zip(report["normal"]["texts"], spans, strict=True):
        assert _whole(span, expected[text]["frames"]), (text, span)
        heard = rec[span[0]:span[1]].astype(np.float64)
        assert np.allclose(heard[:, 0], heard[:, 1])  # the narrator in the centre
        assert float(np.mean(heard[:, 0] ** 2)) == pytest.approx(
            expected[text]["mean_square"], rel=0.1)
    for (_, end, _), (start, _, _) in itertools.pairwise(spans):
        assert start >= end  # one at a time, in order


def test_speech_starts_soon_after_say(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, _ = played
    assert statistics.median(report["start_latency_ms"]) < 150


def test_stop_silences_a_long_sentence_at_once(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, rec = played
    full = report["expected"][scenario.LONG]["frames"]
    for stop in report["stops"]:
        start, end, whole = stop["span"]
        assert not whole and stop["idle_after_stop"] and stop["clips_after"] == 0
        assert end - start == pytest.approx(full, rel=0.05)  # the clip: the whole sentence
        at = stop["at_stop"]
        assert float(np.abs(rec[at - report["block"]:at]).max()) > 0.01  # speaking
        # Sound written after the key: at most the block being mixed (10 ms), far
        # under the 50 ms a key may take.
        assert _after_stop(rec, at) <= report["block"] / RATE
    assert report["stop_ms_median"] < 50


def test_high_cuts_the_current_sentence_and_drops_the_queue(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, _ = played
    cut, urgent = report["high"]["spans"]  # the queued NORMAL never played
    assert not cut[2] and _whole(urgent, report["expected"]["Your turn."]["frames"])
    assert report["high"]["finished"] == [[scenario.LONG, False], ["Your turn.", True]]
    assert report["high_cut_to_start_ms"] < 200


def test_low_is_dropped_while_busy_and_spoken_when_idle(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, _ = played
    assert report["low"]["clips"] == 3
    assert report["low"]["finished"] == [[scenario.SHORT[1], True], ["A low message.", True],
                                         ["Idle low.", True]]


def test_cancel_drops_stale_tagged_speech(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, _ = played
    assert report["cancel"]["finished"] == [[scenario.SHORT[1], True],
                                            [scenario.SHORT[2], True], [scenario.LONG, False]]
    first, second, cut = report["cancel"]["spans"]
    expected = report["expected"]
    assert _whole(first, expected[scenario.SHORT[1]]["frames"])
    assert _whole(second, expected[scenario.SHORT[2]]["frames"])
    assert not cut[2]


def test_speaking_changes_alternate_for_the_microphone(
        played: tuple[dict[str, Any], npt.NDArray[np.float32]]) -> None:
    report, _ = played
    changes = report["speaking_changes"]
    assert changes[0] is True and changes[-1] is False
    assert all(a != b for a, b in itertools.pairwise(changes))


def test_a_vanished_device_is_reported_once_and_text_goes_on(tmp_path: Path) -> None:
    fifo = tmp_path / "device.fifo"
    os.mkfifo(fifo)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text(
        f'pcm.!default {{ type file slave.pcm "null" file "{fifo}" format "raw" }}\n')
    env = {**os.environ, "HOME": str(home)}
    report = json.loads(run_script(SCENARIO, env, "vanish", str(fifo), timeout=60))
    assert report["lines"] == [
        "First message after the device went away.",
        "Second message.",
        "Speech is off: the audio output device stopped working. The game continues in text.",
        "Third message.",
    ]
    assert report["speaker_left"] is False
