"""The session's output over the :class:`Announcer`: every line printed, and spoken when
there is a speaker.

:class:`AnnouncerOutput` implements the session's
:class:`~voice_spades.session.output.Output` protocol from above: the speech layer is an
adapter around the session, which imports nothing from it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

from voice_spades.narration import Line, LineKind, Priority
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.message import Utterance
from voice_spades.speech.record import Said

DEFAULT_RATE = 200
"""Words per minute when no rate is asked for (the speech package's default)."""
RATE_STEP = 25
"""Words per minute added or taken by one faster or slower command."""
MIN_RATE, MAX_RATE = 80, 500


def batch_utterances(lines: Sequence[Line]) -> list[Utterance]:
    """The utterances for one batch of lines.

    A batch of answers only (what a key asked for, an error, a notice) is said at
    once: its first line becomes HIGH, which cuts the sentence playing and replaces
    older answers not yet spoken, and the rest follow it as NORMAL answers. The game
    events still waiting are said after it, in order (see
    :mod:`voice_spades.speech.queue_policy`).

    Any other batch is the game's own flow ("East played the ace of hearts", then
    "Your play: follow hearts"): every line waits its turn behind the events already
    queued, in order, and is never dropped unheard; its lines are events, except the
    prompts, which stay prompts (a newer prompt replaces an older one not yet said).
    """
    if all(line.kind is LineKind.ANSWER for line in lines):
        return [Utterance(line.text, _answer_priority(i, line.priority), line.tag, line.seat,
                          LineKind.ANSWER) for i, line in enumerate(lines)]
    return [Utterance(line.text, Priority.NORMAL, line.tag, line.seat,
                      LineKind.PROMPT if line.kind is LineKind.PROMPT else LineKind.EVENT)
            for line in lines]


def _answer_priority(index: int, priority: Priority) -> Priority:
    if priority is Priority.LOW:
        return priority
    return Priority.HIGH if index == 0 else Priority.NORMAL


class AnnouncerOutput:
    """Implements :class:`~voice_spades.session.output.Output` with an Announcer.
    ``keep_rate`` is told each new speech rate (the game saves it for next time)."""

    def __init__(self, announcer: Announcer, rate: int | None = None,
                 keep_rate: Callable[[int], None] | None = None) -> None:
        self.announcer = announcer
        self.rate = rate or DEFAULT_RATE
        self.keep_rate = keep_rate

    @property
    def speaking(self) -> bool:
        """True while there is a speaker (it may fail and go at any time)."""
        return self.announcer.speaker is not None

    def emit(self, lines: Sequence[Line]) -> None:
        """Print each line and speak the batch (see :func:`batch_utterances`)."""
        for utterance in batch_utterances(lines):
            # Standard output may be closed (a pipe reader left): play goes on.
            with contextlib.suppress(OSError, ValueError):
                self.announcer.say(utterance)

    def interrupt(self) -> None:
        """Cut the sentence being spoken (a key was pressed); game events still waiting
        are said after the key's answer."""
        self.announcer.interrupt()

    def silence(self) -> None:
        """Stop speaking now and drop what is queued: the player's explicit skip (the
        lines stay in :meth:`recent`, marked skipped in :meth:`record`)."""
        self.announcer.silence()

    def cancel(self, tag: str) -> None:
        """Drop queued speech tagged ``tag``."""
        self.announcer.cancel(tag)

    def is_busy(self) -> bool:
        """True while speech is playing or queued."""
        speaker = self.announcer.speaker
        try:
            return speaker is not None and speaker.is_speaking()
        except Exception:  # a broken speaker is not busy; the Announcer reports it
            return False

    def wait_idle(self, timeout: float) -> bool:
        """Wait for speech to finish, at most ``timeout`` seconds."""
        speaker = self.announcer.speaker
        try:
            return speaker is None or speaker.wait_idle(timeout)
        except Exception:
            return True

    def repeat_last(self) -> None:
        """Say the last message again."""
        self.announcer.repeat_last()

    def recent(self, count: int) -> list[str]:
        """The last ``count`` messages printed, oldest first (skipped ones included)."""
        return self.announcer.history(count)

    def record(self, count: int) -> list[Said]:
        """The last ``count`` messages printed, oldest first, each with its kind and what
        became of it in speech (spoken, skipped by the player...)."""
        return self.announcer.record(count)

    def change_rate(self, step: int) -> bool:
        """Speak ``step`` notches faster (slower when negative); False without speech."""
        speaker = self.announcer.speaker
        if speaker is None:
            return False
        self.rate = max(MIN_RATE, min(MAX_RATE, self.rate + step * RATE_STEP))
        speaker.set_rate(self.rate)
        if self.keep_rate is not None:
            self.keep_rate(self.rate)
        return True

    def close(self) -> None:
        """Release the speaker."""
        self.announcer.close()
