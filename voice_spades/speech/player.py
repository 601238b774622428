"""Interruptible playback of synthesized speech through the game's :class:`AudioOut`.

pyttsx3 2.99's espeak driver plays through ``aplay`` from inside a callback, which
nothing can interrupt (and which exists on Linux only). So the speakers here only
synthesize with pyttsx3 and play the samples themselves, as one clip on the game's
own output stream (:mod:`voice_spades.speech.audio_out`), mixed with the sound cues:
:meth:`SpeechPlayer.abort` silences it from the next 10 ms block.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from voice_spades.errors import SetupError
from voice_spades.speech.audio_out import DEVICE_LOST, AudioOut, Playback
from voice_spades.speech.audio_stream import NO_DEVICE

STALL_GRACE = 3.0
"""Seconds past an utterance's length after which the device is taken for stuck (a hung
audio server): the game waits for speech, so speech must always end."""
PROBE_WAIT = 2.0
"""Seconds the probe's moment of silence may take before the device counts as stuck."""
SPEECH_TAG = "speech"
"""The tag of speech clips on the output (cues have their own)."""


class SpeechPlayer:
    """Plays one utterance at a time on ``audio``, at ``pan`` and ``gain``."""

    def __init__(self, audio: AudioOut) -> None:
        self.audio = audio
        self._lock = threading.Lock()
        self._current: Playback | None = None

    def probe(self) -> None:
        """Play 30 ms of silence; raise :class:`SetupError` if the device does not take it."""
        silence = np.zeros(self.audio.samplerate * 3 // 100, dtype=np.float32)
        if not self.play(silence, self.audio.samplerate, threading.Event(),
                         lost_message=NO_DEVICE, grace=PROBE_WAIT):
            raise SetupError(NO_DEVICE)

    def play(self, samples: npt.NDArray[np.generic], samplerate: int, cancel: threading.Event,
             *, pan: float = 0.0, gain: float = 1.0, lost_message: str = DEVICE_LOST,
             grace: float | None = None) -> bool:
        """Play ``samples`` until done (True) or until ``cancel`` is set and
        :meth:`abort` called (False).

        Raises :class:`SetupError` with the message id ``lost_message`` if the device
        fails, or takes ``grace`` seconds (:data:`STALL_GRACE`) longer than the sound to
        play it.
        """
        try:
            handle = self.audio.play(samples, samplerate, pan=pan, gain=gain, tag=SPEECH_TAG)
        except SetupError as error:
            raise SetupError(lost_message) from error
        with self._lock:
            self._current = handle
        try:
            if cancel.is_set():  # cut before it was registered: abort() missed it
                self.audio.stop(handle)
                return False
            if not handle.wait(handle.duration + (STALL_GRACE if grace is None else grace)):
                self.audio.stop(handle)
                raise SetupError(lost_message)
        finally:
            with self._lock:
                self._current = None
        if handle.whole:
            return True
        if cancel.is_set():
            return False
        raise SetupError(lost_message)  # the device failed under it

    def abort(self) -> None:
        """Silence the utterance playing now, from any thread."""
        with self._lock:
            handle = self._current
        if handle is not None:
            self.audio.stop(handle)
