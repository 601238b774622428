"""The phone loop in a process of its own scores a clip exactly as a decoder here does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from voice_spades.voice.recognizers.base import SAMPLE_RATE
from voice_spades.voice.recognizers.phone_loop_worker import PhoneLoopWorker, loop_score
from voice_spades.voice.recognizers.pocketsphinx_tuning import tuning_for
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.testspeech import SpeechParams


def options() -> dict[str, object]:
    model = Path(pytest.importorskip("pocketsphinx").get_model_path()) / "en-us"
    # The recognizer's own frequency warp: PocketSphinx keeps the warp in process-wide
    # state, so a decoder made here without it turned the warp off for every
    # recognizer made after it in the same test run.
    return {"hmm": str(model / "en-us"), "samprate": SAMPLE_RATE, "loglevel": "FATAL",
            "allphone": str(model / "en-us-phone.lm.bin"), "lw": 1.0,
            "warp_type": "inverse_linear", "warp_params": f"{tuning_for('en').warp:g}"}


@pytest.mark.audio
@pytest.mark.skipif(not testspeech.tools_available(), reason="needs espeak-ng and sox")
def test_the_worker_scores_each_clip_as_a_decoder_here_does() -> None:
    import pocketsphinx

    here = pocketsphinx.Decoder(**options())
    clips = [testspeech.synthesize(text, SpeechParams("en-us", 150, 50, noise=0.003, seed=1))
             for text in ("queen of hearts", "bid four")]
    expected = [loop_score(here, clip) for clip in clips]
    assert expected[0] != expected[1] and all(score < 0 for score in expected)
    worker = PhoneLoopWorker(options())
    try:
        for clip, score in zip([*clips, clips[0]], [*expected, expected[0]], strict=True):
            worker.submit(clip)
            assert worker.score() == score
            assert 0 < worker.last_seconds < 5  # its CPU time on the clip
        worker.submit(clips[0])
        with pytest.raises(RuntimeError, match="not collected"):
            worker.submit(clips[1])
        assert worker.score() == expected[0]
        with pytest.raises(RuntimeError, match="no clip"):
            worker.score()
    finally:
        worker.close()
    assert not worker.alive


def test_a_worker_that_cannot_build_its_decoder_says_so() -> None:
    worker = PhoneLoopWorker({**options(), "hmm": "/nonexistent/model"})
    try:
        with pytest.raises(RuntimeError, match="did not start"):
            worker.submit(bytes(3200))
    finally:
        worker.close()
    worker.close()  # a second time: nothing
    assert not worker.alive


def test_a_frozen_application_starts_no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    # It has no interpreter to run the worker module: the phone loop stays in-process.
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(RuntimeError, match="frozen"):
        PhoneLoopWorker(options())
