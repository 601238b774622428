"""The phone loop's process as the game runs it: the same scores, a phone loop here
when it dies or there is one core, and an end with the game's process (started from
a process made by the ``spawn`` method, as on Windows and macOS)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from dataclasses import replace
from pathlib import Path

import pytest

from voice_spades.voice.lexicon import default_lexicon
from voice_spades.voice.recognizers.pocketsphinx_decoders import Decoders, builtin_model_dir
from voice_spades.voice.recognizers.pocketsphinx_tuning import PocketSphinxTuning, tuning_for
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.testspeech import SpeechParams

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(not testspeech.tools_available(),
                                 reason="needs espeak-ng and sox to synthesize speech")]


def tuning(process: bool) -> PocketSphinxTuning:
    return replace(tuning_for("en"), phone_loop_process=process)


def decoders(process: bool = True) -> Decoders:
    made = Decoders(tuning(process), builtin_model_dir(), default_lexicon(), {})
    made.prepare(("queen of hearts", "bid four"))  # loads them
    return made


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    cache = tmp_path_factory.mktemp("speech")
    return [testspeech.synthesize(text, SpeechParams("en-us", 150, 50, noise=0.003, seed=2),
                                  cache)
            for text in ("queen of hearts", "bid four")]


@pytest.fixture(scope="module")
def here(clips: list[bytes]) -> list[int]:
    """The clips' scores by a phone loop in this process."""
    made = decoders(process=False)
    assert made.worker is None
    return [made.phone_loop_score(clip) for clip in clips]


def test_the_process_scores_as_here_and_counts_the_wait(clips: list[bytes],
                                                        here: list[int]) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: no process")
    beside = decoders()
    try:
        assert beside.worker is not None and beside.worker.alive
        for clip, score in zip(clips, here, strict=True):
            beside.start_phone_loop(clip)
            assert beside.phone_loop_score(clip) == score
        # Collected at once, with nothing done here meanwhile: the decode waited
        # about the worker's whole CPU time on the clip.
        waited = beside.waited_seconds
        beside.start_phone_loop(clips[0])
        assert beside.phone_loop_score(clips[0]) == here[0]
        assert beside.worker is not None
        assert beside.waited_seconds - waited == pytest.approx(beside.worker.last_seconds,
                                                               abs=0.02)
        assert beside.worker.last_seconds > 0
    finally:
        beside.close()


@pytest.mark.parametrize("when", ["before the clip", "while it scores"])
def test_a_process_that_dies_leaves_the_score_right(clips: list[bytes], here: list[int],
                                                    when: str) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: no process")
    beside = decoders()
    assert beside.worker is not None
    beside.worker.wait_ready()
    pid = beside.worker.pid
    if when == "before the clip":
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 5
        while beside.worker.alive and time.monotonic() < deadline:
            time.sleep(0.01)
    beside.start_phone_loop(clips[0])
    if when == "while it scores":
        os.kill(pid, signal.SIGTERM)
    assert beside.phone_loop_score(clips[0]) == here[0]
    beside.start_phone_loop(clips[1])
    assert beside.phone_loop_score(clips[1]) == here[1]
    assert beside.worker is None  # the phone loop now runs here


def test_one_core_runs_the_phone_loop_here(clips: list[bytes], here: list[int],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    alone = decoders()
    assert alone.worker is None
    alone.start_phone_loop(clips[0])
    assert alone.phone_loop_score(clips[0]) == here[0]


def _game(clip: bytes, answers: multiprocessing.Queue[tuple[int, int]]) -> None:
    """A game's process: it scores a clip and ends without closing anything."""
    beside = decoders()
    assert beside.worker is not None
    beside.start_phone_loop(clip)
    answers.put((beside.phone_loop_score(clip), beside.worker.pid))


def test_the_process_works_under_spawn_and_ends_with_the_game(clips: list[bytes],
                                                               here: list[int]) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: no process")
    context = multiprocessing.get_context("spawn")
    answers: multiprocessing.Queue[tuple[int, int]] = context.Queue()
    game = context.Process(target=_game, args=(clips[0], answers))
    game.start()
    score, pid = answers.get(timeout=60)
    game.join(30)
    assert game.exitcode == 0 and score == here[0]
    deadline = time.monotonic() + 10
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(pid)


def _running(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped has ended)."""
    status = Path(f"/proc/{pid}/status")
    if Path("/proc/self").exists():
        try:
            state = next(line for line in status.read_text().splitlines()
                         if line.startswith("State:"))
        except FileNotFoundError:
            return False
        return "Z" not in state.split()[1]
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
