"""``voice-spades bench voice --learn``: each speaker of the manifest plays their clips in
turn with untrained voice, which learns their voice from the commands carried out, as
in a game (:mod:`voice_spades.voice.learning`): an action acted on unasked teaches it,
whether heard right or not (the game cannot tell); an action asked about teaches it
when heard right (the player answers yes), never when wrong (they answer no).

The manifest must name each clip's speaker (its third column); the prompts' states
are those of the plain run (the same seed and clip numbers), so the figures compare
one to one with it and with ``--enroll``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from voice_spades.bench.voice import Outcome, Sample, load_pcm, run
from voice_spades.bench.voice_enrolled import places_by_speaker
from voice_spades.voice.learning import IF_CONFIRMED, LEARN_AT, NOW, PlayLearning
from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.understanding.confirmation import ConfirmationPolicy


@dataclass(frozen=True)
class Speaker:
    """How one speaker's game went."""

    speaker: str
    clips: int
    learnt_after: tuple[int, ...]
    """The clips (counted from 1) after which the voice was learnt."""
    commands_after: int
    """Commands said after the voice was first learnt."""
    right_after: int
    """Of those, understood."""


def taught(outcome: Outcome) -> str | None:
    """The phrase ``outcome``'s clip teaches the game, as the game would learn it (None:
    nothing)."""
    details = outcome.details or {}
    phrase = details.get("phrase")
    teaches = details.get("teaches")
    if not isinstance(phrase, str):
        return None
    if teaches == NOW or (teaches == IF_CONFIRMED and outcome.correct):
        return phrase
    return None


def learnt_run(samples: Sequence[Sample], grammar: str, seed: int, lexicon: Lexicon,
               policy: ConfirmationPolicy, at: Sequence[int] | None = None,
               ) -> tuple[list[Outcome], list[Speaker]]:
    """The outcomes of every sample (in manifest order), each speaker's clips decoded in
    turn while the voice is learnt from them (after ``at`` commands, by default the
    game's :data:`~voice_spades.voice.learning.LEARN_AT`); and how each went."""
    places = places_by_speaker(samples)
    outcomes: dict[int, list[Outcome]] = {}
    speakers: list[Speaker] = []
    with tempfile.TemporaryDirectory(prefix="voice-spades-learn-") as folder:
        for number, (speaker, chosen) in enumerate(sorted(places.items())):
            recognizer = PocketSphinxRecognizer(lexicon=lexicon)
            learnt_after: list[int] = []
            learning = PlayLearning(recognizer, Path(folder) / f"{number}.means",
                                    at=LEARN_AT if at is None else at, background=False)
            commands_after = right_after = 0
            for count, place in enumerate(chosen, start=1):
                found = run(recognizer, [samples[place]], grammar, seed, lexicon, policy,
                            numbers=[place])
                outcomes[place] = found
                if learnt_after:
                    commands = [o for o in found if o.kind != "chatter"]
                    commands_after += len(commands)
                    right_after += sum(o.correct for o in commands)
                for outcome in found:
                    phrase = taught(outcome)
                    if phrase is not None:
                        before = learning.heard_count
                        learning.heard(phrase, load_pcm(samples[place].wav))
                        if learning.heard_count != before and learning.heard_count in learning.at:
                            learnt_after.append(count)
            recognizer.close()
            speakers.append(Speaker(speaker, len(chosen), tuple(learnt_after),
                                    commands_after, right_after))
    return [o for place in sorted(outcomes) for o in outcomes[place]], speakers
