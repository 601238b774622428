"""Drives the real pyttsx3 speaker through the virtual stereo device and reports what
happened.

Run by test_playback.py with HOME set by :mod:`tests.speech.virtual_device`:

* ``python playback_scenario.py play`` (the default device records to a file): the
  speaker plays on an :class:`AudioOut` that notes every clip it is given, so the test
  can find each utterance in the recording by its frames;
* ``python playback_scenario.py vanish FIFO`` (the default device writes to the named
  pipe FIFO, which this script reads and then closes): the device goes away mid-game.

Prints one JSON object on stdout.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from voice_spades.speech import Announcer, Priority, Utterance, make_speaker
from voice_spades.speech.audio_clip import read_wav
from voice_spades.speech.audio_out import AudioOut, Playback
from voice_spades.speech.synth import SynthClient
from voice_spades.speech.synth_speaker import SynthSpeaker

RATE = 200
OUT_RATE = 48_000
LONG = ("North leads the king of clubs. East follows with the four of clubs. "
        "South plays the ace of clubs and wins the trick. West discards the two of hearts. "
        "Spades are not broken yet, and the score is one hundred and twenty to ninety.")
SHORT = ["Queen of hearts wins the trick.", "North bids four.", "Spades are broken."]


class LoggedAudio(AudioOut):
    """The game's output, noting every clip it is given (the speaker's utterances)."""

    def __init__(self) -> None:
        self.plays: list[Playback] = []
        self.new = threading.Condition()
        super().__init__()

    def play(self, samples: npt.NDArray[Any], samplerate: int, *, pan: float = 0.0,
             gain: float = 1.0, tag: str | None = None) -> Playback:
        handle = super().play(samples, samplerate, pan=pan, gain=gain, tag=tag)
        with self.new:
            self.plays.append(handle)
            self.new.notify_all()
        return handle

    def wait_started(self, count: int, timeout: float = 5.0) -> Playback:
        """The clip number ``count`` (from 1) once its first block has gone out."""
        deadline = time.monotonic() + timeout
        with self.new:
            self.new.wait_for(lambda: len(self.plays) >= count, timeout)
        if len(self.plays) < count:
            raise TimeoutError(f"no clip number {count} after {timeout} s")
        handle = self.plays[count - 1]
        while handle.start_frame is None:
            if time.monotonic() > deadline:
                raise TimeoutError("the clip never started")
            time.sleep(0.001)
        return handle


def synthesized(texts: list[str]) -> dict[str, dict[str, float]]:
    """Each text synthesized whole: its frames at the output's rate and its loudness."""
    client = SynthClient()
    client.start()
    result = {}
    with tempfile.TemporaryDirectory() as folder:
        for i, text in enumerate(texts):
            path = Path(folder) / f"{i}.wav"
            client.synth(text, path, RATE, None, 50)
            samples, rate = read_wav(path)
            result[text] = {"frames": len(samples) * OUT_RATE / rate,
                            "mean_square": float(np.mean(samples.astype(np.float64) ** 2))}
    client.close()
    return result


def span(h: Playback) -> list[int]:
    assert h.start_frame is not None
    return [h.start_frame, h.start_frame + h.frames, int(bool(h.whole))]


def run_play() -> dict[str, Any]:
    report: dict[str, Any] = {"expected": synthesized([LONG, *SHORT, "Your turn."])}
    audio = LoggedAudio()
    speaker = make_speaker(rate=RATE, audio=audio)
    assert isinstance(speaker, SynthSpeaker)
    report["probe"] = [span(h) for h in audio.plays]
    report["block"] = audio.blocksize
    changes: list[bool] = []
    finished: list[tuple[str, bool]] = []
    speaker.on_speaking_changed(changes.append)
    speaker.on_finished(lambda u, whole: finished.append((u.text, whole)))

    # Start latency on an idle speaker (say() to the first block's DAC time).
    latencies = []
    for _ in range(3):
        said = len(audio.plays)
        t0 = audio.time_base()
        speaker.say(Utterance("Your turn."))
        h = audio.wait_started(said + 1)
        assert h.start_time is not None
        latencies.append(h.start_time - t0)
        assert speaker.wait_idle(10)
    report["start_latency_ms"] = [round(s * 1000, 1) for s in latencies]

    # NORMAL utterances back to back, each whole.
    start = len(audio.plays)
    for text in SHORT:
        speaker.say(Utterance(text))
    assert speaker.wait_idle(15)
    report["normal"] = {"texts": SHORT, "spans": [span(h) for h in audio.plays[start:]]}

    # stop() during a long sentence, several times.
    stops = []
    for _ in range(5):
        said = len(audio.plays)
        speaker.say(Utterance(LONG))
        h = audio.wait_started(said + 1)
        time.sleep(0.4)
        at_stop = audio.frames_written
        t0 = time.perf_counter()
        speaker.stop()
        stop_ms = (time.perf_counter() - t0) * 1000
        idle = not speaker.is_speaking()
        time.sleep(0.2)
        stops.append({"stop_ms": round(stop_ms, 2), "at_stop": at_stop, "span": span(h),
                      "idle_after_stop": idle, "clips_after": len(audio.plays) - said - 1})
    report["stops"] = stops
    report["stop_ms_median"] = statistics.median(s["stop_ms"] for s in stops)

    # HIGH cuts the current sentence and drops what was queued.
    finished.clear()
    said = len(audio.plays)
    speaker.say(Utterance(LONG))
    speaker.say(Utterance(SHORT[0]))
    audio.wait_started(said + 1)
    time.sleep(0.5)
    t0 = audio.time_base()
    speaker.say(Utterance("Your turn.", Priority.HIGH))
    urgent = audio.wait_started(said + 2)
    assert urgent.start_time is not None
    report["high_cut_to_start_ms"] = round((urgent.start_time - t0) * 1000, 1)
    assert speaker.wait_idle(10)
    report["high"] = {"spans": [span(h) for h in audio.plays[said:]],
                      "finished": list(finished)}

    # LOW waits while busy, then is spoken whole; and at once when idle.
    finished.clear()
    said = len(audio.plays)
    speaker.say(Utterance(SHORT[1]))
    audio.wait_started(said + 1)
    speaker.say(Utterance("A low message.", Priority.LOW))
    assert speaker.wait_idle(10)
    speaker.say(Utterance("Idle low.", Priority.LOW))
    assert speaker.wait_idle(10)
    report["low"] = {"clips": len(audio.plays) - said, "finished": list(finished)}

    # cancel(tag): queued ones go; the current one is cut if it has the tag.
    finished.clear()
    said = len(audio.plays)
    speaker.say(Utterance(SHORT[1]))
    speaker.say(Utterance("Trick five, West plays.", tag="trick-5"))
    speaker.say(Utterance("Trick five, North plays.", tag="trick-5"))
    speaker.say(Utterance(SHORT[2]))
    speaker.cancel("trick-5")
    assert speaker.wait_idle(10)
    speaker.say(Utterance(LONG, tag="trick-6"))
    audio.wait_started(len(audio.plays) + 1)
    time.sleep(0.3)
    speaker.cancel("trick-6")
    assert speaker.wait_idle(5)
    report["cancel"] = {"spans": [span(h) for h in audio.plays[said:]],
                        "finished": list(finished)}
    report["speaking_changes"] = changes
    speaker.close()
    audio.close()
    report["frames_written"] = audio.frames_written
    return report


def run_vanish(fifo: Path) -> dict[str, Any]:
    """The device (a pipe this script reads) goes away after the first sentence."""
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    reading = threading.Event()
    reading.set()

    def drain() -> None:
        while reading.is_set():
            try:
                os.read(reader, 1 << 16)
            except BlockingIOError:
                time.sleep(0.005)
        os.close(reader)

    threading.Thread(target=drain, daemon=True).start()
    speaker = make_speaker(rate=RATE)
    lines = io.StringIO()
    announcer = Announcer(speaker, stream=lines)
    announcer.say("Before it went away.")
    assert speaker.wait_idle(10)
    reading.clear()  # the device is gone: writing to it fails
    time.sleep(0.2)
    announcer.say("First message after the device went away.")
    speaker.wait_idle(5)
    announcer.say("Second message.")
    announcer.say("Third message.")
    report = {"lines": lines.getvalue().splitlines()[1:],
              "speaker_left": announcer.speaker is not None}
    announcer.close()
    return report


if __name__ == "__main__":
    if sys.argv[1:2] == ["vanish"]:
        print(json.dumps(run_vanish(Path(sys.argv[2]))))
    else:
        print(json.dumps(run_play()))
