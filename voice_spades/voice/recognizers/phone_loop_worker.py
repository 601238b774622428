"""The phone loop in a process of its own, to run beside the grammar search.

The verification of a decode (step 4 of the PocketSphinx recognizer) scores the
clip with a free phone loop, which does not depend on the phrase the grammar
search finds. The PocketSphinx binding holds Python's global lock while it decodes,
so a second thread cannot overlap the two; a second process can, on a second core.
:class:`PhoneLoopWorker` starts that process (a fresh interpreter running this
module, which imports nothing of the caller), sends it a clip with
:meth:`~PhoneLoopWorker.submit`, and :meth:`~PhoneLoopWorker.score` collects the
phone loop's score once the caller's own search is done.

The process decodes exactly as a decoder built in the caller with the same options
would (features started afresh for each clip), so the score is the same. With each
score it reports the CPU time it spent on the clip, so that a benchmark can time
a decode as if the worker had a core of its own. It loads while the caller goes on
(about 0.4 s and 45 MB): the first :meth:`~PhoneLoopWorker.submit` waits for it
if need be. It ends with :meth:`~PhoneLoopWorker.close`, or when the caller's
process ends (its input closes). A fresh interpreter is started whatever the
platform's start method, so the worker never runs the caller's ``__main__``; a
frozen application has no interpreter to start, and gets no worker.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import subprocess
import sys
import threading
import time
from typing import IO, Any

_LENGTH = struct.Struct("<I")
_ANSWER = struct.Struct("<qd")
"""The score of a clip and the CPU seconds spent on it."""


def loop_score(decoder: Any, clip: bytes) -> int:
    """The phone loop's log score of ``clip`` (0 when it finds nothing)."""
    decoder.reinit_feat()  # a decode depends on its own audio only
    decoder.start_utt()
    decoder.process_raw(clip, full_utt=True)
    decoder.end_utt()
    hyp = decoder.hyp()
    return int(decoder.get_logmath().log(hyp.score)) if hyp is not None else 0


def serve(source: IO[bytes], sink: IO[bytes]) -> None:
    """The worker: read the decoder's options (one JSON line), build it, answer
    ``ready``, then score each clip (its length, then its bytes) until an empty one
    or the end of ``source``, answering the score and the CPU seconds it took."""
    import pocketsphinx

    decoder = pocketsphinx.Decoder(**json.loads(source.readline()))
    sink.write(b"ready\n")
    sink.flush()
    while len(head := source.read(_LENGTH.size)) == _LENGTH.size:
        (length,) = _LENGTH.unpack(head)
        if length == 0:
            return
        began = time.thread_time()
        score = loop_score(decoder, source.read(length))
        sink.write(_ANSWER.pack(score, time.thread_time() - began))
        sink.flush()


class PhoneLoopWorker:
    """A phone-loop decoder in a process of its own (see the module doc).

    ``options`` are the ``pocketsphinx.Decoder`` options of the phone loop (its
    ``allphone`` model, ``hmm``, ``samprate``...). One clip at a time: each
    :meth:`submit` is followed by one :meth:`score`. Thread-safe. RuntimeError when
    the process cannot start (at once, or at the first :meth:`submit` when its
    decoder cannot be built) or has ended.
    """

    def __init__(self, options: dict[str, Any]) -> None:
        if getattr(sys, "frozen", False):
            raise RuntimeError("a frozen application cannot start the phone-loop process")
        self._process = subprocess.Popen(
            [sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._process.stdin is not None and self._process.stdout is not None
        self._to, self._from = self._process.stdin, self._process.stdout
        self._lock = threading.Lock()
        self._pending = False
        self._ready = False
        self.last_seconds = 0.0
        """The worker's CPU seconds on the clip scored last."""
        try:
            self._to.write(json.dumps(options).encode() + b"\n")
            self._to.flush()
        except OSError as exc:
            self.close()
            raise RuntimeError("the phone-loop process did not start") from exc

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self._process.poll() is None

    @property
    def pid(self) -> int:
        """The process's id."""
        return self._process.pid

    def wait_ready(self) -> None:
        """Wait until the worker's decoder is built (RuntimeError when it cannot be)."""
        with self._lock:
            self._wait_ready()

    def _wait_ready(self) -> None:
        if self._ready:
            return
        try:
            self._ready = self._from.readline() == b"ready\n"
        except OSError:
            self._ready = False
        if not self._ready:
            raise RuntimeError("the phone-loop process did not start")

    def submit(self, clip: bytes) -> None:
        """Start scoring ``clip`` (16 kHz mono int16 PCM) in the worker."""
        if not clip:
            raise ValueError("an empty clip has no score")
        with self._lock:
            if self._pending:
                raise RuntimeError("the last clip's score was not collected")
            self._wait_ready()
            try:
                self._to.write(_LENGTH.pack(len(clip)) + clip)
                self._to.flush()
            except OSError as exc:
                raise RuntimeError("the phone-loop process ended") from exc
            self._pending = True

    def score(self) -> int:
        """The score of the clip submitted last (waiting for it); RuntimeError when
        the worker is gone. :attr:`last_seconds` is then the worker's CPU time on it."""
        with self._lock:
            if not self._pending:
                raise RuntimeError("no clip was submitted")
            self._pending = False
            answer = self._from.read(_ANSWER.size)
            if len(answer) != _ANSWER.size:
                raise RuntimeError("the phone-loop process ended")
            score, self.last_seconds = _ANSWER.unpack(answer)
        return int(score)

    def close(self) -> None:
        """End the process (again: nothing)."""
        with self._lock:
            if self._from.closed:
                return
            with contextlib.suppress(OSError):
                self._to.write(_LENGTH.pack(0))
                self._to.flush()
            with contextlib.suppress(OSError):
                self._to.close()
            try:
                self._process.wait(timeout=5.0)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=5.0)
            self._from.close()


if __name__ == "__main__":
    # The answers go on a copy of stdout; what the decoder prints goes to stderr.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, answers)
