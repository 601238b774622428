"""Voice training, as a conversation: the game says a phrase, the player says it back,
and from what was heard the model is moved towards their voice and saved
(:mod:`voice_spades.voice.adaptation`). The game's voice and the microphone are
given as functions, so any output and any capture will do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from voice_spades.messages import Message
from voice_spades.voice.adaptation.enrollment import Enrollment
from voice_spades.voice.adaptation.trained_means import save_trained_means

TRIES = 3
"""Times a phrase is asked for before it is skipped."""
MIN_HEARD = 8
"""Fewer phrases heard than this are too little to learn a voice from: nothing is saved."""
LISTEN_SECONDS = 8.0
"""How long the player has to begin a phrase."""


@dataclass(frozen=True)
class TrainingResult:
    """How a training went: phrases heard of those asked, and where it was saved
    (None: too few were heard, nothing saved)."""

    heard: int
    asked: int
    saved: Path | None


def train(enrollment: Enrollment, phrases: Sequence[str], save_to: Path,
          say: Callable[[Message], None], listen: Callable[[float], bytes | None],
          stopped: Callable[[], bool] = lambda: False) -> TrainingResult:
    """Ask for each of ``phrases`` in turn (``say`` speaks and returns once it has been
    said; ``listen`` returns the next utterance, or None when none began in time), and
    save the model's means trained on the voice to ``save_to`` when enough was heard.
    ``stopped`` ends the training early; what was heard until then is kept."""
    say(Message("voice.training.intro", count=len(phrases)))
    asked = 0
    for phrase in phrases:
        if stopped():
            break
        asked += 1
        for attempt in range(TRIES):
            say(Message("voice.training.say" if attempt == 0 else "voice.training.again",
                        phrase=phrase))
            audio = listen(LISTEN_SECONDS)
            if stopped():
                break
            if audio is not None and enrollment.hear(phrase, audio):
                break
        else:
            say(Message("voice.training.skipped"))
    if enrollment.heard < MIN_HEARD:
        say(Message("voice.training.too_few", heard=enrollment.heard, needed=MIN_HEARD))
        return TrainingResult(enrollment.heard, asked, None)
    say(Message("voice.training.learning"))  # the passes take seconds: not in silence
    save_trained_means(save_to, enrollment.trained_means())
    say(Message("voice.training.done", heard=enrollment.heard, asked=asked))
    return TrainingResult(enrollment.heard, asked, save_to)
