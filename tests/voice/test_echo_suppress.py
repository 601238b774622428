"""Speex's residual echo suppressor after its adaptive filter (an option, off by
default): more of the narration's echo taken out, the player's voice said over it
kept, and the echo gate judging the filter's own output (the suppressor's output
would look like a voice lowered by the canceller)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.voice.test_echo import cancel, echo_loss_db, narration
from voice_spades.bench.voice_room_run import to_16k
from voice_spades.bench.voice_room_scenes import synthesize_line
from voice_spades.voice.audio.echo import EchoCanceller
from voice_spades.voice.testing.room import RATE, gain_for, render_echo, speech_span
from voice_spades.voice.testing.testspeech import tools_available

pytest.importorskip("pyroomacoustics")
pytest.importorskip("speexdsp_aec")
pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")]

VOICE_AT = 4.0
"""Seconds into the narration the player says "bid three", as loud as the echo."""


def recordings() -> tuple[np.ndarray, np.ndarray, np.ndarray, slice]:
    """The narration, its echo in the small room, the echo with the player's voice
    over it, and where the voice's speech lies."""
    far = narration()
    rng = np.random.default_rng(1)
    echo = render_echo(far, "small", delay=0.05)
    voice = to_16k(*synthesize_line("Bid three."))
    voice = (voice * gain_for(voice, -30.0)).astype(np.float32)
    at = round(VOICE_AT * RATE)
    both = echo.copy()
    both[at:at + len(voice)] += voice[:len(both) - at]
    noise = rng.normal(0, 3e-4, len(echo)).astype(np.float32)
    start, end = speech_span(voice)
    return far, echo + noise, both + noise, slice(at + round(start * RATE),
                                                 at + round(end * RATE))


def test_the_suppressor_takes_more_echo_out_and_keeps_the_voice() -> None:
    far, echo, both, speech = recordings()
    losses, voices = {}, {}
    for suppress in (False, True):
        losses[suppress] = echo_loss_db(echo, cancel(EchoCanceller("speex", suppress=suppress),
                                                     echo, far), skip=3.0)
        cleaned = cancel(EchoCanceller("speex", suppress=suppress), both, far)
        voices[suppress] = float(10 * np.log10(np.mean(cleaned[speech] ** 2)
                                               / np.mean(both[speech] ** 2)))
        print(f"suppress={suppress}: echo {losses[suppress]:.1f} dB quieter, "
              f"voice over it {voices[suppress]:+.1f} dB")
    assert losses[True] >= losses[False] + 0.5
    assert voices[True] >= voices[False] - 3.0


def test_the_gate_hears_the_filters_output_not_the_suppressors() -> None:
    far, echo, _, _ = recordings()
    canceller = EchoCanceller("speex", suppress=True)
    frames = []
    for start in range(0, len(echo) - 319, 320):
        for half in (start, start + 160):
            canceller.add_reference(far[half:half + 160], RATE, half / RATE)
        pcm = np.clip(np.round(echo[start:start + 320] * 32767), -32768, 32767)
        frames.append(canceller.process(pcm.astype("<i2").tobytes(), start / RATE))
    from voice_spades.voice.audio.vad import energy_db

    pairs = [(c.linear_db, energy_db(c.pcm)) for c in frames[round(3.0 * RATE / 320):]
             if c.reference_db is not None]
    assert pairs and all(linear is not None for linear, _ in pairs)
    linear_power = sum(10 ** (linear / 10) for linear, _ in pairs if linear is not None)
    power = sum(10 ** (level / 10) for _, level in pairs)
    print(f"the suppressor's output {10 * np.log10(linear_power / power):.1f} dB under "
          "the filter's")
    assert 10 * np.log10(linear_power / power) >= 0.5
