"""The microphone: 16 kHz mono int16 capture, cut into utterances, muted while the game talks.

A :class:`Microphone` reads its device on its own thread, passes every block
through a gate and a :class:`~voice_spades.voice.audio.vad.VoiceActivityDetector`, and
hands each complete utterance to ``on_utterance`` (called on that thread: keep
it short).

The gate:

* **Muted** (:meth:`Microphone.set_muted`, while the narrator speaks, plus a
  short tail after it stops): audio is thrown away, so the game never hears
  itself. With barge-in on, a :class:`~voice_spades.voice.audio.vad.BargeInDetector`
  still listens, and an onset well above the narration's own level calls
  ``on_barge_in`` (which silences the narrator) and opens the gate, keeping the
  onset.
* **Echo cancellation** (a :class:`~voice_spades.voice.audio.echo.EchoCanceller`
  whose output runs): every frame is cleaned of the game's own sound, and the mute
  gives way to the :class:`~voice_spades.voice.audio.echo_gate.EchoGate`: while the
  game's sound may be heard, an onset above what is left of it opens the detector
  (over the narrator: barge-in, with the second before the onset kept).
* **Open mode**: every utterance is delivered.
* **Push mode** (push-to-talk): utterances are delivered only after
  :meth:`Microphone.begin_listening` (a key press); the end of the utterance
  (~600 ms of quiet) closes it again. Listening never times out.

An utterance may end before the ~600 ms of quiet: after a very short pause the
utterance so far goes to ``on_pause`` (after the frame, outside the lock), and
whoever decides it was a whole command calls :meth:`Microphone.end_early`, which
delivers it once the pause is long enough (:mod:`voice_spades.voice.early_end`).

A device that cannot record 16 kHz records at its own rate (44.1 or 48 kHz,
say) and is resampled (:mod:`.resample`); the device is found and probed in
:mod:`.device`, and read in :mod:`.capture`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from voice_spades.errors import SetupError
from voice_spades.speech.audio_stream import quiet_stderr
from voice_spades.voice.audio.capture import capture
from voice_spades.voice.audio.device import (
    MIC_FAILED,
    NO_16K,
    NO_MICROPHONE,
    NO_PORTAUDIO,
    Device,
    load_sounddevice,
    parse_device,
    probe_with,
)
from voice_spades.voice.audio.echo import EchoCanceller
from voice_spades.voice.audio.echo_gate import (
    EchoGate,
    Spectra,
)
from voice_spades.voice.audio.resample import Resampler
from voice_spades.voice.audio.vad import (
    SAMPLE_RATE,
    BargeInDetector,
    VadSettings,
    VoiceActivityDetector,
    energy_db,
)

_log = logging.getLogger(__name__)

__all__ = ["MIC_FAILED", "MODES", "NO_16K", "NO_MICROPHONE", "NO_PORTAUDIO", "Device",
           "Microphone", "load_sounddevice", "parse_device", "probe"]

MODES = ("open", "push")
"""Open microphone, or push-to-talk."""
ECHO_PRE_ROLL = 1.0
"""Seconds of audio kept before an onset over the game's sound: the echo gate may only
be sure at the second word ("bid ... three"), so the first must still be there."""
UNHEARD_SECONDS = 0.5
"""Seconds the narrator must have been speaking without a sound (its line still being
synthesized) before, with the echo not yet learnt, a voice is heard as when the game
is silent: well over a clip's own leading silence (espeak-ng's is about 0.1 s), so the
rule acts on a narration that has not begun to sound, not in the moment before its
first syllable."""
BAND_PRE_ROLL = 0.1
"""Seconds of pre-roll, instead of the detector's, before a voice the echo gate heard
in its bands alone (a voice under the echo). The walk back to where the voice began
finds little or nothing there (hardly a frame's whole level sounds like a voice), so
the utterance starts at the onset less the pre-roll: with the detector's 0.3 s it began
with 0.2 s of the echo left after cancellation, which the recognizer decoded too. Room
bench (offline, 36 commands over the narrator and 12 after it, ten minutes of narration
alone, seeds 1-6), 0.3 -> 0.1 s, trained: over the narrator 83, 83, 83, 78, 81, 78% ->
83, 89, 89, 75, 81, 78% (175 -> 178 of 216), 6 dB under the echo 70, 80, 64, 73, 36,
64% -> 70, 90, 73, 73, 36, 64%; untrained: 72, 72, 67, 64, 67, 67% -> 75, 75, 67, 67,
67, 67% (147 -> 150). After the narrator, the narrator stopped by commands and by
nobody, the narration alone (never acting or asking) and median latency (within 6 ms)
the same."""
UNMUTE_DELAY = 0.3
"""Seconds the gate stays shut after the narrator stops (echo and playback latency)."""
LATENCY = 0.5
"""Seconds of audio the device may buffer while the reader is held up (a long decode)."""


def probe(device: Device = None) -> int:
    """Check that ``device`` (default: the default input) can record mono int16, and
    return the rate to open it at: 16 kHz when it can, else its own default rate
    (the audio is then resampled). SetupError saying why it cannot be used."""
    return probe_with(load_sounddevice(), device)


class Microphone:
    """Capture on a thread, gated (muted, push-to-talk) and cut into utterances."""

    def __init__(self, device: Device = None,
                 on_utterance: Callable[[bytes], None] | None = None, mode: str = "open", *,
                 vad: VadSettings | None = None, unmute_delay: float = UNMUTE_DELAY,
                 barge_in: bool = False, on_barge_in: Callable[[], None] | None = None,
                 on_error: Callable[[SetupError], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 canceller: EchoCanceller | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.device = device
        self.mode = mode
        self.on_utterance = on_utterance
        """Called with each utterance (16 kHz mono int16 PCM) on the capture thread."""
        self.on_barge_in = on_barge_in
        """Called when the player starts speaking over the narrator (barge-in on)."""
        self.on_error = on_error
        """Called once if the device fails while recording."""
        self.barge_in = barge_in
        self.unmute_delay = unmute_delay
        self.settings = vad or VadSettings()
        self._vad = VoiceActivityDetector(self.settings)
        self._barge = BargeInDetector(settings=self.settings)
        self.canceller = canceller
        """Echo cancellation, with the game's output as reference (None: none)."""
        self._gate = EchoGate(self.settings)
        self._gate_open = 0
        """Frames the echo gate stays open after an onset (the detector takes over)."""
        self.heard_over_game = False
        """Whether the utterance being delivered began over the game's own sound (read
        it in ``on_utterance``)."""
        self._over_game = False
        self._unheard = 0
        """Frames in a row, while muted, since the game last played anything audible."""
        self._heard: deque[tuple[bytes, bool]] = deque(
            maxlen=self.settings.frames(ECHO_PRE_ROLL))
        self._recent: deque[bytes] = deque(
            maxlen=self.settings.frames(self.settings.pre_roll_seconds + 0.2))
        self._clock = clock
        self._lock = threading.Lock()
        self._muted = False
        self._unmute_at = 0.0
        self._listening = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.rate = SAMPLE_RATE
        """The rate the device records at (its audio is resampled to 16 kHz)."""
        self.on_pause: Callable[[bytes, int], None] | None = None
        """Called with the utterance so far and a pause number after a short quiet
        inside it (on the capture thread: keep it short); :meth:`end_early` with that
        number ends the utterance there."""
        self._pauses: list[tuple[bytes, int]] = []
        self._vad.on_pause = self._paused
        self._delivering = threading.Lock()

    # ----- state -----------------------------------------------------------------
    @property
    def muted(self) -> bool:
        """True while audio is thrown away (the narrator speaks, or just stopped)."""
        with self._lock:
            return self._muted_now()

    @property
    def listening(self) -> bool:
        """True when an utterance would be delivered now (always, in open mode, unless
        muted)."""
        with self._lock:
            return not self._muted_now() and (self.mode == "open" or self._listening)

    @property
    def running(self) -> bool:
        """True while the capture thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def set_muted(self, muted: bool) -> None:
        """Mute while the narrator speaks; unmuting takes effect ``unmute_delay`` later.
        Muting ends the utterance in progress (what was said so far is delivered)."""
        done: bytes | None = None
        with self._lock:
            if muted and not self._muted and self._cancelling():
                self._muted = True  # the player may go on talking over the narrator
                self._barge.narration_started()
            elif muted and not self._muted:
                self._muted = True
                done = self._vad.flush()
                if done is not None and not self._may_deliver():
                    done = None
                self._barge.narration_started()
            elif not muted and self._muted:
                self._muted = False
                self._unmute_at = self._clock() + self.unmute_delay
                self._barge.narration_ended()
        if done is not None:
            self._deliver(done)

    def begin_listening(self) -> None:
        """Push-to-talk: listen now until the end of the next utterance (no time limit).
        In either mode the gate opens at once: the key that asked silenced the narrator."""
        with self._lock:
            if self._muted:
                self._barge.narration_ended()
            self._muted = False
            self._unmute_at = 0.0
            self._listening = True

    # ----- audio -----------------------------------------------------------------
    def process(self, pcm: bytes, recorded: float | None = None) -> None:
        """Pass captured audio through echo cancellation, the gate and the detector (the
        capture thread calls this; tests may call it directly). ``recorded`` is when its
        first sample was recorded, on the output's clock, if known."""
        size = self.settings.frame_bytes
        for start in range(0, len(pcm), size):
            at = None if recorded is None else recorded + start / 2 / SAMPLE_RATE
            self._frame(pcm[start:start + size], at)
            if self._pauses:
                self._offer_pauses()

    def still_paused(self, pause: int) -> bool:
        """True while the utterance is still quiet since pause number ``pause``."""
        with self._lock:
            return self._vad.paused_at(pause)

    def end_early(self, pause: int) -> bool:
        """End the utterance in progress at pause number ``pause`` (given to
        ``on_pause``) and deliver it (any thread): now when the quiet has lasted the
        detector's ``early_quiet_seconds``, else on the capture thread when it has,
        unless speech goes on first. False when speech went on after that pause, or
        the utterance is over."""
        with self._lock:
            if not self._vad.paused_at(pause):
                return False
            utterance = self._vad.end_at_pause(pause)
            if utterance is None:
                return True  # delivered when the pause is long enough
            over_game = self._over_game
            self._over_game = False
            deliver = self._may_deliver()
        if deliver:
            self._deliver(utterance, over_game)
        return True

    def _paused(self, utterance: bytes, pause: int) -> None:
        """The detector paused (caller holds the lock): offered once the lock is free."""
        self._pauses.append((utterance, pause))

    def _offer_pauses(self) -> None:
        with self._lock:
            pauses, self._pauses = self._pauses, []
        if self.on_pause is not None:
            for utterance, pause in pauses:
                self.on_pause(utterance, pause)

    def _cancelling(self) -> bool:
        """True while echo cancellation has a reference (the game's output runs)."""
        return self.canceller is not None and self.canceller.active

    def _frame(self, frame: bytes, recorded: float | None = None) -> None:
        canceller = self.canceller
        if canceller is not None and len(frame) == self.settings.frame_bytes:
            cleaned = canceller.process(frame, recorded)
            if canceller.active:
                near = np.frombuffer(frame, dtype="<i2")
                spectra = None if cleaned.linear is None \
                    else (near, cleaned.linear, cleaned.played)
                self._echo_frame(cleaned.pcm, cleaned.reference_db, energy_db(frame),
                                 cleaned.linear_db, spectra, sounding=cleaned.sounding)
                return
        barged = False
        done: list[bytes] = []
        with self._lock:
            if self._muted_now():
                self._recent.append(frame)
                if self.barge_in and (self.mode == "open" or self._listening) \
                        and self._barge.feed(frame):
                    barged = True
                    self._open_for_barge_in()
                    for earlier in self._recent:
                        done += self._vad.feed(earlier)
                    self._recent.clear()
            else:
                done = self._vad.feed(frame)
            done = [u for u in done if self._may_deliver()]
        if barged and self.on_barge_in is not None:
            self.on_barge_in()
        for utterance in done:
            self._deliver(utterance)

    def _echo_frame(self, frame: bytes, reference: float | None, raw_db: float,
                    linear_db: float | None = None, spectra: Spectra | None = None, *,
                    sounding: bool = True) -> None:
        """A frame with echo cancellation on: the echo gate replaces the mute. While the
        game's sound may be heard, only an onset above what is left of it opens the
        detector (and, over the narrator, silences it: barge-in). The gate judges the
        adaptive filter's output (``linear_db``) when residual suppression follows it.
        Before the gate has learnt the echo, once the narrator has been speaking for
        :data:`UNHEARD_SECONDS` while the game played nothing audible (``sounding``
        False: its first narration is still being synthesized, say), there is no echo
        to tell a voice from and the gate could not tell it: the detector listens as
        when the game is silent, and a voice it hears stops the narrator before it
        sounds."""
        level = energy_db(frame) if linear_db is None else linear_db
        onset = self._gate.feed(level, reference, raw_db, spectra)
        barged = False
        done: list[bytes] = []
        with self._lock:
            self._unheard = self._unheard + 1 if not sounding and self._muted else 0
            unheard_game = self._gate.coupling_db is None \
                and self._unheard >= self.settings.frames(UNHEARD_SECONDS)
            listening = self.mode == "open" or self._listening
            if self._gate_open > 0:
                self._gate_open -= 1
            if self._vad.in_speech or self._gate_open > 0:
                done = self._vad.feed(frame)
            elif self._muted and not self.barge_in:
                self._heard.clear()  # the player chose to let the narrator finish
            elif (self._gate.watching or self._muted) and not unheard_game:
                self._heard.append((frame, self._gate.voiced))
                if onset and listening:
                    barged = self._muted
                    self._unmute_now()
                    self._gate_open = self.settings.frames(1.0)
                    self._vad.reset()
                    self._over_game = True
                    for earlier in self._since_voice_began():
                        done += self._vad.feed(earlier)
                    self._heard.clear()
            else:
                self._heard.clear()
                done = self._vad.feed(frame)
                if self._muted and listening and self._vad.in_speech:
                    barged = True
                    self._unmute_now()
            done = [u for u in done if self._may_deliver()]
            over_game = self._over_game
            if done or not (self._vad.in_speech or self._gate_open):
                self._over_game = False
        if barged and self.on_barge_in is not None:
            self.on_barge_in()
        for utterance in done:
            self._deliver(utterance, over_game)

    def _since_voice_began(self) -> list[bytes]:
        """The frames kept, from a moment before the player's voice began: back from
        the onset over voice-like frames with pauses under 0.3 s (the game's sound
        before that is left out), plus the detector's pre-roll, or only
        :data:`BAND_PRE_ROLL` of it when the bands alone heard the voice."""
        frames = list(self._heard)
        pause = self.settings.frames(0.3)
        start = len(frames) - 1
        quiet = 0
        for i in range(len(frames) - 1, -1, -1):
            if frames[i][1]:
                start, quiet = i, 0
            else:
                quiet += 1
                if quiet > pause:
                    break
        pre_roll = BAND_PRE_ROLL if self._gate.from_bands else self.settings.pre_roll_seconds
        start = max(0, start - self.settings.frames(pre_roll))
        return [frame for frame, _ in frames[start:]]

    def _unmute_now(self) -> None:
        """Listen from now on (the player barged in; caller holds the lock)."""
        self._muted = False
        self._unmute_at = 0.0

    def _open_for_barge_in(self) -> None:
        self._unmute_now()
        self._barge.narration_ended()
        self._vad.reset()

    def _muted_now(self) -> bool:
        return self._muted or self._clock() < self._unmute_at

    def _may_deliver(self) -> bool:
        """Whether an utterance ending now is the player's (caller holds the lock)."""
        if self.mode == "open":
            return True
        if self._listening:
            self._listening = False
            return True
        return False

    def _deliver(self, utterance: bytes, over_game: bool = False) -> None:
        with self._delivering:  # the capture thread, or one ending an utterance early
            self.heard_over_game = over_game
            if self.on_utterance is not None:
                try:
                    self.on_utterance(utterance)
                except Exception:
                    _log.exception("the utterance handler failed")

    # ----- the device --------------------------------------------------------------
    def start(self) -> None:
        """Open the device and start capturing; SetupError when it cannot record. A
        device that cannot record 16 kHz is opened at its own rate and resampled."""
        if self.running:
            return
        sd = load_sounddevice()
        rate = probe(self.device)
        block = round(self.settings.frame_seconds * rate)
        try:
            with quiet_stderr():
                stream = sd.RawInputStream(samplerate=rate, channels=1, dtype="int16",
                                           device=self.device, blocksize=block,
                                           latency=LATENCY)
                stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise SetupError(NO_MICROPHONE) from exc
        self.rate = rate
        converter = Resampler(rate) if rate != SAMPLE_RATE else None
        self._stop.clear()
        self._thread = threading.Thread(target=self._capture, args=(stream, block, converter),
                                        name="microphone", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop capturing and close the device (an utterance in progress is dropped)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def _capture(self, stream: Any, block: int, converter: Resampler | None = None) -> None:
        capture(stream, block, converter, self.process, self._stop, self._failed)

    def _failed(self) -> None:
        if self.on_error is not None:
            self.on_error(SetupError(MIC_FAILED))
