"""The parent side of the synthesizer worker (see :mod:`voice_spades.speech.synth_worker`).

pyttsx3 runs in a child process so that a hung ``runAndWait`` (a known upstream
problem) costs a restart, not the game: every request has a timeout, after which
the worker is killed, started again, and the request tried once more.

Speech is in the game's language: with no voice chosen, the espeak-ng voice of that
language (:data:`LANGUAGE_VOICES`), and the text goes through the language's
respellings (:mod:`~voice_spades.speech.pronounce`) on its way to the synthesizer.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from voice_spades.errors import SetupError
from voice_spades.narration.catalog import active_language
from voice_spades.speech.pronounce import respell

_log = logging.getLogger(__name__)

WORKER_SCRIPT = Path(__file__).with_name("synth_worker.py")
STARTUP_TIMEOUT = 15.0
"""Seconds for the worker to import pyttsx3 and start espeak-ng (a cold disk is slow)."""

_MESSAGES = {
    "no-pyttsx3": "speech.no_pyttsx3",
    "no-engine": "speech.no_engine",
    "dead": "speech.synth_dead",
}
"""Catalog ids of the :class:`SetupError` s, by the worker's kind of failure."""


_NEW_PROCESS_GROUP: int = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) \
    if sys.platform == "win32" else 0

LANGUAGE_VOICES = {"it": "it", "fr": "fr"}
"""The espeak-ng voice (the last part of its id: ``roa/it``) for each language; English
keeps the synthesizer's default voice."""


class SynthesisError(RuntimeError):
    """The worker could not speak one utterance (it is still usable)."""


def _interpreter_flags() -> list[str]:
    # The worker runs under the same isolation as this interpreter (as multiprocessing does).
    flags = sys.flags
    return [opt for opt, on in (("-S", flags.no_site), ("-I", flags.isolated),
                                ("-E", flags.ignore_environment)) if on]


class _Worker:
    """One running worker process and the thread that reads its replies."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, *_interpreter_flags(), str(WORKER_SCRIPT)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, encoding="utf-8", bufsize=1,
            # Ctrl+C in the terminal is the game's, not the worker's (POSIX and Windows)
            start_new_session=True, creationflags=_NEW_PROCESS_GROUP)
        self.replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True,
                         name="synth-reader").start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            try:
                self.replies.put(json.loads(line))
            except ValueError:
                _log.debug("synth worker wrote a stray line: %r", line)
        self.replies.put(None)

    def reply(self, timeout: float) -> dict[str, Any] | None:
        """The next reply; None if the worker died or took longer than ``timeout``."""
        try:
            return self.replies.get(timeout=timeout)
        except queue.Empty:
            return None

    def send(self, request: dict[str, Any]) -> bool:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class SynthClient:
    """Synthesizes utterances to WAV files in a worker process, started lazily.

    ``language`` is the language spoken (None: the game's, as it is when each
    utterance is synthesized). Thread-safe: one request at a time.
    """

    def __init__(self, language: str | None = None) -> None:
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        self._closed = False
        self._language = language
        self._language_voices: dict[str, str | None] = {}

    @property
    def language(self) -> str:
        """The language spoken ("en", "it", "fr")."""
        return self._language or active_language()

    def language_voice(self, language: str) -> str | None:
        """The id of the installed voice for ``language`` (None: the default voice, for
        English or when the language has no voice here)."""
        if language not in self._language_voices:
            wanted = LANGUAGE_VOICES.get(language)
            found = None
            if wanted is not None:
                try:
                    voices = self.voices()
                except SynthesisError:
                    voices = []
                found = next((ident for ident, _ in voices
                              if ident.rsplit("/", 1)[-1].lower() == wanted), None)
                if found is None:
                    _log.info("no %s voice installed: speaking with the default voice",
                              language)
            self._language_voices[language] = found
        return self._language_voices[language]

    def start(self) -> None:
        """Start the worker now; raise :class:`SetupError` if pyttsx3 or espeak-ng fail."""
        with self._lock:
            self._ensure_worker()

    def _ensure_worker(self) -> _Worker:
        if self._closed:
            raise SetupError(_MESSAGES["dead"])
        if self._worker is not None and self._worker.proc.poll() is None:
            return self._worker
        if self._worker is not None:
            self._worker.kill()
            self._worker = None
        try:
            worker = _Worker()
        except OSError as error:
            raise SetupError(_MESSAGES["dead"]) from error
        hello = worker.reply(STARTUP_TIMEOUT)
        if hello is None or not hello.get("ok"):
            worker.kill()
            kind = "dead" if hello is None else str(hello.get("kind"))
            _log.info("speech synthesizer failed to start: %s", hello)
            raise SetupError(_MESSAGES.get(kind, _MESSAGES["dead"]))
        self._worker = worker
        return worker

    def _request(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        with self._lock:
            for attempt in (1, 2):
                worker = self._ensure_worker()
                reply = worker.reply(timeout) if worker.send(request) else None
                if reply is not None:
                    return reply
                _log.info("speech synthesizer hung or died (attempt %d); restarting", attempt)
                worker.kill()
                self._worker = None
            raise SetupError(_MESSAGES["dead"])

    def synth(self, text: str, path: Path, rate: int, voice: str | None, pitch: int) -> None:
        """Write ``text`` spoken to the WAV file ``path`` (22,050 Hz mono 16-bit with espeak-ng),
        in ``voice``, else the language's voice, respelled for the language.

        Raises :class:`SetupError` if the worker cannot be kept alive and
        :class:`SynthesisError` if only this utterance failed.
        """
        language = self.language
        if voice is None:
            voice = self.language_voice(language)
        text = respell(text, language)
        request = {"op": "synth", "text": text, "path": str(path), "rate": rate,
                   "voice": voice, "pitch": pitch}
        reply = self._request(request, timeout=5.0 + len(text) / 100)
        if not reply.get("ok"):
            raise SynthesisError(str(reply.get("error")))

    def voices(self) -> list[tuple[str, str]]:
        """The installed voices as ``(id, name)`` pairs."""
        reply = self._request({"op": "voices"}, timeout=10.0)
        if not reply.get("ok"):
            raise SynthesisError(str(reply.get("error")))
        return [(str(v[0]), str(v[1])) for v in reply["voices"]]

    def close(self) -> None:
        """Stop the worker; later requests raise :class:`SetupError`.

        Does not wait for a request in progress: killing the worker ends it.
        """
        self._closed = True
        worker, self._worker = self._worker, None
        if worker is None:
            return
        if worker.proc.stdin is not None:
            try:
                worker.proc.stdin.close()
                worker.proc.wait(timeout=1.0)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        worker.kill()
