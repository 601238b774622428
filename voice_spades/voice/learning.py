"""Learning the player's voice as they play, for a player who never ran the voice training.

The commands the game carried out are the player's words, as far as it can tell: an
action acted on without a question or asked about and confirmed with a yes, a query
answered, an answer to a question (:func:`teaches`). Each is
aligned to its phrase as the training's readings are
(:class:`~voice_spades.voice.adaptation.enrollment.Enrollment`), and after each count
of :data:`LEARN_AT` the model's means are moved towards the voice and used at once:
the same as ``voice-spades train-voice``, from the game's own commands. The last is
saved as the player's voice training (the earlier ones are kept beside it only while
the game lasts, so a short game leaves no training learnt from a few commands).
Training later replaces it, and ``train-voice --forget`` forgets it.

The work runs on a thread of its own, so the game never waits for it (aligning a
command takes 0.2-0.3 s, moving the means 10-18 s of a 2-core machine).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from voice_spades.commands import Act, AnyIntent, Ask, Cancel, Confirm, PlayCurrent, Propose
from voice_spades.voice.adaptation.trained_means import save_trained_means
from voice_spades.voice.understanding.grammar import PhraseTable

if TYPE_CHECKING:
    from voice_spades.voice.adaptation.enrollment import Enrollment
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

_log = logging.getLogger(__name__)

LEARN_AT: tuple[int, ...] = (8, 16, 24)
"""After how many commands carried out the voice is learnt (from all heard so far; the
last is saved). Measured on set 600 (``bench voice --learn --seed 1``, each voice's 74-76
commands in turn, half of them actions), commands understood and right plays asked
about: untrained 93.17%, 10.82%; learnt at 24 only 95.00%, 10.97%; at 12 and 24
96.50%, 8.26%; at 8 and 24 96.67%, 7.35%; at 8, 16 and 24 96.50%, 6.17%; trained on the
training's script first 98.00%, 2.41%; never a wrong action unasked. (Actions only were
taught then; with the answers to questions and the queries taught too, measured later on
a second machine, where actions only gave 96.50% and 6.58% on set 600: 97.67%, 4.86%;
held out, sets 604 and 606 97.50% -> 97.83% and 96.50% -> 96.50%, asked 5.76% ->
5.74% and 3.31% -> 2.47%; answers alone gained less: 96.83%, 97.50%, 96.33%. Learning
again at 48 and 96 (three voices saying 200 commands each, actions only taught):
97.17% -> 97.33%, not kept.)"""


NOW = "now"
"""What :func:`teaches` says of an action carried out at once: learnt now."""
IF_CONFIRMED = "if confirmed"
"""What :func:`teaches` says of an action asked about: learnt if the answer is yes."""


def teaches(decided: AnyIntent, table: PhraseTable) -> str | None:
    """Whether the utterance that ``decided`` answered may teach the player's voice:
    :data:`NOW` (carried out as heard: an action the rules allow, acted on unasked, an
    answer to a question, a query), :data:`IF_CONFIRMED` (an action asked about) or
    None (a session command, "say again", a forbidden action). As for an action acted
    on unasked, the game cannot tell a query or an answer heard wrong from one heard
    right; measured, teaching them did more good than harm (see :data:`LEARN_AT`)."""
    if isinstance(decided, Propose):
        return IF_CONFIRMED if isinstance(decided.intent, Act | PlayCurrent) else None
    if isinstance(decided, Act | PlayCurrent) and decided in table.legal:
        return NOW
    if isinstance(decided, Confirm | Cancel | Ask):
        return NOW
    return None


class PlayLearning:
    """Gathers the commands carried out (:meth:`heard`) and, at each count of
    :data:`LEARN_AT`, trains ``recognizer`` on them; at the last it saves the training
    to ``save_to`` and calls ``learnt`` with the count. With ``background`` False the
    work is done in :meth:`heard` itself (a benchmark's way)."""

    def __init__(self, recognizer: PocketSphinxRecognizer, save_to: Path,
                 learnt: Callable[[int], None] = lambda heard: None, *,
                 at: Sequence[int] = LEARN_AT, background: bool = True) -> None:
        self.recognizer = recognizer
        self.save_to = save_to
        self.learnt = learnt
        self.at = tuple(sorted(at))
        self.background = background
        self.heard_count = 0
        """Commands aligned to their phrase so far."""
        self._enrollment: Enrollment | None = None
        self._waiting: deque[tuple[str, bytes]] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self._busy = False
        self._thread: threading.Thread | None = None

    @property
    def done(self) -> bool:
        """True once the last count of :attr:`at` was learnt (nothing more is gathered)."""
        return not self.at or self.heard_count >= self.at[-1]

    def heard(self, phrase: str, pcm: bytes) -> None:
        """A command carried out: ``phrase`` as the grammar spells it, said in ``pcm``
        (16 kHz mono int16)."""
        if self.done or self._closed:
            return
        if not self.background:
            self._learn(phrase, pcm)
            return
        with self._cond:
            self._waiting.append((phrase, pcm))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="voice-learning",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def close(self) -> None:
        """Stop learning: what is half done is dropped, and so is a count learnt before
        the last (the saved training is the last count's only)."""
        with self._cond:
            self._closed = True
            self._waiting.clear()
            self._cond.notify_all()
            busy = self._busy
        if not busy:
            self.partial.unlink(missing_ok=True)

    def join(self, timeout: float | None = None) -> None:
        """Wait until what was heard so far is learnt (tests, benchmarks)."""
        with self._cond:
            self._cond.wait_for(lambda: not self._waiting and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or bool(self._waiting))
                if self._closed:
                    return
                phrase, pcm = self._waiting.popleft()
                self._busy = True
            try:
                self._learn(phrase, pcm)
            except Exception:  # learning is a bonus: a failure must not end voice
                _log.exception("learning the voice failed")
                self.close()
            finally:
                with self._cond:
                    self._busy = False
                    closed = self._closed
                    self._cond.notify_all()
                if closed:
                    self.partial.unlink(missing_ok=True)

    def _learn(self, phrase: str, pcm: bytes) -> None:
        if self._enrollment is None:
            from voice_spades.voice.adaptation.enrollment import Enrollment

            self._enrollment = Enrollment(self.recognizer)
        if self.done or not self._enrollment.hear(phrase, pcm):
            return
        self.heard_count = self._enrollment.heard
        if self.heard_count not in self.at:
            return
        path = self.save_to if self.done else self.partial
        save_trained_means(path, self._enrollment.trained_means())
        self.recognizer.use_training(path)
        if self.done:
            self.partial.unlink(missing_ok=True)
            self.learnt(self.heard_count)

    @property
    def partial(self) -> Path:
        """Where a count before the last is kept while the game lasts."""
        return self.save_to.with_name(self.save_to.name + ".partial")
