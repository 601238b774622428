"""Echo cancellation on a simulated room: the game's own narration (pyttsx3 + espeak-ng)
through image-source impulse responses, taken out again with the played audio as
reference; the delay between output and input measured; a missing library said once."""

from __future__ import annotations

import sys
from functools import cache

import numpy as np
import pytest

from tests.voice.wording import said
from voice_spades.errors import SetupError
from voice_spades.voice.audio import echo
from voice_spades.voice.audio.echo import EchoCanceller, echo_canceller_for, open_backend
from voice_spades.voice.audio.echo_align import DelayEstimator, ReferenceTimeline
from voice_spades.voice.testing.room import RATE, Floats, render_echo
from voice_spades.voice.testing.testspeech import tools_available

pytest.importorskip("pyroomacoustics")
pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")]

LINES = ("Partner North led the ace of clubs. East played the queen of clubs. "
         "You played the 6 of clubs. West played the 4 of clubs. Partner North won the "
         "trick with the ace of clubs. Partner North led the jack of hearts.")


@cache
def narration() -> Floats:
    """The narrator saying a few game lines, at 16 kHz (the game's synthesizer)."""
    from voice_spades.bench.voice_room_run import to_16k
    from voice_spades.bench.voice_room_scenes import synthesize_line

    return to_16k(*synthesize_line(LINES))


def cancel(canceller: EchoCanceller, near: Floats, far: Floats,
           delay: float = 0.0) -> Floats:
    """Run the canceller over a whole recording: ``far`` played from time 0 (in 10 ms
    blocks, as the output's tap gives them), ``near`` recorded from ``delay``."""
    out = []
    for start in range(0, len(near) - 319, 320):
        at = start / RATE
        for half in (start, start + 160):
            canceller.add_reference(far[half:half + 160], RATE, half / RATE)
        frame = np.clip(np.round(near[start:start + 320] * 32767), -32768, 32767)
        cleaned = canceller.process(frame.astype("<i2").tobytes(), at + delay)
        out.append(np.frombuffer(cleaned.pcm, dtype="<i2").astype(np.float32) / 32767)
    return np.concatenate(out)


def echo_loss_db(near: Floats, cleaned: Floats, skip: float) -> float:
    """How much quieter the cleaned recording is than the echo, after ``skip`` seconds
    (the adaptive filter's learning)."""
    first = round(skip * RATE)
    a, b = near[first:len(cleaned)], cleaned[first:]
    return float(10 * np.log10(np.sum(a.astype(np.float64) ** 2)
                               / max(np.sum(b.astype(np.float64) ** 2), 1e-12)))


# Measured on this narration (pytest -s prints them): Speex 10.7-11.5 dB, AEC3 21-36 dB.
MARGINS = {"speex": 8.0, "webrtc": 15.0}


@pytest.mark.parametrize("backend", ["speex", "webrtc"])
@pytest.mark.parametrize("room", ["small", "large"])
def test_the_canceller_takes_the_rooms_echo_out(backend: str, room: str) -> None:
    far = narration()
    near = render_echo(far, room, delay=0.05)
    near = near + np.random.default_rng(1).normal(0, 3e-4, len(near)).astype(np.float32)
    canceller = EchoCanceller(backend)
    cleaned = cancel(canceller, near, far)
    loss = echo_loss_db(near, cleaned, skip=3.0)
    print(f"{backend} {room}: echo {loss:.1f} dB quieter, delay {canceller.delay * 1000:.1f} ms")
    assert loss >= MARGINS[backend]
    assert canceller.name == backend


def test_without_a_reference_the_microphone_passes_through() -> None:
    canceller = EchoCanceller("speex")
    frame = (np.arange(320) % 50 * 100).astype("<i2").tobytes()
    cleaned = canceller.process(frame, 5.0)
    assert cleaned.pcm == frame and cleaned.reference_db is None and not canceller.active


def test_a_frame_says_whether_the_game_played_anything_audible_lately() -> None:
    """The output runs from the start, but sends only silence until the narration is
    synthesized; then a sound; :data:`echo.SOUNDING` seconds later its echo has died."""
    canceller = EchoCanceller("speex")
    frame = np.zeros(320, dtype="<i2").tobytes()
    silent = np.zeros(320, dtype=np.float32)
    sound = (0.1 * np.sin(np.arange(320) / 5)).astype(np.float32)
    heard = []
    for i in range(300):
        now = i * 0.02
        canceller.add_reference(sound if i == 100 else silent, RATE, now)
        cleaned = canceller.process(frame, now)
        assert canceller.active
        heard.append(cleaned.sounding)
    assert not any(heard[:100])
    assert all(heard[100:100 + round(echo.SOUNDING / 0.02)])
    assert not any(heard[102 + round(echo.SOUNDING / 0.02):])


def test_the_delay_between_output_and_input_is_measured_and_compensated() -> None:
    """The microphone's times run 187 ms behind what really reached it (a device's
    buffers): the estimator finds it to a few samples, and cancelling with it measured
    beats cancelling blind."""
    far = narration()
    near = render_echo(far, "medium", delay=0.187)
    blind = EchoCanceller("speex", estimator=DelayEstimator(every=1e9))
    measured = EchoCanceller("speex")
    lost_blind = echo_loss_db(near, cancel(blind, near, far), skip=4.0)
    lost = echo_loss_db(near, cancel(measured, near, far), skip=4.0)
    print(f"delay {measured.delay * 1000:.1f} ms; echo {lost:.1f} dB quieter "
          f"(blind: {lost_blind:.1f} dB)")
    assert measured.delay == pytest.approx(0.187 + 0.003, abs=0.004)  # + the direct path
    assert lost >= 10.0 and lost > lost_blind + 6.0


def test_the_timeline_places_blocks_at_their_time_and_fills_gaps_with_silence() -> None:
    timeline = ReferenceTimeline()
    block = np.full(480, 0.5, dtype=np.float32)
    timeline.add(block, 48000, 10.0)  # 10 ms at 48 kHz
    timeline.add(block, 48000, 10.01)
    timeline.add(block, 48000, 10.5)  # the output was idle for 480 ms
    assert np.allclose(timeline.read(10.002, 100)[:90], 0.5, atol=0.02)
    assert np.allclose(timeline.read(10.1, 1600), 0.0, atol=1e-3)
    assert float(np.mean(timeline.read(10.505, 80))) == pytest.approx(0.5, abs=0.02)
    assert np.all(timeline.read(20.0, 50) == 0.0)  # not played (yet)
    assert timeline.sounding(10.52, 0.05) and not timeline.sounding(11.0, 0.1)


def test_the_estimator_ignores_silence_and_agrees_twice_before_moving() -> None:
    timeline = ReferenceTimeline()
    estimator = DelayEstimator()
    quiet = np.zeros(320, dtype=np.float32)
    for i in range(300):
        timeline.add(quiet, RATE, i * 0.02)
        assert not estimator.feed(quiet, i * 0.02, timeline)
    assert estimator.delay is None and estimator.measures == []


def test_a_missing_library_is_said_once_and_the_other_is_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "speexdsp_aec", None)  # as if not installed
    assert open_backend().name == "webrtc"
    monkeypatch.setitem(sys.modules, "pywebrtc_audio", None)
    with pytest.raises(SetupError) as raised:
        open_backend()
    assert raised.value.message_id == echo.UNAVAILABLE
    assert said(raised.value.message) == (
        "Echo cancellation is off: libspeexdsp / pywebrtc-audio is missing. Voice still "
        "works, but the microphone pauses while the game speaks: wait for it to finish, "
        "press a key to cut it short, or use headphones.")


def test_no_reference_no_canceller_and_no_message_for_text_or_a_screen_reader() -> None:
    class ScreenReader:
        audio = None

    assert echo_canceller_for(ScreenReader()) == (None, None)
    assert echo_canceller_for(None) == (None, None)
