"""Voice training: the player reads the phrases of a short script, and the model's
means are moved towards their voice by what they said.

>>> from voice_spades.voice.lexicon import lexicon_for
>>> phrases = script(lexicon_for("en"))
>>> len(phrases), len(set(phrases))
(24, 24)
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from voice_spades.voice.adaptation.acoustic_model import AcousticModel, Gaussians
from voice_spades.voice.adaptation.aligner import PhraseAligner
from voice_spades.voice.adaptation.estimate import MAP_FRAMES, AdaptationStatistics
from voice_spades.voice.adaptation.front_end import FrontEnd, features
from voice_spades.voice.adaptation.transform import SpeakerTransform
from voice_spades.voice.audio.features import add_noise_floor
from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.recognizers.pocketsphinx_recognizer import (
    PocketSphinxRecognizer,
    prepared_clip,
)
from voice_spades.voice.understanding.grammar import shuffled_by_kind

SCRIPT_LENGTH = 24
"""Phrases read in one training: two of each kind of command (cards, bids, queries,
answers...), a couple of minutes of reading."""
SCRIPT_SEED = 0
"""Which phrases of each kind the script holds (the same for every player)."""
PAD_SECONDS = 0.2
"""Silence put around a reading: the alignment's first and last silences need frames."""
PASSES = 3
"""Estimates of the transform, each aligned with the one before. Measured on set 600
(before the mixture weights): 1 pass 95.33%, 3 passes 96.17%, 5 passes 96.33%."""


def script(lexicon: Lexicon, length: int = SCRIPT_LENGTH) -> list[str]:
    """The phrases to read: the kinds of phrase in turn, so that every kind is read,
    the same ones each time for a language."""
    # wake words are short; marks repeat cards
    by_kind = shuffled_by_kind(lexicon, random.Random(SCRIPT_SEED),
                               lambda kind: kind not in ("listening", "mark"))
    chosen: list[str] = []
    for turn in range(length):
        for kind in sorted(by_kind):
            if turn < len(by_kind[kind]) and len(chosen) < length:
                chosen.append(by_kind[kind][turn])
    return chosen


class Enrollment:
    """Gathers what the player read; :meth:`trained_means` are the model's means moved
    towards their voice."""

    def __init__(self, recognizer: PocketSphinxRecognizer) -> None:
        self.recognizer = recognizer
        model_dir = Path(recognizer.model_dir)
        self.model = AcousticModel.read(model_dir / "en-us")
        self.front_end = FrontEnd.for_model(model_dir / "en-us", recognizer.tuning.warp)
        self._aligner = PhraseAligner(recognizer.pronunciations, self.model)
        self._statistics = AdaptationStatistics(self.model)
        self._readings: list[tuple[str, NDArray[np.float64]]] = []
        self.heard = 0
        """Phrases read and aligned so far."""

    def hear(self, phrase: str, audio: bytes) -> bool:
        """Add the player's reading of ``phrase`` (16 kHz mono int16 PCM); False when it
        could not be matched to the phrase (silence, another phrase, a cut word)."""
        tuning = self.recognizer.tuning
        _, clip = prepared_clip(audio, tuning)
        if clip is None:
            return False
        pad = add_noise_floor(bytes(2 * int(PAD_SECONDS * 16000)), tuning.noise_floor)
        heard = features(self.front_end.cepstra(pad + clip + pad))
        states = self._aligner.states(phrase, heard)
        if states is None:
            return False
        self._statistics.add(heard, states)
        self._readings.append((phrase, heard))
        self.heard += 1
        return True

    def transform(self, passes: int = PASSES) -> SpeakerTransform:
        """The transform of the voice heard so far (the identity before any): each
        pass after the first aligns the phrases again with the model moved by the
        transform before it, and shares their frames among its moved Gaussians."""
        found = self._statistics.transform()
        for _ in range(passes - 1):
            found = self._realigned(found).transform()
        return found

    def trained_means(self, passes: int = PASSES,
                      weight: float = MAP_FRAMES) -> Gaussians:
        """The model's means moved towards the voice heard so far: by :meth:`transform`,
        then each Gaussian towards the frames it took when the phrases are aligned with
        that (:meth:`AdaptationStatistics.map_means`); the model's own before any
        phrase was heard."""
        return self._realigned(self.transform(passes)).map_means(weight)

    def _realigned(self, found: SpeakerTransform) -> AdaptationStatistics:
        """The statistics of the phrases aligned again with the model moved by ``found``."""
        moved = found.applied(self.model.means)
        aligner = PhraseAligner(self.recognizer.pronunciations, self.model, moved)
        statistics = AdaptationStatistics(self.model, found)
        for phrase, heard in self._readings:
            states = aligner.states(phrase, heard)
            if states is not None:
                statistics.add(heard, states)
        return statistics
