"""``bench voice --room --offline --enroll``: each speaker first trains voice input in
each room, and their commands there are heard with that training.

A player trains in the room they play in, on their own microphone, with the game
silent (``voice-spades train-voice`` mutes the microphone while it speaks): so each
speaker reads the training's script (synthesized in their voice, at an even speed and
pitch, as ``bench voice --enroll`` does) through the room's acoustics, from where they
sit, at the loudness of their commands against the usual echo, in the room's
background noise. :class:`RoomTrainings` is the recognizer the runner hears with; the
runner tells it which speaker and room come next (narration alone is heard with the
first speaker's training for that room).
"""

from __future__ import annotations

import tempfile
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voice_spades.bench.voice_enrolled import read_script
from voice_spades.voice.adaptation.enrollment import SCRIPT_LENGTH, script
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.recognizers.pocketsphinx_recognizer import (
    RECENT_RESULTS,
    PocketSphinxRecognizer,
)
from voice_spades.voice.testing.room import (
    ECHO_DBFS,
    Noise,
    convolve,
    gain_for,
    impulse_responses,
)


@dataclass(frozen=True)
class RoomReading:
    """How one speaker's training in one room went."""

    voice: str
    room: str
    noise: str
    heard: int
    read: int


def through_room(pcm: bytes, room: str, noise: str, seed: int) -> bytes:
    """``pcm`` (16 kHz int16, dry) as the room's microphone hears it from the player's
    seat: at the commands' usual loudness (that of the echo), with the room's noise."""
    dry = np.frombuffer(pcm, dtype="<i2").astype(np.float64) / 32768.0
    dry = dry * gain_for(dry.astype(np.float32), ECHO_DBFS)
    wet = convolve(dry, impulse_responses(room)[1])[:len(dry)]
    wet = wet + Noise(noise, seed).block(len(wet))
    return (np.clip(wet, -1.0, 1.0) * 32767).astype("<i2").tobytes()


class RoomTrainings:
    """PocketSphinx trained on each speaker in each room, trained when first needed;
    :meth:`use` chooses which one hears next."""

    name = "pocketsphinx"
    kept_results = RECENT_RESULTS

    def __init__(self, voices: Sequence[str], seed: int = 1,
                 length: int = SCRIPT_LENGTH) -> None:
        self.voices = tuple(voices)
        self.seed = seed
        self.readings: list[RoomReading] = []
        self._lexicon = lexicon_for("en")
        self._script = script(self._lexicon, length)
        self._plain = PocketSphinxRecognizer(lexicon=self._lexicon)
        self._folder = tempfile.TemporaryDirectory(prefix="voice-spades-room-training-")
        self._trained: dict[tuple[str, str, str], PocketSphinxRecognizer] = {}
        self._current: PocketSphinxRecognizer | None = None

    def use(self, room: str, noise: str, voice: str | None) -> None:
        """Hear next with ``voice``'s training in ``room`` with ``noise`` (None: the
        first speaker's)."""
        self._current = self._trained_for(room, noise, voice)

    def prepare(self, places: Iterable[tuple[str, str, str | None]]) -> None:
        """Train now for each (room, noise, voice) of ``places``, so that a run in real
        time does not stop to train between scenes."""
        for room, noise, voice in places:
            self._trained_for(room, noise, voice)

    def _trained_for(self, room: str, noise: str, voice: str | None) -> PocketSphinxRecognizer:
        """``voice``'s training in ``room`` with ``noise``, trained the first time."""
        key = (voice or self.voices[0], room, noise)
        if key not in self._trained:
            self._trained[key] = self._train(*key)
        return self._trained[key]

    def _train(self, voice: str, room: str, noise: str) -> PocketSphinxRecognizer:
        path = Path(self._folder.name) / f"{len(self._trained)}.means"
        heard = read_script(self._plain, voice, self._script, path, lambda pcm, number:
                            through_room(pcm, room, noise, self.seed + number))
        self.readings.append(RoomReading(voice, room, noise, heard, len(self._script)))
        return PocketSphinxRecognizer(lexicon=self._lexicon, adaptation=path)

    @property
    def current(self) -> PocketSphinxRecognizer:
        """The recognizer hearing now (the first speaker's in a quiet small room until
        :meth:`use` is called)."""
        if self._current is None:
            self.use("small", "quiet", None)
        assert self._current is not None
        return self._current

    @property
    def parallel_wait_seconds(self) -> float:
        """The phone loop's waits of every recognizer so far (see
        ``PocketSphinxRecognizer.parallel_wait_seconds``)."""
        return sum(r.parallel_wait_seconds for r in self._trained.values())

    @property
    def last_details(self) -> object:
        """The details of the last decode (see ``PocketSphinxRecognizer.last_details``)."""
        return self.current.last_details

    def set_phrases(self, phrases: Sequence[str]) -> None:
        """Allow ``phrases`` (in the recognizer hearing now)."""
        self.current.set_phrases(phrases)

    def set_grouped_phrases(self, phrases: Sequence[str], groups: Sequence[Hashable]) -> None:
        """Allow ``phrases`` with their meanings (in the recognizer hearing now)."""
        self.current.set_grouped_phrases(phrases, groups)

    def decode(self, audio: bytes) -> Recognition:
        """Decode one utterance with the recognizer hearing now."""
        return self.current.decode(audio)

    def decode_unless_unfinished(self, audio: bytes) -> Recognition | None:
        """As ``PocketSphinxRecognizer.decode_unless_unfinished``."""
        return self.current.decode_unless_unfinished(audio)

    def start(self) -> None:
        """Begin a streamed utterance."""
        self.current.start()

    def feed(self, chunk: bytes) -> None:
        """Add audio to the streamed utterance."""
        self.current.feed(chunk)

    def finish(self) -> Recognition:
        """End the streamed utterance."""
        return self.current.finish()

    def close(self) -> None:
        """Remove the trained files (the recognizers keep what they loaded)."""
        self._folder.cleanup()
