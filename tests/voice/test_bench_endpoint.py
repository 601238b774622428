"""`voice-spades bench voice --through-microphone` on a few real clips."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import numpy as np
import pytest

from voice_spades.bench import voice as bench
from voice_spades.bench.voice_endpoint import background, end_of_speech
from voice_spades.voice.testing import manifest, testspeech


def test_end_of_speech_is_where_the_loud_part_stops() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0, 30, 16000 * 2)
    x[8000:24000] += 8000 * np.sin(np.arange(16000) * 2 * np.pi * 300 / 16000)
    pcm = x.astype("<i2").tobytes()
    assert end_of_speech(pcm) == pytest.approx(1.5, abs=0.021)
    noise = background(pcm, 0.5, np.random.default_rng(1))
    assert len(noise) == 16000 and noise == background(pcm, 0.5, np.random.default_rng(1))
    assert np.abs(np.frombuffer(noise, dtype="<i2")).max() < 200  # the edges: no tone


@pytest.mark.audio
@pytest.mark.skipif(not testspeech.tools_available(), reason="needs espeak-ng and sox")
def test_the_early_end_decides_a_plain_command_sooner(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("voice_spades.voice.recognizers.pocketsphinx_recognizer")
    lines = []
    for number, phrase in enumerate(["bid four", "queen of hearts"]):
        params = testspeech.SpeechParams("en-us", 150, 50, noise=0.002, pad_seconds=0.3,
                                         seed=number)
        with wave.open(str(tmp_path / f"{number}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(16000)
            out.writeframes(manifest.speak(phrase, params))
        lines.append(f"{number}.wav\t{phrase}\n")
    (tmp_path / "m.tsv").write_text("".join(lines), encoding="utf-8")
    assert bench.main(["--manifest", str(tmp_path / "m.tsv"), "--through-microphone",
                       "--seed", "5", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert row["clips"] == 2 and row["unheard"] == 0
    assert row["prompts"]["bid"]["early_ended"] == 1
    assert row["accuracy"] == row["plain_accuracy"] == 1.0
    early, plain = row["latency_ms"], row["plain_latency_ms"]
    assert 0 < early["median"] <= early["p95"]
    # The full quiet alone is 0.6 s after the speech; a pause is 0.2 s.
    assert early["p95"] < plain["median"] and plain["median"] > 600
