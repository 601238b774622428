"""A queued speaker with the real queue and threads but no synthesizer: each utterance
"plays" for a time set by its length, and every play is logged (whole or cut)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from voice_spades.speech.message import Utterance
from voice_spades.speech.synth import SynthClient
from voice_spades.speech.synth_speaker import SynthSpeaker


class NoSynth(SynthClient):
    """Writes nothing and never starts a worker process."""

    def start(self) -> None:
        pass

    def synth(self, text: str, path: Path, rate: int, voice: str | None, pitch: int) -> None:
        pass

    def voices(self) -> list[tuple[str, str]]:
        return []

    def close(self) -> None:
        pass


class TimedSpeaker(SynthSpeaker):
    """Plays each utterance for ``seconds_per_word`` a word (at most ``longest`` seconds);
    ``plays`` logs what was played (``(utterance, whole)``) and ``playing`` is the
    utterance playing now."""

    def __init__(self, seconds_per_word: float = 0.02, longest: float = 1.0) -> None:
        self.seconds_per_word = seconds_per_word
        self.longest = longest
        self.plays: list[tuple[Utterance, bool]] = []
        self.playing: Utterance | None = None
        self.started = threading.Condition()
        super().__init__(synth=NoSynth())

    def _deliver(self, u: Utterance, wav: Path, cancel: threading.Event) -> bool:
        with self.started:
            self.playing = u
            self.started.notify_all()
        whole = not cancel.wait(min(self.longest, self.seconds_per_word * len(u.text.split())))
        with self.started:
            self.playing = None
            self.plays.append((u, whole))
        return whole

    def wait_playing(self, u: Utterance, timeout: float = 10.0) -> None:
        """Block until ``u`` (this very utterance) is playing."""
        deadline = time.monotonic() + timeout
        with self.started:
            while self.playing is not u:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{u.text!r} was never played")
                self.started.wait(left)

    def wait_for_text(self, text: str, timeout: float = 10.0) -> Utterance:
        """Block until an utterance saying ``text`` is playing; return it."""
        deadline = time.monotonic() + timeout
        with self.started:
            while self.playing is None or self.playing.text != text:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{text!r} was never played")
                self.started.wait(left)
            return self.playing

    def whole(self) -> list[str]:
        """The texts played to the end, in order."""
        with self.started:
            return [u.text for u, whole in self.plays if whole]
