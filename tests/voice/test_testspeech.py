"""The espeak-ng test-speech helper: format, parameters, noise and the cache."""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest

from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.testspeech import SpeechParams, synthesize, synthesize_file

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(not testspeech.tools_available(),
                                 reason="needs espeak-ng and sox")]


def test_speech_is_16_khz_mono_int16_of_a_plausible_length(tmp_path: Path) -> None:
    pcm = synthesize("queen of hearts", SpeechParams(), tmp_path)
    seconds = len(pcm) / 2 / 16000
    assert 0.6 < seconds < 3.0
    assert np.abs(np.frombuffer(pcm, dtype="<i2")).max() > 3000


def test_speed_padding_and_noise_change_the_clip(tmp_path: Path) -> None:
    slow = synthesize("bid four", SpeechParams(speed=120), tmp_path)
    fast = synthesize("bid four", SpeechParams(speed=200), tmp_path)
    assert len(slow) > len(fast)
    padded = synthesize("bid four", SpeechParams(speed=200, pad_seconds=0.5), tmp_path)
    assert len(padded) == len(fast) + 2 * 2 * 8000
    clean = np.frombuffer(padded, dtype="<i2")
    noisy = np.frombuffer(synthesize("bid four", SpeechParams(speed=200, pad_seconds=0.5,
                                                               noise=0.02), tmp_path),
                          dtype="<i2")
    assert np.abs(clean[:4000]).max() == 0
    assert 300 < np.abs(noisy[:4000]).max() <= 0.02 * 32767 + 1


def test_clips_are_cached_by_their_parameters(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    first = synthesize_file("help", SpeechParams(voice="en-gb", pitch=40), tmp_path)
    other = synthesize_file("help", SpeechParams(voice="en-gb", pitch=41), tmp_path)
    assert first != other

    def no_tools(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cached clip was synthesized again")

    monkeypatch.setattr(subprocess, "run", no_tools)
    assert synthesize_file("help", SpeechParams(voice="en-gb", pitch=40), tmp_path) == first


def test_wav_output(tmp_path: Path) -> None:
    pcm = synthesize("yes", SpeechParams(), tmp_path)
    testspeech.write_wav(pcm, tmp_path / "yes.wav")
    with wave.open(str(tmp_path / "yes.wav")) as clip:
        assert (clip.getframerate(), clip.getnchannels(), clip.getsampwidth()) == (16000, 1, 2)
        assert clip.readframes(clip.getnframes()) == pcm


def test_a_pause_inside_a_command_is_said_where_planned() -> None:
    from voice_spades.voice.testing.manifest import PAUSES_INSIDE, plan, render, with_pauses

    clips = plan(40, ["en-us"], [150], [50], [0.0])
    paused = with_pauses(clips, seed=3)
    assert paused and all(len(c.transcript.split()) >= 2 for c in paused)
    assert len(paused) == sum(len(c.transcript.split()) >= 2 for c in clips)
    clip = next(c for c in paused if c.transcript == "exchange them" or c.cut == 1)
    assert PAUSES_INSIDE[0] <= clip.pause <= PAUSES_INSIDE[1]
    samples = np.abs(np.frombuffer(render(clip), "<i2").astype(np.int32))
    frames = samples[:len(samples) // 160 * 160].reshape(-1, 160).max(axis=1)
    loud = np.flatnonzero(frames > 0.02 * frames.max())
    gaps = np.diff(loud) - 1  # quiet 10 ms frames between loud ones
    # the longest quiet inside the speech is the pause (espeak-ng's own gaps are shorter)
    assert abs(gaps.max() / 100 - clip.pause) < 0.05


def test_reverberation_keeps_the_clip_and_fills_the_quiet_after_it() -> None:
    from voice_spades.voice.testing.manifest import plan, render, with_reverb

    clip = plan(1, ["en-us"], [150], [50], [0.0])[0]
    dry = np.frombuffer(render(clip), "<i2").astype(np.float64)
    wet_clip = with_reverb([clip], [70], seed=1)[0]
    assert wet_clip.reverb == 70 and wet_clip.transcript == clip.transcript
    wet = np.frombuffer(render(wet_clip), "<i2").astype(np.float64)
    assert len(wet) == len(dry)
    loud = np.flatnonzero(np.abs(dry) > 0.02 * np.abs(dry).max())
    after = slice(loud[-1] + 400, loud[-1] + 2400)  # 25-150 ms after the last sound
    assert np.sqrt(np.mean(wet[after] ** 2)) > 3 * np.sqrt(np.mean(dry[after] ** 2))
    assert with_reverb([clip] * 20, [0, 40], seed=2) == with_reverb([clip] * 20, [0, 40], seed=2)
