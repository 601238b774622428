"""A speaker that records each utterance as a WAV file (for tests and for recordings)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from voice_spades.speech.message import Utterance
from voice_spades.speech.queue_policy import DEFAULT_QUEUE_SIZE
from voice_spades.speech.synth_speaker import SynthSpeaker

_NUMBERED = re.compile(r"\A(\d+)-")


def _slug(text: str, words: int = 6) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.lower())[:words]) or "speech"


class WavSpeaker(SynthSpeaker):
    """Writes each utterance to ``folder/NNNN-first-words.wav`` with pyttsx3.

    Numbers go on from the highest already in the folder. It follows the
    :class:`~voice_spades.speech.base.Speaker` rules: a file is kept only for an
    utterance that was not stopped or cancelled before it was written.
    """

    def __init__(self, folder: Path | str, rate: int | None = None, voice: str | None = None,
                 *, queue_size: int = DEFAULT_QUEUE_SIZE) -> None:
        self._folder = Path(folder)
        self._folder.mkdir(parents=True, exist_ok=True)
        numbers = [int(m.group(1)) for p in self._folder.glob("*.wav")
                   if (m := _NUMBERED.match(p.name))]
        self._next = max(numbers, default=0) + 1
        self._written: list[Path] = []
        self._written_lock = threading.Lock()
        super().__init__(rate, voice, queue_size=queue_size)

    @property
    def folder(self) -> Path:
        """Where the files go."""
        return self._folder

    def files(self) -> list[Path]:
        """The files written so far, oldest first."""
        with self._written_lock:
            return list(self._written)

    def _wav_path(self, number: int, u: Utterance) -> Path:
        path = self._folder / f"{self._next:04d}-{_slug(u.text)}.wav"
        self._next += 1
        return path

    def _deliver(self, u: Utterance, wav: Path, cancel: threading.Event) -> bool:
        if cancel.is_set():
            wav.unlink(missing_ok=True)
            return False
        with self._written_lock:
            self._written.append(wav)
        return True
