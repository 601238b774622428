"""``voice-spades bench speech``: how fast each speech backend answers, on virtual sound
cards, medians and 90th percentiles over ``--tries`` tries (20 by default).

For each backend available here:

* ``voice``: the game's own voice (pyttsx3 + espeak-ng) through ``sounddevice``, on
  ALSA's default device, which :func:`~.sound_sink.write_asoundrc` points at the
  bench's private PulseAudio null sink (:mod:`.pulse_sink`: a virtual card with a clock);
* ``screen-reader``: the game's screen-reader speaker on Speech Dispatcher, as
  ``--speech screen-reader`` chooses it (the game's own SSIP client,
  :mod:`~voice_spades.speech.speechd_client`), on a speech-dispatcher daemon of the
  bench's own (:mod:`.speechd_daemon`) playing into the same null sink;
* ``text``: no audio, so its speech columns are n/a; its cues are measured.

Columns: ``launch`` from starting the backend (the voice's synthesizer and audio
stream; for the reader, the whole choice: the process list, the connection and its
check) to the first line's first audio; ``silence``
from a key (``interrupt``) pressed a second into a long line to the end of its last
sound; ``answer`` from that key to the first audio of the key's answer; ``cue`` from
asking for a sound cue (the game's :class:`~voice_spades.speech.cues.CuePlayer`, on the
game's output) to its first audio, with no speech playing; ``start`` from starting
``voice-spades play --speech <backend>`` (a process of its own: imports, the game, the
speech's choice; a new game, no microphone, no cues) to its first speech.

How "first audio" is detected: ``parec`` records the null sink's monitor (10 ms of
latency asked for), and what it hands over is cut into 5 ms chunks stamped with the
monotonic clock when they arrive, less their length; a chunk "holds sound" when its
peak reaches 500 of 32767 (about -36 dBFS); the synthesizers write exact digital
silence around speech, so the first chunk holding sound after the request is its
first audio. The recording's own latency makes every figure err long by about 10 ms.
The answer's first audio is the first chunk holding sound that starts
:data:`ANSWER_GAP` seconds after the cut line has had its median silence time (from
the tries where the key only cuts) to end. The lines come from a fixed list, picked with ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_spades.bench.pulse_sink import PrivatePulse, pulse_missing
from voice_spades.bench.sound_sink import (
    Sound,
    alsa_pulse_missing,
    first_sound,
    last_sound_end,
    write_asoundrc,
)

LINES = ["North leads the king of clubs.", "East bids four.", "Spades are broken.",
         "West wins the trick with the ace of hearts.", "Your turn: follow diamonds."]
LONG_LINES = [
    "North leads the king of clubs, East follows with the four of clubs, and South "
    "plays the ace of clubs and wins the trick.",
    "Spades are not broken yet, and the score is one hundred and twenty to ninety, "
    "with three bags for your side.",
]
ANSWERS = ["You hold the ace of spades.", "Your bid is four.", "Trick seven."]
ANSWER_GAP = 0.015
KEY_AFTER = 1.0
"""Seconds into a long line when the key is pressed."""
WAIT = 20.0
"""Longest wait for a sound, in seconds."""
COLUMNS = ("launch", "silence", "answer", "cue", "start")


@dataclass
class Row:
    """One backend's measurements, in seconds (empty: not applicable)."""

    backend: str
    times: dict[str, list[float]] = field(default_factory=lambda: {c: [] for c in COLUMNS})
    note: str = ""

    def summary(self) -> dict[str, object]:
        """Medians and 90th percentiles in milliseconds (None where n/a)."""
        result: dict[str, object] = {"backend": self.backend, "note": self.note}
        for column, values in self.times.items():
            result[column] = {"median_ms": _ms(statistics.median(values)) if values else None,
                              "p90_ms": _ms(_p90(values)) if values else None,
                              "tries": len(values)}
        return result


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def wait_sound(played: Callable[[], list[Sound]], after: float) -> Sound:
    """The first chunk holding sound at or after ``after`` (waits for it)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = first_sound(played(), after)
        if found is not None:
            return found
        time.sleep(0.005)
    raise TimeoutError("no sound came")


def wait_quiet(played: Callable[[], list[Sound]], after: float, quiet: float = 0.6) -> None:
    """Wait until nothing has played for ``quiet`` seconds."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        end = last_sound_end(played(), after)
        if time.monotonic() - (end or after) > quiet:
            return
        time.sleep(0.02)


class Speaking:
    """What the bench drives: a started speaker and where its audio is recorded."""

    def __init__(self, speaker: object, played: Callable[[], list[Sound]]) -> None:
        from voice_spades.speech.screen_reader import ScreenReaderSpeaker
        from voice_spades.speech.synth_speaker import SynthSpeaker

        assert isinstance(speaker, SynthSpeaker | ScreenReaderSpeaker)
        self.speaker = speaker
        self.played = played

    def say(self, text: str, high: bool = False) -> None:
        from voice_spades.speech.message import LineKind, Priority, Utterance

        kind = LineKind.ANSWER if high else LineKind.EVENT
        self.speaker.say(Utterance(text, Priority.HIGH if high else Priority.NORMAL,
                                   kind=kind))


def measure_keys(speaking: Speaking, row: Row, rng: random.Random, tries: int) -> None:
    """Fill the silence and answer columns: a key pressed a second into a long line.

    Silence comes from tries where the key only cuts (the player's skip); answer from
    tries where the key's answer follows, as its first sound once the cut line has
    had the median silence time to end."""
    for answering in (False, True):
        for _ in range(tries):
            start = time.monotonic()
            speaking.say(rng.choice(LONG_LINES))
            wait_sound(speaking.played, start)
            time.sleep(KEY_AFTER)
            key = time.monotonic()
            speaking.speaker.interrupt()
            if answering:
                speaking.say(rng.choice(ANSWERS), high=True)
            else:
                speaking.speaker.stop()
            wait_quiet(speaking.played, key)
            speaking.speaker.stop()
            played = speaking.played()
            if not answering:
                row.times["silence"].append(max(0.0, (last_sound_end(played, start) or key)
                                                - key))
                continue
            cut = statistics.median(row.times["silence"]) if row.times["silence"] else 0.0
            answer = first_sound(played, key + cut + ANSWER_GAP)
            if answer is not None:
                row.times["answer"].append(answer.start - key)


def measure_start(speech: str, tries: int, played: Callable[[], list[Sound]],
                  folder: Path) -> list[float]:
    """Seconds from starting ``voice-spades play --speech speech`` to its first sound."""
    found = []
    for i in range(tries):
        wait_quiet(played, time.monotonic())
        start = time.monotonic()
        game = subprocess.Popen(
            [sys.executable, "-m", "voice_spades.cli", "play", "--new", "--speech", speech,
             "--no-voice", "--sounds", "off", "--data-dir", str(folder / f"{speech}-{i}")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            found.append(wait_sound(played, start).start - start)
        finally:
            game.terminate()
            try:
                game.wait(10)
            except subprocess.TimeoutExpired:
                game.kill()
                game.wait(10)
        wait_quiet(played, start)
    return found


def measure_voice(row: Row, rng: random.Random, tries: int,
                  played: Callable[[], list[Sound]], folder: Path) -> None:
    """The voice backend: launch, keys, start."""
    from voice_spades.speech.audio_out import close_shared_audio
    from voice_spades.speech.pyttsx3_speaker import make_speaker

    for _ in range(tries):
        start = time.monotonic()
        speaker = make_speaker()
        speaking = Speaking(speaker, played)
        speaking.say(rng.choice(LINES))
        row.times["launch"].append(wait_sound(played, start).start - start)
        wait_quiet(played, start)
        speaker.close()
        close_shared_audio()
    speaker = make_speaker()
    try:
        measure_keys(Speaking(speaker, played), row, rng, tries)
    finally:
        speaker.close()
        close_shared_audio()
    row.times["start"] = measure_start("voice", tries, played, folder)


def measure_reader(row: Row, rng: random.Random, tries: int, folder: Path,
                   pulse: PrivatePulse) -> None:
    """The screen-reader backend on a private speech-dispatcher daemon."""
    from voice_spades.bench.speechd_daemon import PrivateSpeechd, speechd_missing
    from voice_spades.speech.choice import choose_speech
    from voice_spades.speech.screen_reader import ScreenReaderSpeaker

    def no_voice() -> tuple[Any, list[Any]]:
        raise RuntimeError("the bench measures the reader only")

    def reader() -> ScreenReaderSpeaker:
        chosen = choose_speech("screen-reader", no_voice, platform="linux")
        assert isinstance(chosen.speaker, ScreenReaderSpeaker), chosen.notices
        return chosen.speaker

    missing = speechd_missing()
    if missing is not None:
        row.note = missing
        return
    with PrivateSpeechd(folder / "speechd", pulse.server) as daemon:
        os.environ["SPEECHD_ADDRESS"] = daemon.address
        for _ in range(tries):
            start = time.monotonic()
            speaker = reader()
            Speaking(speaker, pulse.sounds).say(rng.choice(LINES))
            row.times["launch"].append(wait_sound(pulse.sounds, start).start - start)
            wait_quiet(pulse.sounds, start)
            speaker.close()
        speaker = reader()
        try:
            measure_keys(Speaking(speaker, pulse.sounds), row, rng, tries)
        finally:
            speaker.close()
        row.times["start"] = measure_start("screen-reader", tries, pulse.sounds, folder)
        row.note = "the game's Speech Dispatcher client, espeak-ng module"


def measure_cues(tries: int, played: Callable[[], list[Sound]]) -> list[float]:
    """Seconds from asking for a cue to its first audio on the game's output."""
    from voice_spades.speech.audio_out import close_shared_audio, shared_audio
    from voice_spades.speech.cue_sounds import Cue
    from voice_spades.speech.cues import CuePlayer, PlacedCue

    cues = CuePlayer(shared_audio())
    found = []
    try:
        time.sleep(0.3)  # the stream is running
        for _ in range(tries):
            start = time.monotonic()
            cues.play([PlacedCue(Cue.CARD)])
            found.append(wait_sound(played, start).start - start)
            time.sleep(0.4)
    finally:
        close_shared_audio()
    return found


def run(tries: int, seed: int, only: str | None) -> list[Row]:
    """Measure every backend (or ``only`` one) on a fresh virtual card."""
    missing = pulse_missing() or alsa_pulse_missing()
    if missing is not None:
        raise SystemExit(f"voice-spades bench speech: {missing}")
    folder = Path(tempfile.mkdtemp(prefix="voice-spades-bench-speech-"))
    saved = dict(os.environ)
    try:
        rows = _run_on(folder, tries, seed, only)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    shutil.rmtree(folder, ignore_errors=True)  # kept after a failure: pulse.log says why
    return rows


def _run_on(folder: Path, tries: int, seed: int, only: str | None) -> list[Row]:
    rows = []
    with PrivatePulse(folder / "pulse") as pulse:
        # Before PortAudio starts: ALSA reads ~/.asoundrc once, when first used.
        os.environ.update(write_asoundrc(folder / "home", pulse.server))
        cue_times: list[float] | None = None
        for backend in ("voice", "screen-reader", "text"):
            if only not in (None, backend):
                continue
            row = Row(backend)
            rng = random.Random(seed)
            try:
                if backend == "voice":
                    measure_voice(row, rng, tries, pulse.sounds, folder)
                elif backend == "screen-reader":
                    measure_reader(row, rng, tries, folder, pulse)
            except Exception as error:  # a backend that cannot run here: the row says why
                row.note = f"not measured: {error}"
            if cue_times is None:
                try:
                    cue_times = measure_cues(tries, pulse.sounds)
                except Exception as error:
                    cue_times = []
                    row.note = (row.note + "; " if row.note else "") + f"no cues: {error}"
            row.times["cue"] = list(cue_times)
            if backend == "text":
                row.note = "no audio: speech columns n/a"
            rows.append(row)
    return rows


def table(rows: list[Row]) -> str:
    """The rows as a text table, milliseconds: median (p90)."""
    lines = [f"{'backend':15}" + "".join(f"{c:>18}" for c in COLUMNS) + "  note"]
    for row in rows:
        cells = []
        for column in COLUMNS:
            values = row.times[column]
            cells.append(f"{_ms(statistics.median(values)):>9} ({_ms(_p90(values))})"
                         if values else f"{'n/a':>18}")
        lines.append(f"{row.backend:15}" + "".join(f"{c:>18}" for c in cells)
                     + f"  {row.note}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print a table (or JSON with ``--json``)."""
    p = argparse.ArgumentParser(prog="voice-spades bench speech",
                                description="Speech latency of each backend, on virtual "
                                            "sound cards (milliseconds: median (p90)).")
    p.add_argument("--tries", type=int, default=20)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--only", choices=("voice", "screen-reader", "text"))
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.tries < 1:
        p.error("--tries must be at least 1")
    rows = run(args.tries, args.seed, args.only)
    if args.json:
        print(json.dumps({"tries": args.tries, "seed": args.seed,
                          "rows": [r.summary() for r in rows]}))
    else:
        print(f"voice-spades bench speech: {args.tries} tries, seed {args.seed}; "
              "milliseconds, median (p90)")
        print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
