"""How the virtual-clock benches count decoding time: modelled from the audio's length
(so a run with a fixed seed repeats itself), or measured, with the real recognizer."""

from __future__ import annotations

import json
import shutil
import time

import pytest

from voice_spades.bench import voice as bench_voice
from voice_spades.bench.decode_time import (
    MODELLED_OVERHEAD,
    MODELLED_REAL_TIME_FACTOR,
    TimedPartialDecoder,
    decode_clock,
    decoding_line,
    timed,
)
from voice_spades.voice.early_end import PartialDecoder
from voice_spades.voice.recognizers.base import audio_seconds
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.testspeech import SpeechParams

needs_speech = pytest.mark.skipif(not testspeech.tools_available()
                                  or shutil.which("espeak-ng") is None,
                                  reason="needs espeak-ng and sox to synthesize speech")
PHRASES = ("bid three", "bid four", "scores")


def said(text: str) -> bytes:
    return testspeech.synthesize(text, SpeechParams("en-us", 160, 50, noise=0.002,
                                                    pad_seconds=0.3, seed=3))


@needs_speech
def test_a_modelled_decode_costs_its_audio_and_a_repeat_costs_nothing() -> None:
    recognizer = timed(PocketSphinxRecognizer())
    assert isinstance(recognizer, TimedPartialDecoder) and isinstance(recognizer, PartialDecoder)
    clock = decode_clock(recognizer)
    recognizer.set_phrases(PHRASES)
    pcm = said("bid four")
    before = clock()
    first = recognizer.decode(pcm)
    cost = MODELLED_OVERHEAD + MODELLED_REAL_TIME_FACTOR * audio_seconds(pcm)
    assert first.text == "bid four"
    assert clock() - before == pytest.approx(cost)
    # the recognizer answers the same audio with the same phrases from what it kept
    again = recognizer.decode(pcm)
    assert again.text == "bid four" and clock() - before == pytest.approx(cost)
    # streamed, it is the same decode
    recognizer.start()
    recognizer.feed(pcm)
    assert recognizer.finish().text == "bid four"
    assert clock() - before == pytest.approx(cost)
    # other phrases: decoded afresh
    recognizer.set_phrases(("bid four", "bid five"))
    recognizer.decode(pcm)
    assert clock() - before == pytest.approx(2 * cost)
    times = recognizer.times.summary()
    assert times["decodes"] == 2
    assert times["modelled_real_time_factor"] == pytest.approx(
        cost / audio_seconds(pcm), abs=1e-4)
    assert times["measured_real_time_factor"] is not None
    assert times["measured_real_time_factor"] > 0
    assert "2 decodes" in decoding_line("modelled", times)


@needs_speech
def test_a_measured_decode_costs_the_cpu_time_it_took() -> None:
    recognizer = timed(PocketSphinxRecognizer(), modelled=False)
    recognizer.set_phrases(PHRASES)
    recognizer.decode(said("scores"))  # loads the decoders
    pcm = said("bid three")
    clock = decode_clock(recognizer)
    before, cpu = clock(), time.thread_time()
    recognizer.decode(pcm)
    spent, used = clock() - before, time.thread_time() - cpu
    assert spent >= used > 0
    assert spent == pytest.approx(recognizer.times.measured[-1], abs=0.005)


@pytest.mark.slow
@needs_speech
def test_the_offline_room_bench_gives_the_same_latencies_twice(
        capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        code = bench_voice.main(["--room", "--offline", "--aec", "speex", "--seed", "3",
                                 "--during", "2", "--after", "1", "--narration-seconds", "0",
                                 "--rooms", "small", "--noises", "fan", "--json"])
        out = capsys.readouterr().out
        assert code == 0, out
        runs.append(json.loads(out.strip().splitlines()[-1])[0])
        assert "decoding counted as modelled" in out
    first, second = runs
    assert first["decoding_figures"]["decodes"] > 0
    for key in ("latency_median", "latency_within_target", "during_understood",
                "after_understood", "barge_in_rate"):
        assert first[key] == second[key], key
