"""Acoustic echo cancellation: the game's own sound taken out of what the microphone hears.

On loudspeakers the microphone hears the narrator and the sound cues. The game
knows exactly what it played (the output's reference tap, :mod:`.echo_align`), so an
adaptive filter can predict that sound as it arrives at the microphone and subtract
it, leaving the player's voice. :class:`EchoCanceller` does that for 20 ms frames of
16 kHz mono int16, with one of two maintained libraries:

* ``speex`` (the default): libspeexdsp's multi-delay adaptive filter, through the
  ``speexdsp-aec`` package (Debian ``libspeexdsp1``, Homebrew ``speexdsp``);
* ``webrtc``: WebRTC's AEC3, through ``pywebrtc-audio`` (wheels everywhere).

Measured on simulated rooms (``voice-spades bench voice --room --offline``): AEC3
removes more echo (18-28 dB against 10-20), but it also suppresses much of the
player's voice while the narrator speaks, which is the moment this exists for; the
Speex filter keeps the voice nearly intact (the recognizer understood far more
commands said over the narrator), and the echo it leaves is handled by the
microphone's echo gate (:mod:`.echo_gate`). So Speex comes first and AEC3 is the
fallback where libspeexdsp is missing. libspeexdsp's residual echo suppressor can
follow the filter (:class:`ResidualSuppressor`); measured, it helped nothing, so it
is off by default.

The reference is read at the microphone frame's own time, shifted by the measured
delay and a small lead (so the echo always comes after the reference, as the filter
needs); with no reference stream (no sound output) frames pass through unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.voice.audio.echo_align import (
    RATE,
    DelayEstimator,
    Floats,
    ReferenceTimeline,
)
from voice_spades.voice.audio.vad import energy_db

_log = logging.getLogger(__name__)

BACKENDS = ("speex", "webrtc")
"""The echo cancellers, best first (see the module doc)."""
FRAME = 320
"""Samples per frame: 20 ms at 16 kHz, the microphone's frame."""
TAIL_MS = 300
"""How much of the room's echo the Speex filter models, in milliseconds."""
LEAD = 0.03
"""Seconds the reference is given ahead of its echo (timing jitter must never put
the echo first)."""
REANCHOR = 1.0
"""Seconds between the device's time and the sample count that mean audio was lost
(a blocking read's time jitters, and a device with no clock of its own, such as the
tests' virtual one, runs a little faster or slower than the wall clock: both sides
count samples, so the delay measured between them stays put)."""
SLACK = 0.1
"""Seconds the echo may come later than the compensated delay before the reference is
moved (the filter models the rest of its tail)."""
SOUNDING = 2.0
"""Seconds after the game last played something audible during which its echo may
still reach the microphone: the longest delay the estimator looks for (1.5 s) and
half a second of reverberation."""
QUIET_REFERENCE = 2.0
"""With no reference block for this long the output is taken for gone: frames pass
through untouched."""
SUPPRESS_DB = (-40, -15, -15)
"""The residual echo suppressor's most attenuation (dB): of echo alone, of echo while
the player talks, of the room's noise (libspeexdsp's own defaults)."""
_PP_SET_DENOISE, _PP_SET_AGC, _PP_SET_DEREVERB = 0, 2, 8
_PP_SET_NOISE_SUPPRESS, _PP_SET_ECHO_SUPPRESS, _PP_SET_ECHO_SUPPRESS_ACTIVE = 18, 20, 22
_PP_SET_ECHO_STATE = 24
"""libspeexdsp's preprocessor requests (speex_preprocess.h)."""
UNAVAILABLE = "echo.unavailable"
"""Catalog id: no echo canceller could be loaded (the message names the library)."""

Int16s = npt.NDArray[np.int16]


class Backend(Protocol):
    """An echo canceller library: ``near`` (microphone) minus the echo of ``far``."""

    name: str

    def process(self, near: Int16s, far: Int16s) -> Int16s:
        """One frame of :data:`FRAME` samples in, the same length out."""
        ...


class SpeexBackend:
    """libspeexdsp's echo canceller (``speexdsp-aec``), followed (unless
    ``suppress_db`` is None) by libspeexdsp's residual echo suppressor: its
    preprocessor tied to the canceller, which takes the echo the filter could not
    predict out of each frequency band (see :class:`ResidualSuppressor`)."""

    name = "speex"

    def __init__(self, tail_ms: int = TAIL_MS,
                 suppress_db: tuple[int, int, int] | None = None) -> None:
        # RuntimeError when libspeexdsp is missing
        from speexdsp_aec import SpeexAec  # type: ignore[import-untyped]

        self._aec = SpeexAec(sample_rate=RATE, frame_ms=FRAME * 1000 // RATE,
                             filter_tail_ms=tail_ms)
        self.linear: Int16s | None = None
        """The last frame before residual suppression (the filter's own output)."""
        self._suppressor = None if suppress_db is None \
            else ResidualSuppressor(self._aec, *suppress_db)

    def process(self, near: Int16s, far: Int16s) -> Int16s:
        """See :class:`Backend`."""
        out = np.frombuffer(self._aec.process(near, far), dtype=np.int16)
        self.linear = out
        if self._suppressor is not None and len(out) == FRAME:
            out = self._suppressor.run(out)
        return out


class ResidualSuppressor:
    """libspeexdsp's preprocessor on the canceller's output, linked to its echo state:
    it reads the canceller's estimate of the echo left in each band and lowers those
    bands by up to ``echo_db`` (``active_db`` while the player talks), and the room's
    steady noise by up to ``noise_db``. No automatic gain, no dereverberation.

    Measured in the room bench (offline, seed 5, 36 commands over the narrator, 10
    minutes of narration alone) it changed nothing that matters: 64% understood over
    the narrator with it and without; it takes only 1-2 dB more echo out (its
    estimate of the residual follows the filter's), distorts the voice said over the
    narrator, and the narration alone caused one question with it, none without. So
    it is off unless asked for (``EchoCanceller(suppress=True)``). Its noise suppressor
    alone (no echo link, -15 dB), measured the same way, understood 22 of 36 against 21
    on one set of scenes and 27 against 27 on another, lost one command said after the
    narrator, let the narration cause one question, and ended utterances later (median
    latency 675 ms against 565 ms): not kept either."""

    def __init__(self, aec: Any, echo_db: int, active_db: int, noise_db: int) -> None:
        import ctypes

        lib = aec._lib
        lib.speex_preprocess_state_init.restype = ctypes.c_void_p
        lib.speex_preprocess_state_init.argtypes = [ctypes.c_int, ctypes.c_int]
        lib.speex_preprocess_ctl.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
        lib.speex_preprocess_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.speex_preprocess_state_destroy.argtypes = [ctypes.c_void_p]
        self._lib, self._aec = lib, aec  # the echo state must outlive this
        self._state = lib.speex_preprocess_state_init(FRAME, RATE)
        if not self._state:
            raise RuntimeError("speex_preprocess_state_init failed")
        echo = ctypes.c_void_p(aec._state)
        lib.speex_preprocess_ctl(self._state, _PP_SET_ECHO_STATE, echo)
        for request, value in ((_PP_SET_DENOISE, 1), (_PP_SET_AGC, 0), (_PP_SET_DEREVERB, 0),
                               (_PP_SET_NOISE_SUPPRESS, noise_db),
                               (_PP_SET_ECHO_SUPPRESS, echo_db),
                               (_PP_SET_ECHO_SUPPRESS_ACTIVE, active_db)):
            number = ctypes.c_int(value)
            lib.speex_preprocess_ctl(self._state, request, ctypes.byref(number))

    def run(self, frame: Int16s) -> Int16s:
        """One frame of the canceller's output, its residual echo suppressed."""
        out = np.array(frame, dtype=np.int16)
        self._lib.speex_preprocess_run(self._state, out.ctypes.data)
        return out

    def __del__(self) -> None:
        state, self._state = getattr(self, "_state", None), None
        if state:
            self._lib.speex_preprocess_state_destroy(state)


class WebRtcBackend:
    """WebRTC's AEC3 (``pywebrtc-audio``), fed 10 ms at a time as it requires."""

    name = "webrtc"

    def __init__(self) -> None:
        from pywebrtc_audio import EchoCanceller as Aec3

        self._aec = Aec3(sample_rate=RATE, num_channels=1, stream_delay_ms=0)

    def process(self, near: Int16s, far: Int16s) -> Int16s:
        """See :class:`Backend`."""
        half = len(near) // 2
        parts = [self._aec.process(np.ascontiguousarray(near[i:i + half]),
                                   np.ascontiguousarray(far[i:i + half]))
                 for i in (0, half)]
        return np.concatenate(parts).astype(np.int16, copy=False)


def open_backend(name: str = "auto", suppress: bool = False) -> Backend:
    """The named canceller, or with "auto" the first of :data:`BACKENDS` that loads
    (Speex followed by its residual echo suppressor when ``suppress``).
    SetupError (:data:`UNAVAILABLE`) when none can."""
    names = BACKENDS if name == "auto" else (name,)
    failures: list[str] = []
    for candidate in names:
        try:
            if candidate == "speex":
                return SpeexBackend(suppress_db=SUPPRESS_DB if suppress else None)
            return WebRtcBackend()
        except (ImportError, OSError, RuntimeError) as error:
            _log.info("echo canceller %s unavailable: %s", candidate, error)
            failures.append("libspeexdsp" if candidate == "speex" else "pywebrtc-audio")
    raise SetupError(UNAVAILABLE, library=" / ".join(failures) or name)


@dataclass(frozen=True, slots=True)
class Cleaned:
    """One microphone frame after cancellation."""

    pcm: bytes
    linear: Int16s | None = None
    """The frame after the adaptive filter alone, before residual suppression (None
    when there is none)."""
    played: Int16s | None = None
    """What was played as this frame was heard, as the canceller was given it (None
    when nothing was playing, or there is no reference at all)."""
    sounding: bool = True
    """Whether the game played anything audible less than :data:`SOUNDING` seconds
    before this frame was heard (or is about to): its echo may be in the frame, even
    where ``played`` is None (before the delay is measured, say)."""

    @property
    def reference_db(self) -> float | None:
        """The level (as :func:`~voice_spades.voice.audio.vad.energy_db` measures it)
        of what was played at the moment this frame heard; None when nothing was."""
        return None if self.played is None else energy_db(self.played.tobytes())

    @property
    def linear_db(self) -> float | None:
        """The frame's level after the adaptive filter alone (None when there is none):
        the echo gate judges this one."""
        return None if self.linear is None else energy_db(self.linear.tobytes())


class EchoCanceller:
    """Removes the game's own sound from microphone frames (see the module doc).

    Give :meth:`add_reference` to the output as its reference listener; call
    :meth:`process` with each microphone frame and, when known, the time its first
    sample was recorded (on the output's clock).
    """

    def __init__(self, backend: str = "auto", *, lead: float = LEAD,
                 estimator: DelayEstimator | None = None,
                 timeline: ReferenceTimeline | None = None, delay: float = 0.0,
                 suppress: bool = False) -> None:
        self.suppress = suppress
        """Whether Speex's residual echo suppressor follows its filter (off by default:
        see :class:`ResidualSuppressor`)."""
        self.backend = open_backend(backend, suppress)
        self.timeline = timeline or ReferenceTimeline()
        self.estimator = estimator or DelayEstimator()
        self.lead = lead
        self.delay = delay
        """The compensated delay in seconds: how long after its DAC time the microphone
        hears a played sample (measured; 0 until then)."""
        self._mic_anchor: float | None = None
        self._mic_samples = 0
        self.active = False
        """True when the last frame was processed against a reference."""
        self._audio: Any = None
        self._aligned = False
        self.measured: float | None = None
        """The last delay measured (the one compensated may differ a little)."""
        self.frames = 0
        """Frames processed against a reference."""
        self.delay_changes = 0
        self.on_cleaned: Callable[[bytes], None] | None = None
        """Called with each frame after cancellation (the benches trace with it)."""

    @property
    def name(self) -> str:
        """The library in use ("speex" or "webrtc")."""
        return self.backend.name

    # ----- the output's side -----------------------------------------------------
    def attach(self, audio: Any) -> None:
        """Hear what ``audio`` (an :class:`~voice_spades.speech.audio_out.AudioOut`)
        plays: its reference tap feeds :meth:`add_reference`."""
        self.detach()
        audio.add_reference_listener(self.add_reference)
        self._audio = audio

    def detach(self) -> None:
        """Stop hearing the output (when voice input stops)."""
        audio, self._audio = self._audio, None
        if audio is not None:
            audio.remove_reference_listener(self.add_reference)

    def add_reference(self, block: Floats, samplerate: int, dac_time: float) -> None:
        """The output's reference listener: a block played, heard from ``dac_time``."""
        self.timeline.add(block, samplerate, dac_time)

    def has_reference(self, now: float) -> bool:
        """True while the output hands over blocks (it runs)."""
        last = self.timeline.last_block
        return last is not None and last >= now - QUIET_REFERENCE

    # ----- the microphone's side ---------------------------------------------------
    def frame_time(self, time: float | None, samples: int) -> float:
        """The recording time of the next frame, counted in samples from the first time
        the device gave (a blocking read's time jitters by a block or more; what is left
        of the offset is measured from the sound). A time further than
        :data:`REANCHOR` from the count (lost audio, a restarted stream) starts the
        count again."""
        if time is not None:
            start = time - self._mic_samples / RATE
            if self._mic_anchor is None or abs(start - self._mic_anchor) > REANCHOR:
                self._mic_anchor = start
        elif self._mic_anchor is None:
            self._mic_anchor = 0.0
        at = self._mic_anchor + self._mic_samples / RATE
        self._mic_samples += samples
        return at

    def process(self, frame: bytes, time: float | None = None) -> Cleaned:
        """Cancel the echo in one frame of :data:`FRAME` samples (int16 bytes)."""
        near = np.frombuffer(frame[:len(frame) - len(frame) % 2], dtype="<i2")
        at = self.frame_time(time, len(near))
        self.active = self.has_reference(at) and len(near) == FRAME
        if not self.active:
            if self.on_cleaned is not None:
                self.on_cleaned(frame)
            return Cleaned(frame)
        raw = near.astype(np.float32) / 32768.0
        if self.estimator.feed(raw, at, self.timeline):
            self._set_delay(self.estimator.delay or 0.0)
        far_f = self.timeline.read(at - self.delay + self.lead, len(near))
        far = np.clip(np.round(far_f * 32767.0), -32768, 32767).astype(np.int16)
        self.frames += 1
        out = self.backend.process(np.ascontiguousarray(near, dtype=np.int16), far)
        silent = not np.any(far)
        linear = getattr(self.backend, "linear", None)
        pcm = out.astype("<i2").tobytes()
        if self.on_cleaned is not None:
            self.on_cleaned(pcm)
        return Cleaned(pcm, linear, None if silent else far,
                       self.timeline.sounding(at, SOUNDING))

    def _set_delay(self, delay: float) -> None:
        """A new measure of the delay. The filter follows a small change itself (it
        models :data:`TAIL_MS` of echo from ``lead`` before the delay on); moving the
        reference makes it learn everything again, so that is done only when the echo
        would fall outside what it models."""
        self.measured = delay
        if self._aligned and self.delay - self.lead + 0.005 <= delay <= self.delay + SLACK:
            return
        self._aligned = True
        self.delay = delay
        self.delay_changes += 1
        _log.info("echo delay %.1f ms", delay * 1000)
        self.backend = open_backend(self.backend.name, self.suppress)


def echo_canceller_for(speaker: object,
                       backend: str = "auto") -> tuple[EchoCanceller | None, Message | None]:
    """Echo cancellation for a game whose voice plays through ``speaker``.

    Only a speaker that plays on the game's own output
    (:class:`~voice_spades.speech.audio_out.AudioOut`, its ``audio``) gives a
    reference: with text or a screen reader there is none, and the microphone keeps
    its mute while anything speaks (no message). When no canceller library loads, the
    message says so once and voice goes on without it.
    """
    from voice_spades.speech.audio_out import AudioOut

    audio = getattr(speaker, "audio", None)
    if not isinstance(audio, AudioOut):
        return None, None
    try:
        canceller = EchoCanceller(backend)
    except SetupError as error:
        return None, error.message
    canceller.attach(audio)
    return canceller, None
