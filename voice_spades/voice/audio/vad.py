"""Voice activity detection on 16 kHz mono int16 audio: where utterances start and end.

:class:`VoiceActivityDetector` cuts a stream of audio into utterances by frame
energy against an adaptive noise floor: an utterance starts after a few frames
clearly above the floor (and keeps ~300 ms of pre-roll so soft onsets such as
"f" or "h" are not lost), and ends after ~600 ms of quiet (the hangover, so the
pause inside "queen ... of hearts" does not split it). Bursts too short to be a
word are dropped, and so is sound that goes on far longer than any command (a
radio, a conversation).

An utterance may also end early: after a very short pause (``decode_quiet_seconds``)
the detector offers the utterance so far to ``on_pause`` with a pause number, so
that it can be decoded while the pause goes on, and
:meth:`VoiceActivityDetector.end_at_pause` ends it once the pause has lasted
``early_quiet_seconds`` if no speech came back since (the caller decides from what
the words were: see :mod:`voice_spades.voice.early_end`). For this a pause is quiet,
or sound far under the utterance's loudest (``pause_below_peak_db``): in a large
room the last word rings on above the quiet bar for 300-500 ms. Speech
that resumes within what would have been the hangover is dropped: it would have
belonged to the utterance ended early ("play ... it": the "it" alone is no new
command).

:class:`BargeInDetector` watches the audio heard while the narrator speaks: only
an onset well above the loudest level the narration itself reached counts as
the player talking over it.

Everything here is pure computation on bytes: no audio device is needed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SAMPLE_RATE = 16000
BYTES_PER_SAMPLE = 2


RUMBLE_HZ = 120.0
"""Sound below this does not count towards a frame's energy: rumble (traffic, air
conditioning, brown noise) would otherwise hide speech from the detector."""


def energy_db(frame: bytes) -> float:
    """Energy of one frame of int16 PCM in dB (full scale is about 90 dB), leaving
    out what lies below :data:`RUMBLE_HZ` (a Hann-windowed spectrum, rescaled so a
    sound above it keeps its level)."""
    usable = len(frame) - len(frame) % BYTES_PER_SAMPLE
    if usable == 0:
        return 0.0
    x = np.frombuffer(frame[:usable], dtype="<i2").astype(np.float64)
    if len(x) < 32:
        return float(10.0 * np.log10(float(np.mean(x * x)) + 1.0))
    window = _hann(len(x))
    power = np.abs(np.fft.rfft(x * window)) ** 2
    power[1:] *= 2.0
    first = int(np.ceil(RUMBLE_HZ * len(x) / SAMPLE_RATE))
    mean = float(power[first:].sum()) / (len(x) * float(np.sum(window * window)))
    return float(10.0 * np.log10(mean + 1.0))


@lru_cache(maxsize=8)
def _hann(length: int) -> np.ndarray[tuple[int], np.dtype[np.float64]]:
    return np.hanning(length)


@dataclass(frozen=True)
class VadSettings:
    """Thresholds and durations of the detector (seconds and dB)."""

    frame_seconds: float = 0.02
    pre_roll_seconds: float = 0.3
    """Audio kept from before the onset, so soft first sounds are not cut."""
    hangover_seconds: float = 0.6
    """Quiet that ends an utterance."""
    early_quiet_seconds: float = 0.2
    """Quiet after which an utterance may end early (0: never)."""
    decode_quiet_seconds: float = 0.1
    """Quiet after which the utterance so far is offered to ``on_pause``, to be decoded
    while the quiet goes on to ``early_quiet_seconds`` (0, or longer than that: at
    ``early_quiet_seconds``)."""
    min_speech_seconds: float = 0.1
    """Loud audio shorter than this is a click or a knock, not a word."""
    max_utterance_seconds: float = 6.0
    """Sound longer than this is no command: it is dropped until quiet returns."""
    onset_db: float = 10.0
    """How far above the noise floor a frame must be to start speech."""
    continue_db: float = 6.0
    """How far above the noise floor a frame must be to keep speech going."""
    pause_below_peak_db: float = 20.0
    """A frame this far under the utterance's loudest counts as a pause for the early
    end (0: only quiet does). A room's reverberation rings on above the quiet bar for
    a few hundred ms after the last word; the hangover still waits for real quiet."""
    pause_resume_db: float = 6.0
    """A pause under the peak ends when a frame comes back this much above its bar
    (``pause_below_peak_db`` under the peak)."""
    pause_rise_db: float = 4.0
    """A pause under the peak also ends when a frame rises this much above the
    pause's quietest frame so far: ringing only falls, with ripples, while a new
    sound rises (the "s" after the dip in "clubs")."""
    pause_decay_db_per_second: float = 30.0
    """A pause so begun must keep falling at least this fast (a room's ringing dies
    away; a weak sound inside a phrase, such as a closure or an "s", holds), checked
    when it is offered and when it ends the utterance (30 dB/s: a reverberation time
    of two seconds)."""
    onset_frames: int = 3
    """Loud frames in a row that start an utterance."""
    min_level_db: float = 35.0
    """Absolute level below which nothing is speech, however quiet the room."""
    floor_rise_db_per_second: float = 2.0
    """How fast the noise floor climbs towards a louder room."""
    floor_fall: float = 0.2
    """Share of the way the noise floor drops towards a quieter frame."""

    @property
    def offer_quiet_seconds(self) -> float:
        """The quiet after which a pause is offered (see ``decode_quiet_seconds``)."""
        if 0 < self.decode_quiet_seconds < self.early_quiet_seconds:
            return self.decode_quiet_seconds
        return self.early_quiet_seconds

    @property
    def tail_seconds(self) -> float:
        """Quiet kept at the end of an utterance (the rest of the hangover is cut): the
        quiet after which a pause is offered, so the utterance offered at a pause is
        exactly the one delivered at the hangover when nothing more is said (a
        recognizer that keeps its last results decodes it once)."""
        return self.offer_quiet_seconds or self.decode_quiet_seconds

    def frames(self, seconds: float) -> int:
        """The number of frames in ``seconds`` (at least 1)."""
        return max(1, round(seconds / self.frame_seconds))

    @property
    def frame_bytes(self) -> int:
        """The size of one frame in bytes."""
        return round(self.frame_seconds * SAMPLE_RATE) * BYTES_PER_SAMPLE


class NoiseFloor:
    """The level of the room without speech: starts at the first frame heard, then
    falls fast and rises slowly."""

    def __init__(self, settings: VadSettings) -> None:
        self.settings = settings
        self.level: float | None = None
        self._rise = settings.floor_rise_db_per_second * settings.frame_seconds

    def update(self, db: float) -> None:
        """Move the floor towards a frame heard outside speech."""
        if self.level is None:
            self.level = db
        elif db < self.level:
            self.level += (db - self.level) * self.settings.floor_fall
        else:
            self.level += min(db - self.level, self._rise)

    def threshold(self, rise_db: float) -> float:
        """The level ``rise_db`` above the floor (never below ``min_level_db``)."""
        return max((self.level or 0.0) + rise_db, self.settings.min_level_db)


class VoiceActivityDetector:
    """Cuts audio into utterances; feed it any amount of audio at a time."""

    def __init__(self, settings: VadSettings | None = None) -> None:
        self.settings = s = settings or VadSettings()
        self.floor = NoiseFloor(s)
        self._pending = b""
        self._pre_roll: deque[bytes] = deque(
            maxlen=s.frames(s.pre_roll_seconds) + s.onset_frames)
        self._onset_run = 0
        self._frames: list[bytes] = []
        self._loud_frames = 0
        self._quiet_run = 0
        self._lull_run = 0
        """Frames in a row of the pause the early end counts (quiet, or far under the
        peak: see ``VadSettings.pause_below_peak_db``)."""
        self._peak = 0.0
        self._lull_levels: list[float] = []
        """The levels of the pause so far, while it is one by being under the peak."""
        self._flat = False
        """The sound under the peak held rather than died away: no pause until quiet."""
        self._discarding = False
        self.on_pause: Callable[[bytes, int], None] | None = None
        """Called with the utterance so far and a pause number after
        ``early_quiet_seconds`` of quiet inside an utterance (from :meth:`feed`)."""
        self._pauses = 0
        self._paused: tuple[int, bytes] | None = None
        self._ending = False
        """The pause in :attr:`_paused` ends the utterance once the quiet is long enough."""
        self._after_early = 0
        """Frames left of the hangover an early end cut short: speech resuming in them
        would have belonged to that utterance, so it is dropped, not heard anew."""

    @property
    def in_speech(self) -> bool:
        """True while an utterance is being collected."""
        return bool(self._frames)

    def feed(self, pcm: bytes) -> list[bytes]:
        """Consume ``pcm``; return the utterances it completed (usually none)."""
        data = self._pending + pcm
        size = self.settings.frame_bytes
        whole = len(data) - len(data) % size
        self._pending = data[whole:]
        done: list[bytes] = []
        for start in range(0, whole, size):
            utterance = self._frame(data[start:start + size])
            if utterance is not None:
                done.append(utterance)
        return done

    def flush(self) -> bytes | None:
        """End the stream: return the utterance in progress if it is long enough."""
        utterance = self._finish() if self._frames else None
        self.reset()
        return utterance

    def reset(self) -> None:
        """Forget any utterance in progress and the audio before it (keeps the floor)."""
        self._pending = b""
        self._after_early = 0
        self._restart()

    def paused_at(self, pause: int) -> bool:
        """True while the utterance is still quiet since pause number ``pause``."""
        return self._paused is not None and self._paused[0] == pause

    def end_at_pause(self, pause: int) -> bytes | None:
        """End the utterance in progress at pause number ``pause`` (offered to
        ``on_pause``) and return it, exactly as offered, when the quiet has lasted
        ``early_quiet_seconds``. Before that, None: it ends when the quiet has lasted
        that long, :meth:`feed` returning it, unless speech goes on first. None too
        when it is over or speech went on since (see :meth:`paused_at`)."""
        if self._paused is None or self._paused[0] != pause or not self._frames:
            return None
        s = self.settings
        if self._lull_run < s.frames(s.early_quiet_seconds):
            self._ending = True
            return None
        return self._end_early()

    def _end_early(self) -> bytes:
        assert self._paused is not None
        utterance = self._paused[1]
        self._restart()
        s = self.settings
        self._after_early = s.frames(s.hangover_seconds) - s.frames(s.early_quiet_seconds)
        return utterance

    def _restart(self) -> None:
        self._pre_roll.clear()
        self._onset_run = 0
        self._frames = []
        self._loud_frames = 0
        self._quiet_run = 0
        self._lull_run = 0
        self._peak = 0.0
        self._lull_levels = []
        self._flat = False
        self._discarding = False
        self._paused = None
        self._ending = False

    def _frame(self, frame: bytes) -> bytes | None:
        s = self.settings
        db = energy_db(frame)
        if self._discarding:
            self.floor.update(db)
            self._quiet_run = (0 if db >= self.floor.threshold(s.continue_db)
                               else self._quiet_run + 1)
            if self._quiet_run >= s.frames(s.hangover_seconds):
                self._restart()
            return None
        if self._frames:
            return self._in_speech(frame, db)
        self._pre_roll.append(frame)
        if self.floor.level is None:
            self.floor.update(db)
        if db >= self.floor.threshold(s.onset_db):
            self._onset_run += 1
        else:
            self._onset_run = 0
            self.floor.update(db)
        if self._after_early > 0:
            self._after_early -= 1
            if self._onset_run >= s.onset_frames:  # the rest of the utterance ended early
                self._restart()
                self._discarding = True
                return None
        if self._onset_run >= s.onset_frames:
            self._frames = list(self._pre_roll)
            self._pre_roll.clear()
            self._loud_frames = self._onset_run
            self._quiet_run = 0
            self._peak = db
        return None

    def _in_speech(self, frame: bytes, db: float) -> bytes | None:
        s = self.settings
        self._frames.append(frame)
        loud = db >= self.floor.threshold(s.continue_db)
        if loud:
            self._loud_frames += 1
            self._quiet_run = 0
        else:
            self._quiet_run += 1
        self._peak = max(self._peak, db)
        if self._lull(loud, db):
            self._lull_run += 1
            self._lull_levels.append(db)
            if loud and not self._dying_away():
                self._flat = True
                self._end_lull()
                return self._after_frame()
            if s.early_quiet_seconds > 0 and self.on_pause is not None \
                    and self._lull_run == s.frames(s.offer_quiet_seconds):
                self._offer_pause()
            if self._ending and self._lull_run >= s.frames(s.early_quiet_seconds):
                return self._end_early()
        else:
            self._end_lull()
        return self._after_frame()

    def _end_lull(self) -> None:
        self._lull_run = 0
        self._lull_levels = []
        self._paused = None
        self._ending = False

    def _after_frame(self) -> bytes | None:
        s = self.settings
        if len(self._frames) >= s.frames(s.max_utterance_seconds):
            self._restart()
            self._discarding = True
            return None
        if self._quiet_run >= s.frames(s.hangover_seconds):
            utterance = self._finish()
            self._restart()
            return utterance
        return None

    def _lull(self, loud: bool, db: float) -> bool:
        """Whether this frame is part of a pause as the early end counts it (a frame
        loud enough for speech to be back also ends a hold: see :attr:`_flat`)."""
        below = self.settings.pause_below_peak_db
        if not loud or below <= 0:
            return not loud
        bar = self._peak - below
        if self._flat:  # until speech comes back
            self._flat = db < bar + self.settings.pause_resume_db
            return False
        if not self._lull_run:
            return db < bar
        # once quiet, any sound ends the pause, as without this rule: a room's
        # ringing, once under the quiet bar, does not come back
        quietest = min(self._lull_levels)
        return quietest >= self.floor.threshold(self.settings.continue_db) \
            and db < bar + self.settings.pause_resume_db \
            and db <= quietest + self.settings.pause_rise_db

    def _dying_away(self) -> bool:
        """Whether the pause, not yet quiet, still falls fast enough: judged when it
        would be offered and when it would end the utterance, from its first two
        frames to its last two."""
        s = self.settings
        levels = self._lull_levels
        if len(levels) not in (s.frames(s.offer_quiet_seconds), s.frames(s.early_quiet_seconds)):
            return True
        if len(levels) < 4:
            return False
        fallen = (levels[0] + levels[1] - levels[-2] - levels[-1]) / 2
        return fallen >= s.pause_decay_db_per_second * s.frame_seconds * (len(levels) - 2)

    def _offer_pause(self) -> None:
        utterance = self._finish()
        if utterance is None or self.on_pause is None:
            return
        self._pauses += 1
        self._paused = (self._pauses, utterance)
        self.on_pause(utterance, self._pauses)

    def _finish(self) -> bytes | None:
        s = self.settings
        if self._loud_frames < s.frames(s.min_speech_seconds):
            return None
        keep = len(self._frames) - max(0, self._quiet_run - s.frames(s.tail_seconds))
        return b"".join(self._frames[:keep])


class BargeInDetector:
    """Tells the player's voice from the narrator's while the narrator speaks.

    Without echo cancellation the microphone hears the narration too, so the test
    is relative: the reference is the loudest (100 ms average) level heard during
    this narration and the last few; an onset must stay ``margin_db`` above it for
    ``onset_frames``. Until one narration of ``learn_seconds`` has been heard there
    is no reference and nothing counts, since the first syllable of any narration
    would otherwise look like an onset.
    """

    def __init__(self, margin_db: float = 12.0, onset_frames: int = 5,
                 learn_seconds: float = 1.0, remembered: int = 5,
                 settings: VadSettings | None = None) -> None:
        self.settings = settings or VadSettings()
        self.margin_db = margin_db
        self.onset_frames = onset_frames
        self._learn_frames = self.settings.frames(learn_seconds)
        self._history: deque[float] = deque(maxlen=remembered)
        self._recent: deque[float] = deque(maxlen=self.settings.frames(0.1))
        self._peak: float | None = None
        self._heard = 0
        self._run = 0

    @property
    def reference_db(self) -> float | None:
        """The loudest level of this narration and the last few, or None while learning."""
        levels = [*self._history]
        if self._peak is not None and self._heard >= self._learn_frames:
            levels.append(self._peak)
        return max(levels) if levels else None

    def narration_started(self) -> None:
        """A narration begins: the previous one's peak joins the history."""
        self._end_narration()

    def narration_ended(self) -> None:
        """A narration ends: its peak joins the history."""
        self._end_narration()

    def feed(self, frame: bytes) -> bool:
        """Take one frame heard during narration; True when the player talks over it."""
        self._recent.append(energy_db(frame))
        level = float(np.mean(self._recent))
        reference = self.reference_db
        if reference is not None and level >= reference + self.margin_db:
            self._run += 1
            return self._run >= self.onset_frames
        self._run = 0
        self._heard += 1
        self._peak = level if self._peak is None else max(self._peak, level)
        return False

    def _end_narration(self) -> None:
        if self._peak is not None and self._heard >= self._learn_frames:
            self._history.append(self._peak)
        self._peak = None
        self._heard = 0
        self._run = 0
        self._recent.clear()
