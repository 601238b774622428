"""Reading a capture stream on the microphone's thread, block after block.

Reads block on a real device; a device that never makes the reader wait (an ALSA
``file`` device reading a file, as in the tests) is paced to real time. Each block
goes on with about when it was recorded, on PortAudio's clock (for echo
cancellation).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from voice_spades.speech.audio_stream import quiet_stderr
from voice_spades.voice.audio.resample import Resampler
from voice_spades.voice.audio.vad import SAMPLE_RATE

_log = logging.getLogger(__name__)

PACE_AHEAD = 0.1
"""A device running this far ahead of the clock without ever blocking is paced."""
CATCH_UP = 2.0
"""Seconds a paced device may fall behind the clock (a busy machine) and still be read
faster until it has caught up: forgiving each lag would let it run ever further ahead
of a source that keeps real time."""


def capture(stream: Any, block: int, converter: Resampler | None,
            process: Callable[[bytes, float | None], None], stop: threading.Event,
            failed: Callable[[], None]) -> None:
    """Read ``stream`` ``block`` frames at a time (resampled by ``converter``) into
    ``process`` until ``stop`` is set, then close it; ``failed`` when reading fails."""
    block_seconds = block / (converter.rate if converter else SAMPLE_RATE)
    anchor = time.monotonic()
    heard = 0.0
    try:
        while not stop.is_set():
            before = time.monotonic()
            data, _overflowed = stream.read(block)
            waited = time.monotonic() - before
            pcm = converter.feed(bytes(data)) if converter else bytes(data)
            process(pcm, recorded(stream, len(data) // 2, converter))
            heard += block_seconds
            ahead = heard - (time.monotonic() - anchor)
            if ahead < -CATCH_UP:  # a long stall: start counting again
                anchor = time.monotonic() - heard
            elif waited < 0.001 and ahead > PACE_AHEAD:
                stop.wait(ahead - PACE_AHEAD / 2)
    except Exception as exc:
        _log.warning("the microphone failed: %r", exc)
        failed()
    finally:
        with quiet_stderr(), contextlib.suppress(Exception):
            stream.close()


def recorded(stream: Any, frames: int, converter: Resampler | None) -> float | None:
    """About when the first sample of the block just read was recorded, on PortAudio's
    clock: now, less the block (a blocking read gives no ADC time; what is left is
    measured from the sound)."""
    try:
        rate = converter.rate if converter else SAMPLE_RATE
        return float(stream.time) - frames / rate
    except Exception:  # a stream without a clock: the canceller counts on
        return None
