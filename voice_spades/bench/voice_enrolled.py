"""``voice-spades bench voice --enroll``: each speaker of the manifest first reads the
voice training's script (synthesized in their voice, at an even speed and pitch), and
their clips are then decoded by PocketSphinx adapted to them.

The manifest must name each clip's speaker (its third column, which the manifest
generator writes); the prompts' states are those of the plain run (the same seed and
clip numbers), so the figures compare one to one.
"""

from __future__ import annotations

import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from voice_spades.bench.voice import Outcome, Sample, run
from voice_spades.voice.adaptation.enrollment import Enrollment, script
from voice_spades.voice.adaptation.trained_means import save_trained_means
from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.testing.manifest import NOISE_FLOOR, PAD_SECONDS, speak
from voice_spades.voice.testing.mbrola import MissingSounds
from voice_spades.voice.testing.testspeech import SpeechParams
from voice_spades.voice.understanding.confirmation import ConfirmationPolicy


@dataclass(frozen=True)
class Reading:
    """How one speaker's training went."""

    speaker: str
    heard: int
    read: int
    seconds: float
    """Time to align the phrases and move the means."""


def read_script(recognizer: PocketSphinxRecognizer, voice: str, phrases: Sequence[str],
                save_to: Path, heard: Callable[[bytes, int], bytes] = lambda pcm, _: pcm) -> int:
    """Train ``recognizer``'s model on ``voice`` reading ``phrases`` (synthesized at an
    even speed and pitch; a phrase its MBROLA voice cannot say is left out), each reading
    as ``heard`` turns it (given the audio and the phrase's number); save the trained
    means to ``save_to``. Returns how many phrases were heard."""
    enrollment = Enrollment(recognizer)
    for number, phrase in enumerate(phrases):
        params = SpeechParams(voice=voice, noise=NOISE_FLOOR, pad_seconds=PAD_SECONDS,
                              seed=number)
        try:
            pcm = speak(phrase, params)
        except MissingSounds:
            continue
        enrollment.hear(phrase, heard(pcm, number))
    save_trained_means(save_to, enrollment.trained_means())
    return enrollment.heard


def places_by_speaker(samples: Sequence[Sample]) -> dict[str, list[int]]:
    """Each speaker's clips, by place in the manifest; ValueError when the manifest
    names no speaker for some clips."""
    if any(not sample.speaker for sample in samples):
        raise ValueError("the manifest names no speaker for some clips (third column); "
                         "make it again with python -m voice_spades.voice.testing.manifest")
    places: dict[str, list[int]] = defaultdict(list)
    for place, sample in enumerate(samples):
        places[sample.speaker].append(place)
    return places


def enrolled_run(samples: Sequence[Sample], grammar: str, seed: int, lexicon: Lexicon,
                 policy: ConfirmationPolicy,
                 length: int | None = None) -> tuple[list[Outcome], list[Reading]]:
    """The outcomes of every sample (in manifest order), each decoded with its
    speaker's training; and how each training went."""
    places = places_by_speaker(samples)
    phrases = script(lexicon) if length is None else script(lexicon, length)
    outcomes: dict[int, list[Outcome]] = {}
    readings: list[Reading] = []
    plain = PocketSphinxRecognizer(lexicon=lexicon)
    with tempfile.TemporaryDirectory(prefix="voice-spades-enrol-") as folder:
        for speaker, chosen in sorted(places.items()):
            started = time.perf_counter()
            path = Path(folder) / f"{len(readings)}.means"
            heard = read_script(plain, speaker, phrases, path)
            readings.append(Reading(speaker, heard, len(phrases),
                                    time.perf_counter() - started))
            adapted = PocketSphinxRecognizer(lexicon=lexicon, adaptation=path)
            for place in chosen:  # one at a time: table talk is tried at every prompt
                outcomes[place] = run(adapted, [samples[place]], grammar, seed, lexicon,
                                      policy, numbers=[place])
    return [o for place in sorted(outcomes) for o in outcomes[place]], readings
