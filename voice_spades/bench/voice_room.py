"""`voice-spades bench voice --room`: speaking over the narrator on loudspeakers, in a room.

    voice-spades bench voice --room [--aec speex,none] [--during 9] [--after 3]
        [--narration-seconds 30] [--seed 1] [--enroll] [--offline [--causes]
        [--decode-time modelled|measured]] [--json] [--verbose]

The narrator's lines (the game's own words over a seeded match, spoken by its own
synthesizer) play through the game's audio output on a virtual sound device; a
simulated room (:mod:`voice_spades.voice.testing.room`: image-source impulse
responses of a small, a medium and a large room) turns what is played into what a
microphone on the table hears, adds the player's command (the voice benchmark's
manifest clips, in several voices) at a loudness against the echo of -6, 0 or +6 dB
and a background noise (quiet, a fan, low rumble), and writes it, in real time,
into the device the game's real microphone path records from. Each room (with its
noise: the small room quiet, the medium one with a fan, the large one rumbling) is a
game of its own: the canceller and the microphone start afresh, hear the room's
noise, then two narration clips, as a game opens by talking.

Per configuration (``--aec``: the echo canceller, or ``none``: the microphone muted
while the narrator speaks, barge-in only for a voice far louder than the narration,
as without cancellation) it reports: commands understood while the narrator speaks
and after it stopped; barge-in (the command over the narrator stopped it and was
understood) and the time from the start of the command's speech to the narrator's
silence; narration-only minutes in which anything heard acted or asked a question
(target 0); the latency from the end of the command's speech to the intent
(median, and the share within 300 ms; it includes the quiet that ends an utterance)
and of the decoding alone. ``--offline`` runs the same scenes on a virtual clock
without the device (fast; for comparing cancellers, and for long runs: ``--during 36 --after 12
--narration-seconds 600`` takes a few minutes a configuration). The narration-only
part plays distinct clips (up to ten minutes' worth) at the usual echo level, 6 dB
louder and 6 dB quieter in turn. A default run takes about eight minutes live (four
a configuration) and under a minute offline. ``--causes`` (offline) also says, per
configuration, where the commands not understood were lost
(:mod:`.voice_room_causes`: the recognizer, the room, the echo gate, the echo left,
the cut), decoding each command again in easier conditions (about twice as long), and
how many a perfect canceller, gate and detector could have understood at best: those
not lost with no narrator and a perfect cut, the recognizer's limit in these rooms.
``--enroll`` first trains voice input on each speaker in each room
(:mod:`.voice_room_training`: the script read there with the game silent, as
``voice-spades train-voice`` has it), and hears each command with that training (live,
the worker trains them all before the first scene, a few minutes).
Offline, a decode takes the time :mod:`.decode_time` models from its audio's length
(``--decode-time measured``: its CPU time), so a run with a fixed seed gives the same
figures every time; the report says how the measured CPU time compared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voice_spades.bench.decode_time import DECODE_TIMES, decoding_line, timed
from voice_spades.bench.voice_room_scenes import parse_scene_options

if TYPE_CHECKING:
    from voice_spades.bench.voice_room_training import RoomTrainings
    from voice_spades.voice.recognizers.base import Recognizer

SCENE_KEYS = ("answer", "correct", "wrong_unasked", "barged", "barge_seconds", "latency",
              "decode_latency", "extra", "kind", "ratio_db", "noise", "room", "transcript",
              "heard")


LATENCY_TARGET = 0.3
"""Seconds from the end of speech within which a command counts as answered at once.
The latencies fall in two groups (the early end, ~250 ms, and the full quiet, ~650 ms),
so the median can jump between them; the share within the target moves smoothly."""


def scene_options(args: argparse.Namespace) -> tuple[tuple[str, ...], tuple[float, ...],
                                                     tuple[str, ...]]:
    """The rooms, loudness ratios and noises asked for."""
    return parse_scene_options(args.rooms, args.ratios, args.noises)


def run_offline(aec: str, args: argparse.Namespace,
                trainings: RoomTrainings | None = None) -> dict[str, Any]:
    """One configuration on the virtual clock, in this process; with ``trainings``,
    each speaker heard with their training for the room."""
    from voice_spades.bench.voice_room_run import OfflineRunner, clip_count
    from voice_spades.bench.voice_room_scenes import narration_clips, plan_scenes
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    scenes = plan_scenes(args.seed, args.during, args.after, *scene_options(args))
    clips = narration_clips(args.seed, clip_count(len(scenes), args.narration_seconds))
    from voice_spades.bench.voice_room_causes import explain

    inner: Recognizer = PocketSphinxRecognizer() if trainings is None else trainings
    recognizer = timed(inner, args.decode_time == "modelled")
    runner = OfflineRunner(recognizer, None if aec == "none" else aec,
                           args.seed, delay=args.delay, keep_audio=args.causes)
    if trainings is not None:
        runner.before_speech = trainings.use
    results, causes = [], []
    for scene in scenes:
        result = runner.run_scene(scene, clips[scene.narration])
        results.append(asdict(result))
        if args.causes:
            found = explain(runner, result.correct, args.seed + scene.number)
            causes.append(asdict(found) | {"cause": found.cause})
    narration = runner.run_narration(clips, args.narration_seconds) \
        if args.narration_seconds > 0 else None
    if runner.canceller is not None:
        runner.delays.append(runner.canceller.delay)
    return {"aec": aec, "scenes": results, "causes": causes,
            "narration": asdict(narration) if narration else None,
            "delays": [round(d, 4) for d in runner.delays],
            "decode_time": args.decode_time, "decoding_figures": recognizer.times.summary()}


def run_live(aec: str, args: argparse.Namespace) -> dict[str, Any]:
    """One configuration in real time, in a worker process whose default sound device
    is the virtual one (a temporary HOME with its own ``.asoundrc``)."""
    from voice_spades.bench.voice_room_live import asoundrc

    with tempfile.TemporaryDirectory(prefix="voice-spades-room-") as tmp:
        home = Path(tmp)
        fifo = home / "microphone.fifo"
        (home / ".asoundrc").write_text(asoundrc(fifo), encoding="utf-8")
        env = {name: os.environ[name] for name in ("PATH", "LANG", "VOICE_SPADES_SPEECH_CACHE")
               if name in os.environ}
        env.update(HOME=str(home), PYTHONPATH=str(Path(__file__).resolve().parents[2]),
                   XDG_CACHE_HOME=os.environ.get("XDG_CACHE_HOME",
                                                 str(Path.home() / ".cache")))
        command = [sys.executable, "-m", "voice_spades.bench.voice_room_live", "--fifo",
                   str(fifo), "--aec", aec, "--seed", str(args.seed), "--during",
                   str(args.during), "--after", str(args.after), "--narration-seconds",
                   str(args.narration_seconds), f"--rooms={args.rooms}",
                   f"--ratios={args.ratios}", f"--noises={args.noises}"]
        if args.enroll:
            command.append("--enroll")
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False,
                              timeout=3600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the room worker failed ({done.returncode}): "
                           f"{done.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def readings_line(readings: list[dict[str, Any]]) -> str:
    """How the trainings of ``--enroll`` went (``readings``: RoomReading as dicts)."""
    heard = [r["heard"] for r in readings]
    return (f"trained {len(heard)} times (speaker and room): {min(heard, default=0)}-"
            f"{max(heard, default=0)} of {readings[0]['read'] if heard else 0} phrases heard")


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def summary(run: dict[str, Any]) -> dict[str, Any]:
    """The figures of one configuration (see the module doc)."""
    scenes = run["scenes"]
    during = [s for s in scenes if s["kind"] == "during"]
    after = [s for s in scenes if s["kind"] == "after"]
    barged = [s for s in during if s["barged"] and s["correct"]]
    heard = [s for s in scenes if s["answer"] != "missed"]
    narration = run.get("narration") or {"seconds": 0.0, "answers": [], "barge_ins": 0}
    minutes = narration["seconds"] / 60
    bad = {int(at // 60) for at, answer in narration["answers"] if answer in ("act", "ask")}
    latencies = [s["latency"] for s in heard if s["latency"] is not None]
    row: dict[str, Any] = {
        "aec": run["aec"],
        "during": len(during), "during_understood": _rate(sum(s["correct"] for s in during),
                                                          len(during)),
        "after": len(after), "after_understood": _rate(sum(s["correct"] for s in after),
                                                       len(after)),
        "barge_in_rate": _rate(sum(s["barged"] for s in during), len(during)),
        "barge_in_success": _rate(len(barged), len(during)),
        "barge_in_seconds_median": _median([s["barge_seconds"] for s in during
                                            if s["barged"] and s["barge_seconds"] is not None]),
        "latency_median": _median(latencies),
        "latency_within_target": _rate(sum(t <= LATENCY_TARGET for t in latencies),
                                       len(latencies)),
        "decode_latency_median": _median([s["decode_latency"] for s in heard
                                          if s["decode_latency"] is not None]),
        "wrong_unasked": sum(s["wrong_unasked"] for s in scenes),
        "scene_extra_act_or_ask": sum(a in ("act", "ask") for s in scenes for a in s["extra"]),
        "narration_minutes": round(minutes, 2),
        "narration_bad_minutes": len(bad),
        "narration_acts": sum(a == "act" for _, a in narration["answers"]),
        "narration_asks": sum(a == "ask" for _, a in narration["answers"]),
        "narration_say_again": sum(a == "sorry" for _, a in narration["answers"]),
        "narration_barge_ins": narration["barge_ins"],
        "delays_ms": [round(d * 1000, 1) for d in run.get("delays", [])],
        "decode_time": run.get("decode_time"),
        "decoding_figures": run.get("decoding_figures"),
    }
    from voice_spades.bench.voice_room_causes import at_best, cause_counts

    for kind in ("during", "after"):
        if run.get("causes"):
            row[f"causes_{kind}"] = cause_counts(run["causes"], kind)
            row[f"at_best_{kind}"] = at_best(run["causes"], kind)
    for key in ("ratio_db", "noise"):
        groups = sorted({s[key] for s in during})
        row[f"during_understood_by_{key}"] = {
            str(g): _rate(sum(s["correct"] for s in during if s[key] == g),
                          sum(s[key] == g for s in during)) for g in groups}
    return row


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _sec(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f} ms"


def _placed(cause: dict[str, Any]) -> str:
    """Where a scene's utterance began and ended against its command's speech (seconds;
    negative: before), when ``--causes`` found one."""
    if cause.get("start") is None:
        return ""
    return f" utterance {cause['start']:+.2f}/{cause['end']:+.2f} s"


def print_table(rows: list[dict[str, Any]]) -> None:
    """The comparison table, one column per configuration."""
    lines: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("commands understood while the narrator speaks",
         lambda r: f"{_pct(r['during_understood'])} of {r['during']}"),
        ("commands understood after it",
         lambda r: f"{_pct(r['after_understood'])} of {r['after']}"),
        ("barge-in: the command stopped the narrator", lambda r: _pct(r["barge_in_rate"])),
        ("  and was understood", lambda r: _pct(r["barge_in_success"])),
        ("command start to narrator silence (median)",
         lambda r: _sec(r["barge_in_seconds_median"])),
        ("narration-only minutes that acted or asked",
         lambda r: f"{r['narration_bad_minutes']} of {r['narration_minutes']:.1f}"),
        ("  narration heard as: act / ask / say again",
         lambda r: f"{r['narration_acts']} / {r['narration_asks']} / {r['narration_say_again']}"),
        ("  narrator stopped by nobody (false barge-in)", lambda r: str(r["narration_barge_ins"])),
        ("scenes: narration acted or asked", lambda r: str(r["scene_extra_act_or_ask"])),
        ("wrong actions not asked about", lambda r: str(r["wrong_unasked"])),
        ("latency after end of speech (median)", lambda r: _sec(r["latency_median"])),
        ("  of which decoding (median)", lambda r: _sec(r["decode_latency_median"])),
        (f"  decided within {LATENCY_TARGET * 1000:.0f} ms",
         lambda r: _pct(r["latency_within_target"])),
        ("echo delay measured (ms, per room)",
         lambda r: ",".join(f"{d:.0f}" for d in r["delays_ms"]) or "-"),
    ]
    width = max(len(label) for label, _ in lines)
    names = [f"AEC {r['aec']}" if r["aec"] != "none" else "no AEC" for r in rows]
    print(f"{'':{width}}  " + "  ".join(f"{name:>16}" for name in names))
    for label, cell in lines:
        print(f"{label:{width}}  " + "  ".join(f"{cell(r):>16}" for r in rows))
    for r in rows:
        ratios = r["during_understood_by_ratio_db"].items()
        noises = r["during_understood_by_noise"].items()
        print(f"{r['aec']}: while speaking, by loudness against the echo: "
              + ", ".join(f"{k} dB {_pct(v)}" for k, v in ratios)
              + "; by noise: " + ", ".join(f"{k} {_pct(v)}" for k, v in noises))


def main(argv: list[str] | None = None) -> int:
    """Run the room bench (``voice-spades bench voice --room``)."""
    parser = argparse.ArgumentParser(prog="voice-spades bench voice --room")
    parser.add_argument("--aec", default="speex,none",
                        help="configurations to compare: speex, webrtc, none (comma-separated)")
    parser.add_argument("--during", type=int, default=9, help="commands said over the narrator")
    parser.add_argument("--after", type=int, default=3, help="commands said after it")
    parser.add_argument("--narration-seconds", type=float, default=30.0,
                        help="narration with nobody talking")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rooms", default="small,medium,large")
    parser.add_argument("--ratios", default="-6,0,6",
                        help="the command's loudness against the echo, dB (--ratios=-6,0)")
    parser.add_argument("--noises", default="quiet,fan,rumble")
    parser.add_argument("--offline", action="store_true",
                        help="virtual clock, no sound device (fast)")
    parser.add_argument("--delay", type=float, default=0.1,
                        help="offline: the device's output-to-input delay to simulate (s)")
    parser.add_argument("--causes", action="store_true",
                        help="offline: say where the commands not understood were lost")
    parser.add_argument("--decode-time", choices=DECODE_TIMES, default="modelled",
                        help="with --offline: count each decode's time as modelled from its "
                             "audio's length (reproducible) or as measured (CPU time); "
                             "default %(default)s")
    parser.add_argument("--enroll", action="store_true",
                        help="each speaker first trains voice input in each room "
                             "(bench/voice_room_training.py)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("--verbose", action="store_true", help="list every scene")
    args = parser.parse_args(argv)
    configs = [c.strip() for c in args.aec.split(",") if c.strip()]
    if not configs or set(configs) - {"speex", "webrtc", "none"}:
        print("--aec takes speex, webrtc and none", file=sys.stderr)
        return 2
    from voice_spades.bench.voice_room_scenes import NOISE_NAMES
    from voice_spades.voice.testing.room import ROOMS

    try:
        rooms, ratios, noises = scene_options(args)
    except ValueError:
        print("--ratios takes numbers (dB)", file=sys.stderr)
        return 2
    if not rooms or set(rooms) - set(ROOMS) or not noises or set(noises) - set(NOISE_NAMES) \
            or not ratios:
        print(f"--rooms takes {', '.join(ROOMS)}; --noises {', '.join(NOISE_NAMES)}",
              file=sys.stderr)
        return 2
    if args.causes and not args.offline:
        print("--causes needs --offline", file=sys.stderr)
        return 2
    if not args.offline and sys.platform != "linux":
        from voice_spades.bench.voice_room_live import LINUX_ONLY

        print(LINUX_ONLY, file=sys.stderr)
        return 2
    trainings = None
    if args.enroll and args.offline:
        from voice_spades.bench.voice_room_training import RoomTrainings
        from voice_spades.voice.testing.manifest import DEFAULT_VOICES

        trainings = RoomTrainings(DEFAULT_VOICES, args.seed)
    rows, runs = [], []
    for aec in configs:
        try:
            run = run_offline(aec, args, trainings) if args.offline else run_live(aec, args)
        except Exception as error:  # a missing library or device: say which, go on
            print(f"{aec}: skipped: {error}", file=sys.stderr)
            continue
        runs.append(run)
        rows.append(summary(run))
        if args.verbose:
            causes = run.get("causes") or [{} for _ in run["scenes"]]
            for s, c in zip(run["scenes"], causes, strict=True):
                print(f"  {aec} {s['kind']:6} {s['room']:6} {s['ratio_db']:+.0f} dB "
                      f"{s['noise']:6} {s['transcript']!r} -> {s['answer']} "
                      f"{'ok' if s['correct'] else repr(s['heard'])}"
                      f"{' barge-in' if s['barged'] else ''}"
                      f"{'' if s['latency'] is None else ' after ' + _sec(s['latency'])}"
                      f" extra {s['extra']}{_placed(c)}"
                      f"{' lost: ' + c['cause'] if c.get('cause') else ''}")
    if trainings is not None:
        print(readings_line([asdict(r) for r in trainings.readings]))
        trainings.close()
    for run in runs:
        if run.get("readings"):
            print(f"{run['aec']}: {readings_line(run['readings'])}")
    if not rows:
        return 1
    print_table(rows)
    for row in rows:
        for kind in ("during", "after"):
            if f"causes_{kind}" in row:
                print(f"{row['aec']}: {kind}, where the commands went: " + ", ".join(
                    f"{name} {count}" for name, count in row[f"causes_{kind}"].items()))
                best, count = row[f"at_best_{kind}"]
                print(f"{row['aec']}: {kind}, at best (each command alone through the room, "
                      f"cut where its speech is, no narrator): {best} of {count} "
                      f"({_pct(best / count if count else None)})")
        if row["decoding_figures"]:
            print(f"{row['aec']}: {decoding_line(row['decode_time'], row['decoding_figures'])}")
    if args.json:
        print(json.dumps(rows))
    return 0
