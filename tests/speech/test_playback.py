"""The real pyttsx3 speaker playing through a virtual ALSA device (a file), in a subprocess.

The subprocess gets a HOME whose .asoundrc makes the default playback device an
ALSA ``file`` PCM: what aplay plays lands in numbered raw files, one per utterance.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.speech import playback_scenario as scenario

pytestmark = [
    pytest.mark.audio,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay (alsa-utils) is not installed"),
]

SCENARIO = Path(scenario.__file__)
SECOND = scenario.BYTES_PER_SECOND
PADDING = SECOND // 4  # aplay fills the last period with silence


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    home = tmp_path_factory.mktemp("home")
    out = tmp_path_factory.mktemp("played")
    (home / ".asoundrc").write_text(
        "pcm.!default {\n  type file\n  slave.pcm \"null\"\n"
        f"  file \"{out}/out.raw\"\n  format \"raw\"\n  truncate false\n}}\n")
    done = subprocess.run([sys.executable, str(SCENARIO), str(out)],
                          env={**os.environ, "HOME": str(home)}, capture_output=True,
                          text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    print("speech playback measurements:", json.dumps(
        {k: result[k] for k in ("start_latency_ms", "stop_ms_median", "high_cut_to_start_ms")}))
    return result


def test_the_device_was_checked_before_speaking(report: dict[str, Any]) -> None:
    assert report["probe_files"] == 1


def test_normal_utterances_each_play_whole(report: dict[str, Any]) -> None:
    expected = report["expected"]
    for text, size in zip(report["normal"]["texts"], report["normal"]["sizes"], strict=True):
        assert expected[text] <= size <= expected[text] + PADDING, text


def test_speech_starts_soon_after_say(report: dict[str, Any]) -> None:
    assert sorted(report["start_latency_ms"])[1] < 150


def test_stop_silences_a_long_sentence_at_once(report: dict[str, Any]) -> None:
    full = report["expected"][scenario.LONG]
    for stop in report["stops"]:
        assert stop["idle_after_stop"]
        assert stop["bytes_after"] == stop["bytes_at_stop"]  # nothing more after stop()
        assert stop["bytes_at_stop"] < 1.2 * SECOND < full / 5
    assert report["stop_ms_median"] < 100


def test_high_cuts_the_current_sentence_and_drops_the_queue(report: dict[str, Any]) -> None:
    cut, urgent = report["high"]["sizes"]  # the queued NORMAL never played
    assert cut < 1.3 * SECOND
    expected = report["expected"]["Your turn."]
    assert expected <= urgent <= expected + PADDING
    assert report["high"]["finished"] == [[scenario.LONG, False], ["Your turn.", True]]
    assert report["high_cut_to_start_ms"] < 200


def test_low_is_dropped_while_busy_and_spoken_when_idle(report: dict[str, Any]) -> None:
    assert report["low"]["files"] == 2
    assert report["low"]["finished"] == [[scenario.SHORT[1], True], ["Idle low.", True]]


def test_cancel_drops_stale_tagged_speech(report: dict[str, Any]) -> None:
    finished = report["cancel"]["finished"]
    assert finished == [[scenario.SHORT[1], True], [scenario.SHORT[2], True],
                        [scenario.LONG, False]]
    first, second, cut = report["cancel"]["sizes"]
    assert first >= report["expected"][scenario.SHORT[1]]
    assert second >= report["expected"][scenario.SHORT[2]]
    assert cut < 1.2 * SECOND


def test_speaking_changes_alternate_for_the_microphone(report: dict[str, Any]) -> None:
    changes = report["speaking_changes"]
    assert changes[0] is True and changes[-1] is False
    assert all(a != b for a, b in itertools.pairwise(changes))


def test_a_vanished_device_is_reported_once_and_text_goes_on(report: dict[str, Any]) -> None:
    assert report["vanished"]["lines"] == [
        "First message after the device went away.",
        "Second message.",
        "Speech is off: the audio output device stopped working. The game continues in text.",
        "Third message.",
    ]
    assert report["vanished"]["speaker_left"] is False
