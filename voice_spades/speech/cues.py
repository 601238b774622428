"""Sound cues: short sounds for what happens, placed in stereo by seat, mixed with speech.

:data:`CUES` maps the lines the session emits (by ``Line.message_id``) to cues;
:class:`CuePlayer` plays a batch's cues on the game's :class:`AudioOut` the moment the
batch is emitted, never queued behind speech; :func:`attach_cues` wraps any session
output (voice, screen reader or text) so that it does. A cue is placed by the seat
its line is about (``Line.seat``, :mod:`~voice_spades.speech.placement`), the seat across
the table (the partner at four) sounding from across the table; the end of a hand
sounds the listener's contract made or set (``Line.result``).
"""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.narration import Line, LineKind, render_message
from voice_spades.session.output import Output
from voice_spades.speech.audio_clip import prepare
from voice_spades.speech.audio_out import AudioOut, Playback, shared_audio
from voice_spades.speech.audio_stream import NO_PORTAUDIO
from voice_spades.speech.cue_sounds import RATE, Cue, Samples, make_cues
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.placement import seat_pans, seat_place
from voice_spades.speech.pyttsx3_speaker import Pyttsx3Speaker

_log = logging.getLogger(__name__)

CUES: dict[str, tuple[Cue, ...]] = {
    "prompt.bid": (Cue.YOUR_TURN,),
    "prompt.bid_any": (Cue.YOUR_TURN,),
    "prompt.blind_nil": (Cue.YOUR_TURN,),
    "prompt.draw": (Cue.YOUR_TURN,),
    "prompt.exchange": (Cue.YOUR_TURN,),
    "prompt.lead": (Cue.YOUR_TURN,),
    "prompt.follow": (Cue.YOUR_TURN,),
    "prompt.void": (Cue.YOUR_TURN,),
    "card.led": (Cue.CARD,),
    "card.played": (Cue.CARD,),
    "card.played_next": (Cue.CARD,),
    "trick.won": (Cue.TRICK,),
    "trick.won_summary": (Cue.TRICK,),
    "trick.won_last": (Cue.CARD, Cue.TRICK),
    "spades.broken": (Cue.SPADES_BROKEN,),
    "spades.broken_after": (Cue.SPADES_BROKEN,),
    "nil.broken": (Cue.NIL_BROKEN,),
    "score.totals": (),  # the hand's end: made or set, by Line.result (RESULT_CUES)
    "match.won": (Cue.MATCH_WON,),
    "match.won_side": (Cue.MATCH_WON,),
    "match.lost": (Cue.MATCH_LOST,),
}
"""The cues each line sounds, by message id (every id is in the catalog: a test checks)."""
RESULT_CUES = {"made": Cue.CONTRACT_MADE, "set": Cue.CONTRACT_SET}
"""The cue for a line's ``result`` (the listener's contract at the end of a hand)."""
SEATED = frozenset({Cue.CARD, Cue.TRICK, Cue.SPADES_BROKEN, Cue.NIL_BROKEN})
"""Cues placed by the seat their line is about; the others sound in the centre."""
GAP = 0.04
"""Seconds between two cues of one batch (a card, then the trick it won)."""
MAX_PER_BATCH = 4
TAG = "cue"
"""The tag of cue clips on the output."""
DEFAULT_VOLUME = 70


class PlacedCue(NamedTuple):
    """A cue to play, where: its ``pan`` (-1 left .. +1 right) and whether it sounds from
    ``across`` the table (:func:`~voice_spades.speech.cue_sounds.from_across`)."""

    cue: Cue
    pan: float = 0.0
    across: bool = False


class CueRules:
    """Which cues a batch of lines sounds, and where, for a table of ``players`` heard
    from ``listener``'s seat."""

    def __init__(self, players: int = 4, listener: int = 0) -> None:
        self.players, self.listener = players, listener
        self._lock = threading.Lock()
        self._event_since_turn = True

    def set_table(self, players: int, listener: int = 0) -> None:
        """Place the seats for a table of ``players`` heard from ``listener``'s seat."""
        with self._lock:
            self.players, self.listener = players, listener

    def cues_for(self, lines: Sequence[Line]) -> list[PlacedCue]:
        """The cues a batch of lines sounds, in order, each with its place (at most
        :data:`MAX_PER_BATCH`, none twice). "Your turn" sounds once per turn: not again
        for a prompt repeated with no game event between (an answer, a refused key)."""
        found: list[PlacedCue] = []
        with self._lock:
            for line in lines:
                cues = CUES.get(line.message_id, ())
                if line.result in RESULT_CUES:
                    cues = (*cues, RESULT_CUES[line.result])
                if line.kind is LineKind.EVENT:
                    self._event_since_turn = True
                for cue in cues:
                    if cue is Cue.YOUR_TURN:
                        if not self._event_since_turn:
                            continue
                        self._event_since_turn = False
                    placed = PlacedCue(cue, *seat_place(line.seat, self.players,
                                                        self.listener)) \
                        if cue in SEATED else PlacedCue(cue)
                    if placed not in found:
                        found.append(placed)
        return found[:MAX_PER_BATCH]


class CuePlayer:
    """Plays the cues of the lines emitted on ``audio`` at ``volume`` (0-100), by
    ``rules`` (a table of four heard from seat 0 unless given)."""

    def __init__(self, audio: AudioOut, volume: int = DEFAULT_VOLUME, *,
                 rules: CueRules | None = None) -> None:
        self.audio = audio
        self.rules = rules if rules is not None else CueRules()
        self._volume = max(0, min(100, int(volume)))
        self._sounds, self._across = _cue_sounds(self._volume)
        self.failed = False
        """True once the output failed under a cue (cues are off from then on)."""

    @property
    def volume(self) -> int:
        """The cues' volume, 0-100."""
        return self._volume

    @volume.setter
    def volume(self, value: int) -> None:
        self._volume = max(0, min(100, int(value)))
        self._sounds, self._across = _cue_sounds(self._volume)

    def sound(self, placed: PlacedCue) -> Samples:
        """The mono samples ``placed`` plays (from across the table where it says so)."""
        return self._across[placed.cue] if placed.across else self._sounds[placed.cue]

    def play(self, cues: Sequence[PlacedCue]) -> Playback | None:
        """Play ``cues`` one after the other (:data:`GAP` apart) as one clip, now; None if
        there is nothing to play or the output has failed."""
        if not cues or self.failed:
            return None
        parts = []
        for i, placed in enumerate(cues):
            if i:
                parts.append(np.zeros((int(GAP * RATE), 2), dtype=np.float32))
            parts.append(prepare(self.sound(placed), RATE, RATE, pan=placed.pan))
        try:
            return self.audio.play(np.concatenate(parts), RATE, tag=TAG)
        except SetupError:
            self.failed = True
            return None

    def on_lines(self, lines: Sequence[Line]) -> Playback | None:
        """Play the cues of a batch of lines just emitted."""
        return self.play(self.rules.cues_for(lines))


def _cue_sounds(volume: int) -> tuple[dict[Cue, Samples], dict[Cue, Samples]]:
    """Every cue at ``volume``, and the seated ones as heard from across the table."""
    across = make_cues(volume, across=True)
    return make_cues(volume), {cue: across[cue] for cue in SEATED}


class CuedOutput:
    """A session :class:`~voice_spades.session.output.Output` that plays each batch's cues
    at once, then hands the batch to ``inner`` (any speech output). Anything else is
    ``inner``'s. If the sound output fails, one line says the cues are off."""

    def __init__(self, inner: Output, cues: CuePlayer) -> None:
        self.inner = inner
        self.cues = cues
        self._told = False

    def emit(self, lines: Sequence[Line]) -> None:
        """Play the batch's cues, then print and speak it."""
        try:
            self.cues.on_lines(lines)
        except Exception:  # a cue must never cost the player a line
            _log.exception("a sound cue failed")
        self.inner.emit(lines)
        if self.cues.failed and not self._told:
            self._told = True
            message = Message("sound.cues_lost")
            self.inner.emit([Line(message.id, render_message(message), kind=LineKind.EVENT)])

    def interrupt(self) -> None:
        """Cut the sentence playing (cues are too short to need cutting)."""
        self.inner.interrupt()

    def silence(self) -> None:
        """The player's skip: speech and any cue still sounding stop."""
        self.cues.audio.stop(TAG)
        self.inner.silence()

    def cancel(self, tag: str) -> None:
        """Drop queued speech tagged ``tag``."""
        self.inner.cancel(tag)

    def is_busy(self) -> bool:
        """True while speech is playing or queued (cues never hold the game)."""
        return self.inner.is_busy()

    def wait_idle(self, timeout: float) -> bool:
        """Wait for speech to finish, at most ``timeout`` seconds."""
        return self.inner.wait_idle(timeout)

    def repeat_last(self) -> None:
        """Say the last message again."""
        self.inner.repeat_last()

    def recent(self, count: int) -> list[str]:
        """The last ``count`` messages."""
        return self.inner.recent(count)

    def change_rate(self, step: int) -> bool:
        """Speak faster or slower."""
        return self.inner.change_rate(step)

    def close(self) -> None:
        """Close the speech output (the sound output is the game's to close)."""
        self.inner.close()


def attach_cues(output: Output, cues: CuePlayer | None) -> Output:
    """``output`` with sound cues (unchanged when ``cues`` is None: sounds are off)."""
    return output if cues is None else CuedOutput(output, cues)


def start_cues(enabled: bool, volume: int = DEFAULT_VOLUME, *, players: int = 4,
               audio: AudioOut | None = None) -> tuple[CuePlayer | None, Message | None]:
    """The cue player when sounds are ``enabled`` (on ``audio``, else the game's shared
    output), or None and the one sentence that says why there are no sounds (None when
    they were turned off)."""
    if not enabled:
        return None, None
    try:
        out = audio if audio is not None else shared_audio()
    except SetupError as error:
        reason = "sound.cues_no_portaudio" if error.message_id == NO_PORTAUDIO \
            else "sound.cues_no_device"
        return None, Message(reason)
    return CuePlayer(out, volume, rules=CueRules(players)), None


def start_sounds(output: AnnouncerOutput, *, sounds: bool, volume: int, players: int,
                 place_voice: bool = False) -> tuple[Output, list[Message]]:
    """The session's output for the game: ``output`` with sound cues when ``sounds`` are
    wanted and the audio output works, the game's own voice placed by seat when
    ``place_voice`` asks; and what to tell the player. Sounds that cannot start are
    said only when the player hears speech (a voice that failed has said why)."""
    notices: list[Message] = []
    speaker = output.announcer.speaker
    if place_voice and isinstance(speaker, Pyttsx3Speaker):
        speaker.set_placement(seat_pans(players))
    cues, problem = start_cues(sounds, volume, players=players)
    if problem is not None and output.speaking:
        notices.append(problem)
    return attach_cues(output, cues), notices


def parse_volume(text: str) -> int:
    """``--sound-volume``: a whole number from 0 to 100 (argparse says the error)."""
    try:
        value = int(text.strip())
    except ValueError:
        value = -1
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(render_message(Message("sound.bad_volume",
                                                                value=text)))
    return value
