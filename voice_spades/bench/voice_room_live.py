"""Room-bench scenes in real time, through the virtual sound device (a worker process).

    python -m voice_spades.bench.voice_room_live --fifo PATH [--aec speex|webrtc|none]
        [--seed N] [--during N] [--after N] [--narration-seconds S]

Run by ``voice-spades bench voice --room`` with ``HOME`` pointing at a folder whose
``.asoundrc`` makes ALSA's default device a ``file`` plugin: playback goes nowhere,
capture reads the FIFO ``PATH``. The game's own output
(:class:`~voice_spades.speech.audio_out.AudioOut`) plays the narration on it; its
reference tap feeds both the echo canceller (as in the game) and a
:class:`~voice_spades.voice.testing.room.RoomLoop`, whose output (the narration
through the room, the player's command, the noise) is written into the FIFO as it
is played, in real time. The real :class:`~voice_spades.voice.audio.microphone.Microphone`
records it through PortAudio. Prints one JSON line: the scenes' results.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

PIPE_BYTES = 16384
"""The FIFO's size: half a second of audio."""
LINUX_ONLY = ("the live room bench plays through ALSA's virtual device, which only Linux "
              "has: add --offline")
CUSHION = 0.2
"""Seconds of silence written ahead into the FIFO. The ``file`` device never waits:
read dry, it repeats stale audio, which would shift the echo against the reference;
the microphone paces itself to the wall clock (up to 0.2 s ahead), so this much
kept in the FIFO rides out a feeder held up by a busy machine."""


def asoundrc(fifo: Path) -> str:
    """The ``.asoundrc`` of the virtual device: playback discarded, capture from ``fifo``."""
    return (f'pcm.!default {{ type file slave.pcm "null" file "/dev/null" '
            f'infile "{fifo}" format "raw" }}\n')


class LiveRunner:
    """Plays scenes through the virtual device (see the module doc); the same scenes
    and figures as :class:`~voice_spades.bench.voice_room_run.OfflineRunner`."""

    def __init__(self, recognizer: Any, aec: str | None, seed: int, fifo_fd: int) -> None:
        from voice_spades.speech import audio_out
        from voice_spades.speech.audio_out import AudioOut

        # On a device with no clock AudioOut paces itself; setting its anchor again every
        # few seconds lets it run ~0.6% fast, while the microphone reading the FIFO keeps
        # the wall clock: the echo would drift away from the reference. Real devices keep
        # both clocks (and this constant only matters to unclocked ones).
        audio_out.REANCHOR = 1e9
        self.recognizer = recognizer
        self.aec = aec
        self.seed = seed
        self.fd = fifo_fd
        self.audio = AudioOut()
        self.delays: list[float] = []
        self._lock = threading.Lock()
        self._loop: Any = None
        self._canceller: Any = None
        self._microphone: Any = None
        self._early: Any = None
        self._book: Any = None
        self._chatter: Any = None
        self._begin = 0.0
        self._heard = 0
        self._playback: Any = None
        self._place = ("", "")
        self.before_speech: Callable[[str, str, str | None], None] = lambda *_: None
        """As :attr:`OfflineRunner.before_speech
        <voice_spades.bench.voice_room_run.OfflineRunner.before_speech>`."""
        self._written = 0
        """Samples written into the FIFO since this room began (its cushion first)."""
        self._read = 0
        self._position = 0.0
        """Where the microphone is in that stream, in seconds: the room bench's clock
        (the FIFO and the device's buffers are lossless, so a sample written n-th is
        recorded n-th, whatever they hold meanwhile)."""
        self._utterances: queue.Queue[tuple[bytes, float, bool] | None] = queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self._stop = threading.Event()
        self.audio.add_reference_listener(self._reference)
        self._threads = [threading.Thread(target=self._feed, daemon=True, name="room"),
                         threading.Thread(target=self._decode, daemon=True, name="decode")]
        for thread in self._threads:
            thread.start()

    # ----- threads ------------------------------------------------------------------
    def _reference(self, block: Any, samplerate: int, dac_time: float) -> None:
        loop, canceller = self._loop, self._canceller
        if loop is not None:
            loop.add_reference(block, samplerate, dac_time)
        if canceller is not None:
            canceller.add_reference(block, samplerate, dac_time)

    def _feed(self) -> None:
        while not self._stop.is_set():
            loop = self._loop
            pcm = None
            if loop is not None and loop.wait(0.2):
                pcm = loop.next_block(timeout=0.0, now=self._written / 16000)
            if pcm is None:
                time.sleep(0.005)
                continue
            with contextlib.suppress(OSError):
                os.write(self.fd, pcm)
                self._written += len(pcm) // 2

    def _decode(self) -> None:
        from voice_spades.bench.voice_room_run import chatter_answer

        while True:
            item = self._utterances.get()
            if item is None:
                return
            pcm, delivered, over_game = item
            book, chatter = self._book, self._chatter
            if book is not None:
                book.utterance(pcm, delivered, lambda: self._position, over_game)
            elif chatter is not None:
                answer = chatter_answer(self.recognizer, pcm, self._heard, self.seed)
                chatter.answers.append((delivered - self._begin, answer))
            self._heard += 1
            if self._utterances.empty():
                self._idle.set()

    def _utterance(self, pcm: bytes) -> None:
        self._idle.clear()
        self._utterances.put((pcm, self._position, self._microphone.heard_over_game))

    def _barge(self) -> None:
        now = self._position
        playback = self._playback
        if playback is not None and not playback.done:
            self.audio.stop(playback)
        silence = now + self.audio.latency + self.audio.blocksize / self.audio.samplerate
        if self._book is not None:
            self._book.barge_in(now, silence)
        if self._chatter is not None:
            self._chatter.barge_ins += 1

    def _counted(self, process: Any) -> Any:
        """The microphone's ``process``, keeping count of where it is in the stream."""
        def counting(pcm: bytes, recorded: float | None = None) -> None:
            self._position = self._read / 16000
            process(pcm, recorded)
            self._read += len(pcm) // 2

        return counting

    # ----- scenes -------------------------------------------------------------------
    def _enter(self, room: str, noise: str, narration: tuple[Any, int], seed: int) -> Any:
        from voice_spades.bench.voice_room_run import SETTLE, WARM_UP, echo_gain, to_16k
        from voice_spades.voice.audio.echo import EchoCanceller
        from voice_spades.voice.audio.microphone import Microphone
        from voice_spades.voice.testing.room import RoomLoop

        if (room, noise) == self._place:
            return self._loop
        self._loop = None
        if self._early is not None:
            self._early.close()
        if self._microphone is not None:
            self._microphone.stop()
            if self._canceller is not None:
                self.delays.append(self._canceller.delay)
        self._place = (room, noise)
        self._canceller = None
        loop = RoomLoop(room, echo_gain(to_16k(*narration)), noise, seed)
        time.sleep(0.3)  # the feeder is idle
        _drain(self.fd)
        cushion = loop.noise.block(round(CUSHION * 16000))
        os.write(self.fd, np.round(cushion * 32767).astype("<i2").tobytes())
        self._written, self._read = len(cushion), 0
        self._loop = loop
        self._canceller = EchoCanceller(self.aec) if self.aec else None
        self._microphone = Microphone(None, self._utterance, barge_in=True,
                                      on_barge_in=self._barge, canceller=self._canceller)
        from voice_spades.voice.early_end import EarlyEnd

        self._early = EarlyEnd(self.recognizer, self._microphone, self._phrases,
                               meanings=self._meanings)
        self._microphone.process = self._counted(self._microphone.process)
        self._microphone.start()
        time.sleep(SETTLE)
        for _ in range(WARM_UP):
            self._speak(narration).wait(30.0)
            time.sleep(0.25)
        time.sleep(0.25)
        return self._loop

    def _phrases(self) -> tuple[str, ...]:
        """The phrases loaded for the scene in progress (none: pauses go undecoded)."""
        book = self._book
        return tuple(book.table.phrases) if book is not None else ()

    def _meanings(self) -> Mapping[str, object]:
        """What the phrases of the scene in progress mean."""
        book = self._book
        return book.table.meanings if book is not None else {}

    def _speak(self, narration: tuple[Any, int]) -> Any:
        microphone = self._microphone
        playback = self._playback = self.audio.play(narration[0], narration[1])
        microphone.set_muted(True)

        def unmute() -> None:
            playback.wait(60.0)
            microphone.set_muted(False)

        threading.Thread(target=unmute, daemon=True).start()
        return playback

    def run_scene(self, scene: Any, narration: tuple[Any, int]) -> Any:
        """Play one scene; what became of its command."""
        from voice_spades.bench.voice_room_run import WAIT_AFTER, Book, echo_gain, to_16k

        self.before_speech(scene.room, scene.noise, scene.clip.params.voice)
        loop = self._enter(scene.room, scene.noise, narration, self.seed + scene.number)
        loop.echo_gain = echo_gain(to_16k(*narration))
        book = Book(scene, self.recognizer, self.seed)
        self.recognizer.set_phrases(book.table.phrases)
        time.sleep(0.5)
        self._book = book
        playback = self._speak(narration)
        while playback.start_time is None and not playback.done:
            time.sleep(0.002)
        start = playback.start_time or self.audio.time_base()
        at = start + scene.offset + (0.0 if scene.kind == "during" else playback.duration)
        clip = book.clip = loop.say(book.command, at)
        limit = time.monotonic() + 30.0
        while not book.decided and time.monotonic() < limit:
            if clip.written_end is not None and self._position > clip.written_end + WAIT_AFTER:
                break
            time.sleep(0.02)
        playback.wait(30.0)
        time.sleep(0.3)
        self._idle.wait(10.0)
        self._book = None
        return book.result

    def run_narration(self, clips: list[tuple[Any, int]], seconds: float) -> Any:
        """Narration alone for ``seconds`` (as :meth:`OfflineRunner.run_narration`)."""
        from voice_spades.bench.voice_room_run import (
            NARRATION_PLACES,
            NarrationResult,
            narration_gain,
            to_16k,
        )

        result = NarrationResult()
        self._begin = begin = time.monotonic()
        number = 0
        while time.monotonic() - begin < seconds:
            room, noise = NARRATION_PLACES[min(2, int(3 * (time.monotonic() - begin) / seconds))]
            self._chatter = None
            self.before_speech(room, noise, None)
            clip = clips[number % len(clips)]
            self._enter(room, noise, clip, self.seed + number).echo_gain = \
                narration_gain(to_16k(*clip), number)
            self._chatter = result
            self._speak(clips[number % len(clips)]).wait(30.0)
            time.sleep(0.25)
            number += 1
        self._idle.wait(10.0)
        self._chatter = None
        result.seconds = time.monotonic() - begin
        return result

    def close(self) -> None:
        """Stop the microphone, the threads and the output."""
        if self._early is not None:
            self._early.close()
        if self._microphone is not None:
            self._microphone.stop()
            if self._canceller is not None:
                self.delays.append(self._canceller.delay)
        self._stop.set()
        self._utterances.put(None)
        self.audio.close()


def _drain(fd: int) -> None:
    """Empty the FIFO (what an earlier room left in it)."""
    if sys.platform == "win32":
        raise OSError(LINUX_ONLY)
    os.set_blocking(fd, False)
    try:
        while True:
            os.read(fd, PIPE_BYTES)
    except BlockingIOError:
        pass
    finally:
        os.set_blocking(fd, True)


def open_fifo(path: Path) -> int:
    """Make the FIFO the virtual device records from, and hold it open (read and write:
    opening does not wait for the reader, and the reader never sees its end)."""
    if sys.platform == "win32":
        raise OSError(LINUX_ONLY)
    if not path.exists():
        os.mkfifo(path)
    fd = os.open(path, os.O_RDWR)
    if sys.platform == "linux":
        import fcntl

        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    return fd


def main(argv: list[str] | None = None) -> int:
    """The worker: run one configuration's scenes, print their results as JSON."""
    parser = argparse.ArgumentParser(prog="python -m voice_spades.bench.voice_room_live")
    parser.add_argument("--fifo", type=Path, required=True)
    parser.add_argument("--aec", default="speex")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--during", type=int, default=12)
    parser.add_argument("--after", type=int, default=6)
    parser.add_argument("--narration-seconds", type=float, default=45.0)
    parser.add_argument("--rooms", default="small,medium,large")
    parser.add_argument("--ratios", default="-6,0,6")
    parser.add_argument("--noises", default="quiet,fan,rumble")
    parser.add_argument("--enroll", action="store_true",
                        help="train on each speaker in each room first (as --offline --enroll)")
    args = parser.parse_args(argv)
    fd = open_fifo(args.fifo)  # before PortAudio looks at the capture device
    from voice_spades.bench.voice_room_run import clip_count
    from voice_spades.bench.voice_room_scenes import (
        narration_clips,
        parse_scene_options,
        plan_scenes,
    )
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    scenes = plan_scenes(args.seed, args.during, args.after,
                         *parse_scene_options(args.rooms, args.ratios, args.noises))
    clips = narration_clips(args.seed, clip_count(len(scenes), args.narration_seconds))
    recognizer: Any = PocketSphinxRecognizer()
    trainings = None
    if args.enroll:
        from voice_spades.bench.voice_room_run import NARRATION_PLACES
        from voice_spades.bench.voice_room_training import RoomTrainings
        from voice_spades.voice.testing.manifest import DEFAULT_VOICES

        recognizer = trainings = RoomTrainings(DEFAULT_VOICES, args.seed)
        trainings.prepare([(s.room, s.noise, s.clip.params.voice) for s in scenes]
                          + [(room, noise, None) for room, noise in NARRATION_PLACES])
    runner = LiveRunner(recognizer, None if args.aec == "none" else args.aec, args.seed, fd)
    if trainings is not None:
        runner.before_speech = trainings.use
    try:
        results = [runner.run_scene(scene, clips[scene.narration]) for scene in scenes]
        narration = runner.run_narration(clips, args.narration_seconds) \
            if args.narration_seconds > 0 else None
    finally:
        runner.close()
    print(json.dumps({"aec": args.aec, "scenes": [asdict(r) for r in results],
                      "narration": asdict(narration) if narration else None,
                      "delays": [round(d, 4) for d in runner.delays],
                      "output_latency": runner.audio.latency,
                      "paced": bool(runner.audio.paced),
                      "readings": [asdict(r) for r in trainings.readings] if trainings else []}))
    sys.stdout.flush()
    os._exit(0)  # PortAudio threads of a virtual device may linger


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
