"""The echo gate: the player's voice told from what is left of the game's own sound.

Echo cancellation (:mod:`.echo`) takes most of the narrator out of the microphone's
audio, not all of it: a trace remains, louder where the narration is loud and for a
reverberant moment after. :class:`EchoGate` predicts that trace from what was played
(the reference level of each frame, held over a decaying tail) plus the coupling it
has measured between the two (the level left after cancellation, relative to the
reference, learnt while the game's sound is loud and the canceller is visibly
taking it out, so the player's own voice is not learnt as echo: a high percentile,
so peaks count), added to the room's own noise (the quietest the cleaned sound gets, as the
voice detector's noise floor follows it). A frame is the player's voice when it
stands ``margin_db`` above that prediction and the canceller hardly lowered it (it
cannot predict a voice it never played: while only echo is heard it takes several
dB off every frame); a few such frames in a row are an onset: the player started
talking over the game. A voice quieter than the echo at the microphone (loud
speakers) is lowered with the echo and passes neither test; while the game plays,
a few frames in a row in which several bands (:mod:`.echo_bands`) sound like the
player are an onset too.

Pure computation on levels and on each frame's spectrum: no audio device is needed.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from numpy.typing import NDArray

from voice_spades.voice.audio.echo_bands import (
    NOTHING,
    EchoBands,
)
from voice_spades.voice.audio.vad import NoiseFloor, VadSettings

RAW_PERCENTILE = 90.0
"""The player's voice must be at least as loud, before cancellation, as the echo is at
this percentile of the frames heard (relative to what was played): when the canceller
slips (its filter upset by a long stretch of talking over the narrator), the echo
comes through whole, and it must not pass for a voice."""
SLIPPED_DB = 6.0
"""Below this much echo taken off lately, the canceller has slipped (its filter upset,
as after a long stretch of double talk): the voice must then also stand ``margin_db``
above the loud echo itself, until it has learnt the room again."""
RAISED_DB = 1.0
"""A frame the canceller made this much louder is its own error, not a voice."""
LOWERED_FRACTION = 0.0
"""While the canceller works, a frame it lowered by up to this fraction of what it
takes off echo alone (:attr:`EchoGate.removal_db`) may still be the player's: a voice
said over the narrator loses the narrator's share of the sound (some 7 dB for a voice
6 dB under the echo) where echo alone loses all it removes. 0 keeps the fixed
``double_talk_db``: measured in the room bench (offline, seed 5), 0.5 (with
:data:`RAW_SLACK_DB` 3) understood 75% of 36 commands over the narrator against 72%,
but the narration alone stopped itself 15 times in 5 minutes against 5, and once
asked a question."""
RAW_SLACK_DB = 0.0
"""While the canceller works, the player's voice (with the echo) before cancellation may
be this much quieter than the loud echo alone (the percentile); 0, as measured with
:data:`LOWERED_FRACTION`."""
DECAY_DB_PER_SECOND = 50.0
"""How fast the echo expected after a loud frame dies away (the reference held over a
tail that falls this many dB a second). In the room bench's large room (reverberation
time 0.8 s, rumble) at 75 dB/s the narrator alone stopped itself 10 times in 10 minutes
(seed 1; the reverberant tail outlived the prediction and passed for a voice); at 60,
3 times; at 50, never, with the same commands understood over the narrator and after
it, barge-ins and latency; at 40 fewer commands stopped the narrator (89% against 92%).
Held out (seeds 2 and 5): the narrator stopped itself 2 -> 0 and 5 -> 0 times, commands
understood the same (61% and 58% over the narrator, 58% and 92% after it), median
latency 286 -> 292 ms and 252 -> 255 ms, and the narrator fell silent 135 -> 145 ms after
a command began (seed 5; seed 2: 125 ms both). With the bundled WebRTC canceller (the
fallback, far behind Speex in that bench), seed 1: the narration stopped itself 17 -> 5
times and was heard as "say again" 4 -> 0 times, commands understood over the narrator
33 -> 36% and after it 58 -> 67%, but fewer stopped the narrator (67 -> 58%), and later
(300 -> 350 ms)."""
ONSET_FRAMES = 3
"""Frames (20 ms) in a row that must sound like the player for an onset. 4 before: in
the room bench (offline, trained and untrained, seeds 1-6, 36 commands over the
narrator and 12 after it each), 3 understood over the narrator, trained, 78, 69, 78,
69, 86, 69% -> 83, 72, 83, 72, 86, 72% (seeds 4 and 6 held out), untrained 69, 61, 67,
61, 61, 64% -> 72, 67, 69, 61, 58, 67%, and after it one command fewer in three of the
twelve runs; the narrator fell silent sooner after a command began (median 125-160 ->
110-120 ms); narration alone still never acted or asked, and stopped itself once more
in 20 minutes (seed 3). 2 (seed 1, untrained): 75% over the narrator, but narration
alone stopped itself twice and was once answered "say again"."""
BAND_COUNT = 3
"""Bands (of :mod:`.echo_bands`' 17) that must sound like the player, in each of
:data:`ONSET_FRAMES` frames in a row heard while the game plays, for an onset the whole
level missed (0: never). Room bench (offline, 36 commands over the narrator and 12
after it, ten minutes of narration alone, seeds 1-6), before -> after. Trained:
understood over the narrator 83, 72, 83, 72, 86, 72% -> 78, 75, 89, 72, 83, 75%; of
those said 6 dB under the echo 54% -> 61% (mean of the seeds), 6 dB over it one fewer
on seeds 1 and 2; the narrator stopped by the command 83-92% -> 89-97%, 110-120 ->
90-110 ms after it began; median latency unchanged (within 4 ms). Untrained: 72, 67,
69, 58, 61, 67% -> 72, 72, 72, 67, 61, 69%; 6 dB under the echo 42% -> 53%; the
narrator stopped 83-92% -> 89-97%, 110-120 -> 90-110 ms after; median latency 262,
286, 265, 302, 255, 407 -> 328, 285, 284, 294, 254, 418 ms. Commands after the narrator
(where the bands are not judged; the same audio, decoded after other utterances)
trained 92, 67, 83, 83, 100, 100% -> 100, 67, 83, 83, 100, 100%, untrained 67, 58, 58,
67, 92, 83% -> 75, 50, 58, 67, 92, 75%. The narration alone acted or asked never, and
stopped itself as often as before (four times in the twelve runs' 120 minutes). While band
frames also counted towards the level's onset and marked where the voice began (the
utterance then began earlier, in the echo, and "sure" was heard as "slower"), seed 6
gave 81% and seed 1 78%. Judging the bands in the game's pauses too, the large
reverberant room's tail (which the canceller's filter does not reach) stood out of
3-4 bands and the narration stopped itself (``tests/voice/test_barge_in_echo.py``)."""
Spectra = tuple[NDArray[np.int16], NDArray[np.int16], NDArray[np.int16] | None]
"""One frame's samples before cancellation, after the canceller's filter, and played."""


class EchoGate:
    """Onsets of the player's voice over the game's sound, after cancellation.

    Feed it every frame (:meth:`feed`) with the cleaned frame's level and the level of
    what was played at that moment (None when nothing was). :attr:`watching` says
    whether any echo may still be heard; :meth:`feed` returns True on an onset.
    """

    def __init__(self, settings: VadSettings | None = None, *, margin_db: float = 4.0,
                 onset_frames: int = ONSET_FRAMES, decay_db_per_second: float = DECAY_DB_PER_SECOND,
                 learn_seconds: float = 1.0, memory_seconds: float = 12.0,
                 percentile: float = 90.0, loud_db: float = 15.0,
                 removed_db: float = 3.0, double_talk_db: float = 1.5,
                 lowered_fraction: float = LOWERED_FRACTION,
                 raw_slack_db: float = RAW_SLACK_DB, band_count: int = BAND_COUNT) -> None:
        self.settings = s = settings or VadSettings()
        self.margin_db = margin_db
        self.onset_frames = onset_frames
        self.percentile = percentile
        self._decay = decay_db_per_second * s.frame_seconds
        self.band_count = band_count
        self.bands = EchoBands(decay_db=self._decay) if band_count else None
        """The band-by-band judge (None when ``band_count`` is 0)."""
        self._learn = s.frames(learn_seconds)
        self._excess: deque[float] = deque(maxlen=s.frames(memory_seconds))
        self._raw_excess: deque[float] = deque(maxlen=s.frames(memory_seconds))
        self._raw_coupling: float | None = None
        self._coupling: float | None = None
        self._since_update = 0
        self._reference = NOTHING
        self._peak = NOTHING
        self._loud = loud_db
        self._removed = removed_db
        self._double_talk = double_talk_db
        self.lowered_fraction = lowered_fraction
        self.raw_slack_db = raw_slack_db
        self.noise = NoiseFloor(s)
        """The room's noise, as heard after cancellation."""
        self._run = 0
        self._band_run = 0
        """Frames in a row whose bands sound like the player (no gap allowed)."""
        self._misses = 0
        self.from_bands = False
        """Whether the last onset came from the bands alone (the whole level had not
        yet risen): the voice is then under the echo and began only just before."""
        self.voiced = False
        self.removal_db = 0.0
        """How much the canceller has lately been taking off the game's loud sound (dB):
        near nothing when it has slipped."""
        """Whether the last frame could be the player's (the onset test, ``margin_db``
        looser): where an utterance heard over the game begins."""

    @property
    def coupling_db(self) -> float | None:
        """How loud the echo left after cancellation is, relative to what was played
        (a high percentile of the frames heard so far; None while learning)."""
        return self._coupling

    @property
    def expected_db(self) -> float:
        """The loudest echo expected in the next frame (:data:`.echo_bands.NOTHING` when none)."""
        if self._reference <= NOTHING:
            return NOTHING
        return self._reference + (self._coupling if self._coupling is not None else 0.0)

    @property
    def threshold_db(self) -> float:
        """The level a frame must reach to be the player's voice: ``margin_db`` above
        the echo expected and the room's noise together, and never less above the noise
        alone than the voice detector asks."""
        noise = self.noise.level or NOTHING
        return max(_sum_db(self.expected_db, noise) + self.margin_db,
                   noise + self.settings.onset_db)

    @property
    def watching(self) -> bool:
        """True while echo may be heard above the room's noise: the game plays, or
        just did."""
        noise = self.noise.level or NOTHING
        return self.expected_db + self.margin_db >= max(self.settings.min_level_db,
                                                        noise + self.settings.onset_db)

    def feed(self, level_db: float, reference_db: float | None,
             raw_db: float | None = None, spectra: Spectra | None = None) -> bool:
        """One frame: its level after cancellation, the level played meanwhile and the
        frame's level before cancellation (if known), and, for the band-by-band judge,
        the frame's samples before and after cancellation and what was played (None
        when silent). True when the player's voice has just started over the game's
        sound (or over the room's noise alone, once the echo has died away)."""
        played = NOTHING if reference_db is None else reference_db
        self._reference = max(played, self._reference - self._decay)
        self._peak = max(played, self._peak - self._decay / 10)
        if self._reference < NOTHING / 2:
            self._reference = self._peak = NOTHING
        watching = self.watching
        if not watching and self._run == 0:
            self.noise.update(level_db)
        banded = self._banded(spectra, level_db, watching)
        self._band_run = self._band_run + 1 if banded else 0
        band_onset = self._band_run == self.onset_frames and self._run < self.onset_frames
        self.voiced = self._voice(level_db, raw_db, slack=self.margin_db)
        if self._voice(level_db, raw_db):
            self._run += 1
            self._misses = 0
            if self._run == self.onset_frames or band_onset:
                self.from_bands = self._run < self.onset_frames
                return True
            return False
        self._misses += 1
        if self._misses > 1:
            self._run = 0
        if band_onset:
            self.from_bands = True
            return True
        echo_alone = False
        if self._run == 0 and watching and not banded:
            if self.noise.level is None or level_db < self.noise.level:
                self.noise.update(level_db)  # pauses between words show the noise
            removed = raw_db is None or self._coupling is None \
                or raw_db - level_db >= self._removed
            if self._reference >= self._peak - self._loud:
                echo_alone = not self.voiced
                if raw_db is not None and echo_alone:
                    self.removal_db += (raw_db - level_db - self.removal_db) * 0.08
                if removed:
                    echo = _minus_db(level_db, self.noise.level or NOTHING)
                    self._learn_from(echo - self._reference)
                if raw_db is not None:
                    self._raw_excess.append(raw_db - self._reference)
        if self.bands is not None and spectra is not None and not banded:
            self.bands.learn(echo_alone)
        return False

    def _banded(self, spectra: Spectra | None, level_db: float, watching: bool) -> bool:
        """Whether enough bands of the frame sound like the player, heard while the game
        plays (in its pauses the reverberation's tail, which outlives what the
        canceller models, may stand out of a few bands: the whole level judges there)
        and while the canceller works (when it has slipped, every band is hardly
        lowered)."""
        if self.bands is None or spectra is None:
            return False
        count = self.bands.voice_bands(*spectra)
        return watching and spectra[2] is not None and count >= self.band_count \
            and self._coupling is not None \
            and self.removal_db >= SLIPPED_DB and level_db >= self.settings.min_level_db

    def _voice(self, level_db: float, raw_db: float | None, slack: float = 0.0) -> bool:
        """Whether a frame sounds like the player: above the threshold, and (as a voice
        the canceller cannot predict) hardly changed by it: neither lowered (that was
        echo) nor raised (the canceller mispredicting, as at the first syllable of a
        narration after its echo's path changed)."""
        if self._coupling is None or level_db < self.settings.min_level_db \
                or level_db < self.threshold_db - slack:
            return False
        if raw_db is None:
            return True
        slipped = self.removal_db < SLIPPED_DB
        if self._raw_coupling is not None and self._reference > NOTHING:
            floor = self._reference + self._raw_coupling \
                + (self.margin_db if slipped else -self.raw_slack_db)
            if raw_db < floor - slack:
                return False  # no louder than the echo itself: the canceller slipped
        lowered = self._double_talk if slipped \
            else max(self._double_talk, self.removal_db * self.lowered_fraction)
        return -RAISED_DB <= raw_db - level_db <= lowered

    def _learn_from(self, excess: float) -> None:
        self._excess.append(excess)
        self._since_update += 1
        if len(self._excess) < self._learn:
            return
        if self._coupling is None or self._since_update >= 10:
            self._since_update = 0
            self._coupling = float(np.percentile(np.fromiter(self._excess, dtype=float),
                                                 self.percentile))
            if len(self._raw_excess) >= self._learn:
                self._raw_coupling = float(np.percentile(
                    np.fromiter(self._raw_excess, dtype=float), RAW_PERCENTILE))


def _sum_db(a: float, b: float) -> float:
    """The level of two uncorrelated sounds of levels ``a`` and ``b`` together."""
    top = max(a, b)
    return float(top + 10.0 * np.log10(10 ** ((a - top) / 10) + 10 ** ((b - top) / 10)))


def _minus_db(total: float, part: float) -> float:
    """The level of what remains of ``total`` without ``part`` (at least 20 dB below
    ``total``: a level at the noise is taken for mostly noise)."""
    rest = 10 ** (total / 10) - 10 ** (part / 10)
    floor = 10 ** ((total - 20.0) / 10)
    return float(10.0 * np.log10(max(rest, floor)))
