"""Drives the real pyttsx3 speaker through ALSA's file device and reports what happened.

Run by test_playback.py as ``python playback_scenario.py OUT_DIR`` with HOME set to
a folder whose ``.asoundrc`` sends the default playback device to
``OUT_DIR/out.raw`` (``truncate false``: each aplay run gets its own numbered
file, so one file is one utterance). Prints one JSON object on stdout.
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import tempfile
import time
import wave
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from voice_spades.speech import Announcer, Priority, Utterance, make_speaker
from voice_spades.speech.synth import SynthClient
from voice_spades.speech.synth_speaker import SynthSpeaker

RATE = 200
BYTES_PER_SECOND = 22050 * 2
LONG = ("North leads the king of clubs. East follows with the four of clubs. "
        "South plays the ace of clubs and wins the trick. West discards the two of hearts. "
        "Spades are not broken yet, and the score is one hundred and twenty to ninety.")
SHORT = ["Queen of hearts wins the trick.", "North bids four.", "Spades are broken."]


class Recorder:
    """What the ALSA file device received, one file per aplay run."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def files(self) -> list[Path]:
        def number(p: Path) -> int:
            suffix = p.name[len("out.raw"):].lstrip(".")
            return int(suffix) if suffix else 0
        return sorted(self.out.glob("out.raw*"), key=number)

    def wait_new(self, count: int, timeout: float = 5.0) -> float:
        """Seconds until there are ``count`` files."""
        start = time.perf_counter()
        while len(self.files()) < count:
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"no new playback after {timeout} s")
            time.sleep(0.001)
        return time.perf_counter() - start

    def sizes(self, since: int) -> list[int]:
        return [p.stat().st_size for p in self.files()[since:]]


def expected_bytes(texts: list[str]) -> dict[str, int]:
    """How many sample bytes each text is when synthesized whole."""
    client = SynthClient()
    client.start()
    result = {}
    with tempfile.TemporaryDirectory() as folder:
        for i, text in enumerate(texts):
            path = Path(folder) / f"{i}.wav"
            client.synth(text, path, RATE, None, 50)
            with wave.open(str(path)) as wav:
                result[text] = wav.getnframes() * 2
    client.close()
    return result


def run(out: Path) -> dict[str, Any]:
    rec = Recorder(out)
    report: dict[str, Any] = {"expected": expected_bytes([LONG, *SHORT, "Your turn."])}
    speaker = make_speaker(rate=RATE)
    assert isinstance(speaker, SynthSpeaker)
    report["probe_files"] = len(rec.files())
    changes: list[bool] = []
    finished: list[tuple[str, bool]] = []
    speaker.on_speaking_changed(changes.append)
    speaker.on_finished(lambda u, whole: finished.append((u.text, whole)))

    # Start latency on an idle speaker; then NORMAL utterances back to back, each whole.
    latencies = []
    for _ in range(3):
        said = len(rec.files())
        speaker.say(Utterance("Your turn."))
        latencies.append(rec.wait_new(said + 1))
        assert speaker.wait_idle(10)
    report["start_latency_ms"] = [round(s * 1000, 1) for s in latencies]
    start = len(rec.files())
    for text in SHORT:
        speaker.say(Utterance(text))
    assert speaker.wait_idle(15)
    report["normal"] = {"texts": SHORT, "sizes": rec.sizes(start)}

    # stop() during a long sentence, several times.
    stops = []
    for _ in range(3):
        said = len(rec.files())
        speaker.say(Utterance(LONG))
        rec.wait_new(said + 1)
        time.sleep(0.4)
        path = rec.files()[said]
        t0 = time.perf_counter()
        speaker.stop()
        stop_ms = (time.perf_counter() - t0) * 1000
        at_stop = path.stat().st_size
        idle = not speaker.is_speaking()
        time.sleep(0.2)
        stops.append({"stop_ms": round(stop_ms, 2), "bytes_at_stop": at_stop,
                      "bytes_after": path.stat().st_size, "idle_after_stop": idle})
    report["stops"] = stops
    report["stop_ms_median"] = statistics.median(s["stop_ms"] for s in stops)

    # HIGH cuts the current sentence and drops what was queued.
    finished.clear()
    said = len(rec.files())
    speaker.say(Utterance(LONG))
    speaker.say(Utterance(SHORT[0]))
    rec.wait_new(said + 1)
    time.sleep(0.5)
    t0 = time.perf_counter()
    speaker.say(Utterance("Your turn.", Priority.HIGH))
    rec.wait_new(said + 2)
    report["high_cut_to_start_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    assert speaker.wait_idle(10)
    report["high"] = {"sizes": rec.sizes(said), "finished": list(finished)}

    # LOW is dropped while busy, and spoken when idle.
    finished.clear()
    said = len(rec.files())
    speaker.say(Utterance(SHORT[1]))
    rec.wait_new(said + 1)
    speaker.say(Utterance("A low message.", Priority.LOW))
    assert speaker.wait_idle(10)
    speaker.say(Utterance("Idle low.", Priority.LOW))
    assert speaker.wait_idle(10)
    report["low"] = {"files": len(rec.files()) - said, "finished": list(finished)}

    # cancel(tag): queued ones go; the current one is cut if it has the tag.
    finished.clear()
    said = len(rec.files())
    speaker.say(Utterance(SHORT[1]))
    speaker.say(Utterance("Trick five, West plays.", tag="trick-5"))
    speaker.say(Utterance("Trick five, North plays.", tag="trick-5"))
    speaker.say(Utterance(SHORT[2]))
    speaker.cancel("trick-5")
    assert speaker.wait_idle(10)
    speaker.say(Utterance(LONG, tag="trick-6"))
    rec.wait_new(len(rec.files()) + 1)
    time.sleep(0.3)
    speaker.cancel("trick-6")
    assert speaker.wait_idle(5)
    report["cancel"] = {"sizes": rec.sizes(said), "finished": list(finished)}
    report["speaking_changes"] = changes

    # The device goes away mid-game: the announcer says so once and goes on in text.
    asoundrc = Path.home() / ".asoundrc"
    asoundrc.write_text('pcm.!default { type hw card 29 }\n')
    lines = io.StringIO()
    announcer = Announcer(speaker, stream=lines)
    announcer.say("First message after the device went away.")
    speaker.wait_idle(5)
    announcer.say("Second message.")
    announcer.say("Third message.")
    report["vanished"] = {"lines": lines.getvalue().splitlines(),
                          "speaker_left": announcer.speaker is not None}
    announcer.close()
    return report


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]))))
