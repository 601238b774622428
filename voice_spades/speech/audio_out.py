"""The game's own audio output: one stereo ``sounddevice`` stream and a mixer.

:class:`AudioOut` opens ONE PortAudio output stream for the game's life and mixes in
its callback every clip playing (the narrator's speech, sound cues), so a cue never
waits behind a sentence. :meth:`AudioOut.play` returns a :class:`Playback` handle;
:meth:`AudioOut.stop` silences a clip from the next block (:data:`BLOCK` frames, 10 ms),
which is what makes a key cut speech at once. The same code runs on Windows, macOS
and Linux (PortAudio is in the ``sounddevice`` wheels; Linux needs ``libportaudio2``).

Echo cancellation hears what the game plays through
:meth:`AudioOut.add_reference_listener`: each block as sent to the device, in mono,
with the time PortAudio says it reaches the speakers.

Some virtual devices (ALSA's ``file`` plugin over ``null``, used by the tests) have
no clock and would take the whole stream in a moment; the callback then paces itself
to the wall clock (:attr:`AudioOut.paced`), so clips take their real time there too.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from voice_spades.errors import SetupError
from voice_spades.speech.audio_clip import Samples, pan_gains, resample
from voice_spades.speech.audio_stream import (
    CHANNELS,
    NO_DEVICE,
    open_stream,
    quiet_stderr,
    skip_portaudio_exit,
)

_log = logging.getLogger(__name__)

RATE = 48_000
"""The stream's rate, in Hz, when the device takes it (most do; else its own rate)."""
BLOCK = 480
"""Frames per callback: 10 ms at 48 kHz, the longest a stop waits for the mixer."""
PACE_LEAD = 0.06
"""Seconds of audio an unclocked device may take ahead of the wall clock (plus twice
the stream's latency, so a real device filling its buffer is never slowed)."""
CLOSE_WAIT = 1.0
"""Seconds :meth:`AudioOut.close` waits for PortAudio to close the stream."""
REANCHOR = 10.0
"""Seconds after which the pacing clock is set again, so a real device's clock that
drifts from the computer's never looks unclocked."""

DEVICE_LOST = "speech.device_lost"
"""Catalog id of the :class:`SetupError` raised once the output has failed (opening
raises ``speech.no_device`` or ``sound.no_portaudio``: :mod:`.audio_stream`)."""

ReferenceListener = Callable[[npt.NDArray[np.float32], int, float], None]
"""``(block, samplerate, dac_time)``: see :meth:`AudioOut.add_reference_listener`."""


class Playback:
    """One clip given to :meth:`AudioOut.play`: wait for it, or pass it to
    :meth:`AudioOut.stop`.

    ``whole`` is None while it plays, then True if every frame was sent to the device
    and False if it was stopped (or the device failed). ``start_frame`` is the stream
    frame its first sample went out at (frames counted from the stream's start, as
    :attr:`AudioOut.frames_written`), ``start_time`` PortAudio's DAC time of that block
    (the clock of :meth:`AudioOut.time_base`).
    """

    __slots__ = ("_data", "_done", "_gains", "_pos", "_stopped", "frames", "samplerate",
                 "start_frame", "start_time", "tag", "whole")

    def __init__(self, data: Samples, gains: tuple[float, float], samplerate: int,
                 tag: str | None) -> None:
        self._data = data
        self._gains = gains
        self._pos = 0
        self._stopped = False
        self._done = threading.Event()
        self.frames = len(data)
        self.samplerate = samplerate
        self.tag = tag
        self.whole: bool | None = None
        self.start_frame: int | None = None
        self.start_time: float | None = None

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.frames / self.samplerate

    @property
    def done(self) -> bool:
        """True once it has played whole or was stopped."""
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until it is done; False if ``timeout`` seconds passed first."""
        return self._done.wait(timeout)

    def _finish(self, whole: bool) -> None:
        if self.whole is None:
            self.whole = whole
        self._done.set()


class AudioOut:
    """The game's stereo output: one stream, any number of clips mixed at once.

    ``device`` is a PortAudio device (index or name substring; None: the default
    output). Opening starts the stream (silence until something plays) and raises
    :class:`SetupError` (``speech.no_device``; ``sound.no_portaudio`` when the
    PortAudio library is missing) if there is no working output. Methods may be called
    from any thread. Use as a context manager or call :meth:`close`.
    """

    def __init__(self, device: int | str | None = None, *, samplerate: int = RATE,
                 blocksize: int = BLOCK, latency: float | str = "low") -> None:
        self._lock = threading.Lock()
        self._sources: list[Playback] = []
        self._listeners: tuple[ReferenceListener, ...] = ()
        self._frames = 0
        self._anchor: tuple[float, int] | None = None
        self._closing = False
        self._error: SetupError | None = None
        self.paced = False
        """True once the device took audio faster than real time (it has no clock) and
        the callback began pacing itself."""
        self.underruns = 0
        """Blocks the device reported it ran out of audio before."""
        self._stream = open_stream(device, samplerate, blocksize, latency,
                                    self._callback, self._stream_ended)
        self.samplerate = int(self._stream.samplerate)
        """The stream's rate in Hz: clips at another rate are resampled to it."""
        self.blocksize = blocksize
        self.latency = float(self._stream.latency)
        """PortAudio's output latency in seconds: how long a block takes to be heard."""
        self._mix = np.zeros((max(blocksize, 8192), CHANNELS), dtype=np.float32)
        self._lead = PACE_LEAD + 2 * self.latency
        try:
            with quiet_stderr():
                self._stream.start()
        except Exception as error:
            with contextlib.suppress(Exception):
                self._stream.close()
            _log.info("could not start the audio output: %s", error)
            raise SetupError(NO_DEVICE) from error

    # --- playing ------------------------------------------------------------------

    def play(self, samples: npt.NDArray[Any], samplerate: int, *, pan: float = 0.0,
             gain: float = 1.0, tag: str | None = None) -> Playback:
        """Start playing ``samples`` (mono ``(n,)`` or stereo ``(n, 2)``; float -1..1,
        int16 or int32) now, mixed with whatever else plays; returns at once.

        ``pan`` places it from -1 (left) to +1 (right), 0 in the centre (full level on
        both channels); ``gain`` scales it; ``tag`` names it for :meth:`stop`. A clip at
        another rate than :attr:`samplerate` is resampled. Raises :class:`SetupError`
        (``speech.device_lost``) once the device has failed or the output is closed.
        """
        data = resample(samples, samplerate, self.samplerate)
        left, right = pan_gains(pan)
        playback = Playback(data, (left * gain, right * gain), self.samplerate, tag)
        with self._lock:
            if self._error is not None or self._closing:
                raise SetupError(DEVICE_LOST)
            if playback.frames == 0:
                playback._finish(True)
            else:
                self._sources.append(playback)
        return playback

    def stop(self, what: Playback | str) -> None:
        """Silence a clip (a :class:`Playback`) or every clip tagged ``what`` (a str):
        nothing more of it is mixed from the next block on."""
        with self._lock:
            for source in self._sources:
                if source is what or (isinstance(what, str) and source.tag == what):
                    source._stopped = True
                    source._finish(False)

    def stop_all(self) -> None:
        """Silence every clip from the next block on."""
        with self._lock:
            for source in self._sources:
                source._stopped = True
                source._finish(False)

    def playing(self) -> int:
        """How many clips are playing now."""
        with self._lock:
            return sum(not s._stopped for s in self._sources)

    # --- the reference tap --------------------------------------------------------

    def add_reference_listener(self, callback: ReferenceListener) -> None:
        """Call ``callback(block, samplerate, dac_time)`` for every block sent to the device.

        ``block`` is a new float32 mono array (the mean of the two channels, after mixing
        and clipping: exactly what was sent), ``samplerate`` the stream's rate, and
        ``dac_time`` PortAudio's ``outputBufferDacTime`` for the block: when its first
        frame reaches the speakers, on the clock of :meth:`time_base` (where the host
        API gives no DAC time, the block's callback time plus :attr:`latency`).

        It is called from the audio callback, so it must be quick and never block:
        hand the block to a queue and do the work elsewhere. An exception it raises is
        logged and does not stop the sound.
        """
        with self._lock:
            self._listeners = (*self._listeners, callback)

    def remove_reference_listener(self, callback: ReferenceListener) -> None:
        """Stop calling ``callback``."""
        with self._lock:
            self._listeners = tuple(c for c in self._listeners if c is not callback)

    def time_base(self) -> float:
        """Now, in seconds, on the clock of ``dac_time`` and :attr:`Playback.start_time`.

        That is PortAudio's stream clock (``Pa_GetStreamTime``), the same clock as an
        input stream's ``inputBufferAdcTime``: on Linux (ALSA) it is
        ``CLOCK_MONOTONIC``, i.e. :func:`time.monotonic`; on Windows and macOS it is
        the host's own monotonic counter, so compare times through this method rather
        than with :func:`time.monotonic`.
        """
        return float(self._stream.time)

    # --- state --------------------------------------------------------------------

    @property
    def frames_written(self) -> int:
        """Frames the mixer has sent to the device since the stream started."""
        return self._frames

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closing

    @property
    def error(self) -> SetupError | None:
        """Why the output stopped working, if it did."""
        return self._error

    def close(self) -> None:
        """Stop every clip and close the stream."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            for source in self._sources:
                source._finish(False)
            self._sources = []
        # A hung device (an audio server that stopped reading) can block PortAudio's
        # abort for ever: close on a helper thread and give up waiting after a moment.
        closer = threading.Thread(target=self._close_stream, daemon=True,
                                  name="AudioOut-close")
        closer.start()
        closer.join(CLOSE_WAIT)
        if closer.is_alive():
            _log.info("the audio output did not close within %s s", CLOSE_WAIT)
            skip_portaudio_exit()

    def _close_stream(self) -> None:
        with contextlib.suppress(Exception):
            self._stream.abort()
        with contextlib.suppress(Exception):
            self._stream.close()

    def __enter__(self) -> AudioOut:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- the callback ---------------------------------------------------------------

    def _callback(self, outdata: npt.NDArray[np.float32], frames: int, time_info: Any,
                  status: Any) -> None:
        if status.output_underflow:
            self.underruns += 1
        if frames > len(self._mix):
            self._mix = np.zeros((frames, CHANNELS), dtype=np.float32)
        mix = self._mix[:frames]
        mix.fill(0.0)
        dac = float(time_info.outputBufferDacTime) or \
            float(time_info.currentTime) + self.latency
        ended: list[Playback] = []
        with self._lock:
            start = self._frames
            for source in self._sources:
                if source._stopped:
                    ended.append(source)
                    continue
                if source.start_frame is None:
                    source.start_frame, source.start_time = start, dac
                n = min(frames, source.frames - source._pos)
                chunk = source._data[source._pos:source._pos + n]
                left, right = source._gains
                if chunk.ndim == 1:
                    mix[:n, 0] += chunk * left
                    mix[:n, 1] += chunk * right
                else:
                    mix[:n, 0] += chunk[:, 0] * left
                    mix[:n, 1] += chunk[:, 1] * right
                source._pos += n
                if source._pos >= source.frames:
                    ended.append(source)
            if ended:
                self._sources = [s for s in self._sources if s not in ended]
            listeners = self._listeners
            self._frames = start + frames
        np.clip(mix, -1.0, 1.0, out=outdata)
        for source in ended:
            source._finish(not source._stopped)
        if listeners:
            block = outdata.mean(axis=1, dtype=np.float32)
            for listener in listeners:
                try:
                    listener(block, self.samplerate, dac)
                except Exception:
                    _log.exception("reference listener failed")
        self._pace(frames)

    def _pace(self, frames: int) -> None:
        now = time.monotonic()
        if self._anchor is None:
            self._anchor = (now, self._frames - frames)
        anchor_time, anchor_frames = self._anchor
        ahead = (self._frames - anchor_frames) / self.samplerate - (now - anchor_time)
        if ahead > self._lead:
            self.paced = True
            time.sleep(min(ahead - self._lead, 0.1))
        elif ahead < 0:
            self._anchor = (now, self._frames)
        elif now - anchor_time > REANCHOR:
            # Keep the lead already taken: starting again from zero would let an
            # unclocked device run ahead by another lead every REANCHOR seconds.
            self._anchor = (now, self._frames - round(ahead * self.samplerate))

    def _stream_ended(self) -> None:
        """PortAudio stopped the stream: by :meth:`close`, or because the device failed."""
        with self._lock:
            if self._closing:
                return
            self._error = SetupError(DEVICE_LOST)
            sources, self._sources = self._sources, []
        _log.info("the audio output stream ended by itself")
        for source in sources:
            source._finish(False)


_shared: AudioOut | None = None
_shared_lock = threading.Lock()


def shared_audio(device: int | str | None = None) -> AudioOut:
    """The game's one output, opened on first use (on ``device``) and shared by the
    narrator's voice, the sound cues and echo cancellation's reference; opened again
    if the last one failed or was closed. Raises :class:`SetupError` as
    :class:`AudioOut` does."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.error is not None or _shared.closed:
            _shared = AudioOut(device)
        return _shared


def close_shared_audio(wait: float = 0.5) -> None:
    """Close the shared output, if it was opened (at the game's end), once the clips
    playing have ended (at most ``wait`` seconds: a last cue is heard whole)."""
    global _shared
    with _shared_lock:
        audio, _shared = _shared, None
    if audio is not None:
        deadline = time.monotonic() + wait
        while audio.playing() and audio.error is None and time.monotonic() < deadline:
            time.sleep(0.01)
        audio.close()
