"""The synthesizer worker: a child process that turns text into WAV files with pyttsx3.

Run as a script (``python synth_worker.py``) by :mod:`voice_spades.speech.synth`;
it imports nothing from voice_spades so it starts fast and alone. It reads one JSON
request per line on stdin and writes one JSON reply per line on stdout:

* first, unasked: ``{"ok": true}`` or ``{"ok": false, "kind": ..., "error": ...}``
  (``kind`` is ``"no-pyttsx3"`` or ``"no-engine"``);
* ``{"op": "synth", "text", "path", "rate", "voice", "pitch"}`` writes ``path``;
* ``{"op": "voices"}`` answers ``{"ok": true, "voices": [[id, name], ...]}``.

It exits when stdin closes. pyttsx3's espeak driver prints to stdout, so the
protocol uses a duplicate of the original stdout and fd 1 is sent to /dev/null.

pyttsx3 2.99's espeak driver runs espeak-ng asynchronously (its synthesis, rate
and pitch changes all go through espeak-ng's command queue and thread), and has
races that lose audio or settings: ``runAndWait`` can return before that thread
is done (always possible on the first call, whose queued ``endLoop`` runs before
synthesis starts); its ``stop()``, which ``endLoop`` calls, cancels whatever is
still queued (a rate change, or the sentence) when espeak-ng is busy, and can
leave a ``_stopping`` flag set that cancels the *next* sentence. So the worker
waits for espeak-ng to be idle before a request and again after setting rate and
pitch, clears that flag, waits for pyttsx3's ``finished-utterance``
notification and a complete WAV file, and tries a failed request once more.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
import wave
from typing import Any, TextIO


def _protocol_stream() -> TextIO:
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    return out


def _reply(out: TextIO, **fields: Any) -> None:
    out.write(json.dumps(fields) + "\n")
    out.flush()


class _Synth:
    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self._default_voice: str | None = engine.getProperty("voice")
        self._voice: str | None = self._default_voice
        self._has_pitch = True
        self._finished = threading.Event()
        self._completed = False
        engine.connect("finished-utterance", self._on_finished)

    def synth(self, text: str, path: str, rate: int, voice: str | None, pitch: int) -> None:
        if not text.strip():
            raise ValueError("nothing to say")
        try:
            self._synth_once(text, path, rate, voice, pitch)
        except RuntimeError:
            self._synth_once(text, path, rate, voice, pitch)

    def _synth_once(self, text: str, path: str, rate: int, voice: str | None,
                    pitch: int) -> None:
        _wait_until_idle()
        wanted = voice or self._default_voice
        if wanted != self._voice:
            self._engine.setProperty("voice", wanted)
            self._voice = wanted
        self._engine.setProperty("rate", rate)
        if self._has_pitch:
            try:
                self._engine.setProperty("pitch", pitch)
            except KeyError:  # drivers other than espeak have no pitch
                self._has_pitch = False
        # espeak-ng applies rate and pitch on its own thread; a cancel before then drops them.
        _wait_until_idle()
        driver: Any = getattr(getattr(self._engine, "proxy", None), "_driver", None)
        if getattr(driver, "_stopping", False):
            driver._stopping = False  # stale: see the module docstring
        self._finished.clear()
        self._completed = False
        self._engine.save_to_file(text, path)
        self._engine.runAndWait()
        if not self._finished.wait(5.0 + len(text) / 100):
            raise RuntimeError("the synthesizer did not finish")
        if not self._completed:
            raise RuntimeError("the synthesizer was cancelled")
        _wait_for_wav(path)

    def _on_finished(self, completed: bool = True, **_: Any) -> None:
        # The driver's own stop() may report a second, "cancelled" end after the real one.
        self._completed = self._completed or completed
        self._finished.set()

    def warm_up(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            self.synth("ready", os.path.join(folder, "warm-up.wav"), 200, None, 50)

    def voices(self) -> list[list[str]]:
        return [[str(v.id), str(v.name)] for v in self._engine.getProperty("voices")]


def _wait_until_idle(timeout: float = 2.0) -> None:
    try:
        from pyttsx3.drivers import _espeak
    except (ImportError, OSError):  # not the espeak driver
        return
    deadline = time.monotonic() + timeout
    while _espeak.IsPlaying() and time.monotonic() < deadline:
        time.sleep(0.002)


def _wait_for_wav(path: str, timeout: float = 0.5) -> None:
    """Return once ``path`` is a whole WAV file; RuntimeError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with wave.open(path, "rb") as wav:
                expected = wav.getnframes() * wav.getsampwidth() * wav.getnchannels()
            if expected > 0 and os.path.getsize(path) >= 44 + expected:
                return
        except (OSError, EOFError, wave.Error):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the synthesizer wrote no audio")
        time.sleep(0.005)


def main() -> int:
    """Serve requests until stdin closes."""
    out = _protocol_stream()
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or ".") == here:
        del sys.path[0]  # this package's modules must not shadow what pyttsx3 imports
    try:
        import pyttsx3
    except ImportError as error:
        _reply(out, ok=False, kind="no-pyttsx3", error=str(error))
        return 1
    try:
        synth = _Synth(pyttsx3.init())
        synth.warm_up()
    except Exception as error:  # the driver's failures have no common type
        _reply(out, ok=False, kind="no-engine", error=f"{type(error).__name__}: {error}")
        return 1
    _reply(out, ok=True)
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request["op"] == "voices":
                _reply(out, ok=True, voices=synth.voices())
            else:
                synth.synth(request["text"], request["path"], int(request["rate"]),
                            request.get("voice"), int(request["pitch"]))
                _reply(out, ok=True)
        except Exception as error:
            _reply(out, ok=False, kind="failed", error=f"{type(error).__name__}: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
