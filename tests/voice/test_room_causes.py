"""Where the room bench's commands are lost: each command decoded again dry, through
the room alone, and over the span an ideal detector would cut, with real audio, the
real canceller and the real recognizer."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from typing import Any

import pytest

from voice_spades.bench import voice as bench_voice
from voice_spades.bench.voice_room import summary
from voice_spades.bench.voice_room_causes import (
    CAUSES,
    SceneCause,
    at_best,
    cause_counts,
)
from voice_spades.voice.testing.testspeech import tools_available

pytest.importorskip("pyroomacoustics")

needs_speech = pytest.mark.skipif(not tools_available() or shutil.which("espeak-ng") is None,
                                  reason="needs espeak-ng and sox")


def test_a_lost_command_is_put_down_to_the_first_step_that_loses_it() -> None:
    def cause(**changes: bool | None) -> str | None:
        fields: dict[str, bool | None] = dict(understood=False, dry=True, reverberant=True,
                                              room=True, span=True, delivered=True)
        fields.update(changes)
        return SceneCause(0, "during", **fields).cause  # type: ignore[arg-type]

    assert cause(understood=True, dry=False) is None
    assert cause(dry=False, reverberant=False, delivered=False) == "recognizer"
    assert cause(reverberant=False, room=False, span=False) == "reverberation"
    assert cause(room=False, delivered=False, span=False) == "noise"
    assert cause(delivered=False, span=False) == "missed"
    assert cause(span=False) == "echo"
    assert cause() == "cut"
    rows: list[dict[str, Any]] = [{"kind": "during", "cause": None},
                                  {"kind": "during", "cause": "echo"},
                                  {"kind": "after", "cause": "noise"},
                                  {"kind": "during", "cause": "echo"}]
    assert cause_counts(rows, "during") == {"understood": 1, "recognizer": 0,
                                            "reverberation": 0, "noise": 0, "missed": 0,
                                            "echo": 2, "cut": 0}
    assert list(cause_counts(rows, "after")) == ["understood", *CAUSES]
    # at best, the commands lost to the echo could have been understood; not the noise's
    assert at_best(rows, "during") == (3, 3)
    assert at_best(rows, "after") == (0, 1)
    rows += [{"kind": "during", "cause": "reverberation"}, {"kind": "during", "cause": "missed"}]
    assert at_best(rows, "during") == (4, 5)


@pytest.mark.slow
@needs_speech
def test_the_command_after_the_narrator_is_traced_from_its_utterance() -> None:
    """A loud command just after the narrator, in the small quiet room: understood dry,
    through the room, with its noise and over its span; its utterance begins within the detector's
    pre-roll before the speech and ends after it. Taking its utterance away makes it
    "missed"; a miss with the utterance there but the span understood is the cut's."""
    from voice_spades.bench.voice_room_causes import explain
    from voice_spades.bench.voice_room_run import OfflineRunner
    from voice_spades.bench.voice_room_scenes import narration_clips, plan_scenes
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import (
        PocketSphinxRecognizer,
    )

    scene = plan_scenes(4, 0, 1, ("small",), (6.0,), ("quiet",))[0]
    runner = OfflineRunner(PocketSphinxRecognizer(), "speex", 4, keep_audio=True)
    result = runner.run_scene(scene, narration_clips(4, 1)[0])
    found = explain(runner, result.correct, 4)
    assert result.correct and found.cause is None, (result, found)
    assert found.dry and found.reverberant and found.room and found.span and found.delivered
    assert found.start is not None and -0.6 <= found.start <= 0.0
    assert found.end is not None and -0.1 <= found.end <= 0.8
    times = [t for t, _ in runner.heard]
    assert all(abs(b - a - 0.02) < 1e-6 for a, b in itertools.pairwise(times))
    assert explain(runner, False, 4).cause == "cut"
    runner.delivered = []
    assert explain(runner, False, 4).cause == "missed"


@pytest.mark.slow
@needs_speech
def test_the_bench_counts_the_causes_per_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench_voice.main(["--room", "--offline", "--causes", "--aec", "speex", "--seed",
                             "4", "--during", "0", "--after", "1", "--narration-seconds", "0",
                             "--ratios", "6", "--noises", "quiet", "--rooms", "small",
                             "--verbose", "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    row = json.loads(out.strip().splitlines()[-1])[0]
    assert sum(row["causes_during"].values()) == 0
    assert sum(row["causes_after"].values()) == 1
    assert row["causes_after"]["understood"] == round(row["after_understood"])
    assert "after, where the commands went: understood" in out
    best = 0 if row["causes_after"]["recognizer"] + row["causes_after"]["reverberation"] \
        + row["causes_after"]["noise"] else 1
    assert row["at_best_after"] == [best, 1]
    assert f"after, at best (each command alone through the room, cut where its speech " \
           f"is, no narrator): {best} of 1" in out
    assert ("lost: " in out) == (row["causes_after"]["understood"] == 0)
    # each scene's line says how long after the end of speech its command was decided
    listed = [int(ms) for ms in re.findall(r" after (\d+) ms extra ", out)]
    if row["latency_median"] is None:
        assert listed == []
    else:
        assert len(listed) == 1 and abs(listed[0] - 1000 * row["latency_median"]) <= 1
    # and where its utterance began and ended against the command's speech
    placed = re.findall(r" utterance ([+-]\d+\.\d\d)/([+-]\d+\.\d\d) s", out)
    assert len(placed) == 1 and -0.6 <= float(placed[0][0]) <= 0.0, out


def test_causes_need_the_offline_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_voice.main(["--room", "--causes"]) == 2
    assert "--offline" in capsys.readouterr().err


def test_the_share_decided_at_once_counts_heard_commands_within_300_ms() -> None:
    def scene(kind: str, latency: float | None, answer: str = "act") -> dict[str, Any]:
        return {"kind": kind, "latency": latency, "answer": answer, "correct": True,
                "barged": False, "barge_seconds": None, "decode_latency": 0.0,
                "wrong_unasked": False, "extra": [], "ratio_db": 0.0, "noise": "quiet"}

    scenes = [scene("during", 0.25), scene("during", 0.3), scene("during", 0.65),
              scene("after", 0.7), scene("during", None, "missed")]
    row = summary({"aec": "speex", "scenes": scenes})
    assert row["latency_within_target"] == 0.5  # 2 of the 4 decided, the missed one aside
    assert row["latency_median"] == 0.475  # between the two groups: the share says more
