"""The room bench: its simulated room (arrays in, arrays out), and a tiny run end to end
through the virtual sound device, the game's own output and its real microphone path."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from voice_spades.bench import voice as bench_voice
from voice_spades.voice.testing.room import (
    RATE,
    RoomLoop,
    StreamingConvolver,
    convolve,
    impulse_responses,
    speech_span,
)
from voice_spades.voice.testing.testspeech import tools_available

pytest.importorskip("pyroomacoustics")


def test_the_streaming_convolution_is_the_convolution_a_block_late() -> None:
    response = impulse_responses("large")[0]
    sizes = np.random.default_rng(2).integers(50, 500, size=120)
    x = np.random.default_rng(1).normal(size=int(sizes.sum()))
    convolver = StreamingConvolver(response)
    pieces, start = [], 0
    for size in sizes:
        pieces.append(convolver.feed(x[start:start + size]))
        start += int(size)
    out = np.concatenate(pieces)
    expected = convolve(x[:start], response)[:start]
    assert len(out) == start
    assert np.allclose(out[160:], expected[:start - 160], atol=1e-6)


def test_rooms_reverberate_longer_as_they_grow() -> None:
    lengths = [len(impulse_responses(room)[0]) for room in ("small", "medium", "large")]
    assert lengths == sorted(lengths) and lengths[0] > RATE // 50
    for room in ("small", "large"):
        echo, player = impulse_responses(room)
        assert float(np.sum(echo ** 2)) == pytest.approx(1.0, rel=1e-3)
        assert float(np.sum(player ** 2)) == pytest.approx(1.0, rel=1e-3)


def test_the_player_is_heard_when_scheduled_on_the_outputs_clock() -> None:
    loop = RoomLoop("small", echo_gain=0.0, noise="quiet", seed=1)
    word = np.zeros(RATE, dtype=np.float32)
    word[4000:8000] = 0.3 * np.sin(np.arange(4000) * 0.3)
    clip = loop.say(word, at=10.5)
    heard = []
    for block in range(100):
        loop.add_reference(np.zeros(480, dtype=np.float32), 48000, 10.0 + block * 0.01)
        pcm = loop.next_block(timeout=0.0, now=100.0 + block * 0.01)
        assert pcm is not None
        heard.append(pcm)
    samples = np.frombuffer(b"".join(heard), dtype="<i2").astype(np.float32) / 32768
    start, end = speech_span(samples)
    assert start == pytest.approx(0.5 + 0.25, abs=0.03)  # scheduled at +0.5 s, word at 0.25 s
    assert end - start == pytest.approx(0.25, abs=0.05)
    assert clip.written_start == pytest.approx(100.5, abs=0.011)


@pytest.mark.audio
@pytest.mark.slow
@pytest.mark.skipif(not tools_available() or shutil.which("aplay") is None,
                    reason="needs espeak-ng, sox and ALSA")
def test_a_tiny_room_bench_runs_through_the_virtual_device(
        capsys: pytest.CaptureFixture[str]) -> None:
    """One command over the narrator ("i bid twelve") and one after it ("cancel"), loud
    and in a quiet room, then a little narration alone: the command over the narrator
    stops it soon after it begins (what the recognizer makes of it is the bench's to
    count: one clip decides no rate), the one after it is understood, the narration
    acts on nothing, and the echo's delay was measured on the device."""
    code = bench_voice.main(["--room", "--aec", "speex", "--seed", "4", "--during", "1",
                             "--after", "1", "--narration-seconds", "8", "--ratios", "6",
                             "--noises", "quiet", "--rooms", "medium", "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    row = json.loads(out.strip().splitlines()[-1])[0]
    print(out)
    assert row["aec"] == "speex" and row["during"] == 1 and row["after"] == 1
    assert row["barge_in_rate"] == 1.0
    assert 0.0 < row["barge_in_seconds_median"] < 0.6
    assert row["after_understood"] == 1.0
    assert row["scene_extra_act_or_ask"] == 0 and row["wrong_unasked"] == 0
    assert row["narration_minutes"] > 0.1 and row["narration_bad_minutes"] == 0
    assert row["delays_ms"] and all(d != 0.0 for d in row["delays_ms"])
    assert "commands understood while the narrator speaks" in out


def test_narration_alone_plays_distinct_clips_louder_and_quieter_in_turn() -> None:
    from voice_spades.bench.voice_room_run import (
        CLIPS_CAP,
        clip_count,
        echo_gain,
        narration_gain,
    )

    assert clip_count(18, 45.0) == 18
    assert clip_count(0, 600.0) == 151 <= CLIPS_CAP
    assert clip_count(0, 3600.0) == CLIPS_CAP
    clip = np.sin(np.arange(RATE, dtype=np.float32) / 7.0).astype(np.float32) * 0.1
    levels = [20 * np.log10(narration_gain(clip, n) / echo_gain(clip)) for n in range(4)]
    assert np.allclose(levels, [0.0, 6.0, -6.0, 0.0])


def test_the_live_room_bench_elsewhere_than_linux_says_to_run_offline(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """ALSA's virtual device exists on Linux only: on Windows or macOS the live room
    bench says so, and how to run it instead, rather than failing per configuration."""
    monkeypatch.setattr("sys.platform", "win32")
    code = bench_voice.main(["--room", "--aec", "speex,none"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--offline" in err and "skipped" not in err
