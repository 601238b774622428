"""Synthesize a test-speech manifest for ``voice-spades bench voice``.

    python -m voice_spades.voice.testing.manifest --out DIR [--language en|it|fr]
        [--kinds bid,card] [--count 600] [--voices en-us,en-gb] [--speeds 130,160,200]
        [--pitches 35,50,70] [--noise 0,0,0.01,0.03] [--colors white,brown]
        [--reverb 0,40,80] [--chatter] [--pause-inside] [--seed 1]

Phrases are drawn from the full grammar of the language (English unless
``--language`` says otherwise; the voices then default to espeak-ng's voices of
that language: Italian, French of France, Belgium and Switzerland, with several
variants), kind by kind in turn (cards, bids,
queries, commands, answers...), so every intent kind is covered; each clip gets
a voice in turn and a speed, pitch and noise level drawn at random (list a level
twice to draw it more often). Voices are espeak-ng's, MBROLA's recorded-speaker
voices among them (``mb-us1``, ``mb-fr1``, ``mb-it3``...: the ``mbrola-*`` packages);
``flite:NAME`` (slt, rms, awb, kal16) uses the flite synthesizer and ``festival:NAME`` (kal_diphone,
ked_diphone, cmu_us_slt_arctic_hts; Italian lp_diphone, pc_diphone) Festival, and
``pico:LANG`` (en-US, it-IT, fr-FR: ``libttspico-utils``) SVOX Pico instead: other
engines, to check that figures do not hold for one synthesizer only. Writes
``DIR/clips/NNNN.wav`` (16 kHz mono 16-bit) and ``DIR/manifest.tsv`` with lines
``clips/NNNN.wav<TAB>transcript``, paths relative to the manifest (after a first
line ``# language: it`` for a language other than English).

Noise is white, or brown (low-frequency rumble) for clips given ``brown`` among
``--colors`` (drawn like the levels). ``--reverb`` draws a reverberance (sox's
``reverb``, 0-100; 0: none) per clip, from a draw of its own, so that the other
draws of a seed stay as they were. ``--chatter`` speaks table talk instead of
commands (:mod:`.chatter`): sentences the game must not act on. ``--pause-inside``
keeps the commands of two words or more and says each in two parts with a pause of
0.25-0.4 s between ("exchange ... ten of hearts"), as a player thinking it over does:
for ``bench voice --through-microphone``, where an utterance may end at a pause.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from voice_spades.voice.lexicon import LANGUAGES, lexicon_for
from voice_spades.voice.testing.chatter import plan_chatter
from voice_spades.voice.testing.mbrola import MissingSounds
from voice_spades.voice.testing.testspeech import (
    SAMPLE_RATE,
    SpeechParams,
    add_brown_noise,
    add_white_noise,
    silence,
    synthesize,
    tools_available,
    write_wav,
)
from voice_spades.voice.understanding.grammar import shuffled_by_kind

DEFAULT_VOICES = ("en-us", "en", "en-gb-x-rp", "en-us+f3", "en+m3", "en-gb-scotland",
                  "en-us+f2", "en-029")
VOICES_BY_LANGUAGE = {
    "en": DEFAULT_VOICES,
    "it": ("it", "it+f3", "it+m3", "it+f2", "it+m1", "it+f4"),
    "fr": ("fr", "fr-be", "fr-ch", "fr+f3", "fr-be+m3", "fr-ch+f2"),
}
"""espeak-ng's voices of each language (variants give other timbres and pitches)."""
DEFAULT_SPEEDS = (130, 150, 170, 200)
DEFAULT_PITCHES = (35, 50, 65)
DEFAULT_NOISE = (0.0, 0.0, 0.01, 0.03)
LANGUAGE_HEADER = "# language: "
"""How a manifest names its language, on its first line."""
PAD_SECONDS = 0.3
"""Silence around each phrase, as a push-to-talk clip has."""
NOISE_FLOOR = 0.0005
"""Noise every clip gets (about -66 dBFS): a microphone never records digital zeros."""


@dataclass(frozen=True, slots=True)
class Clip:
    """One manifest line to synthesize."""

    transcript: str
    params: SpeechParams
    color: str = "white"
    """The added noise's colour: "white" or "brown"."""
    pause: float = 0.0
    """Seconds of silence said inside the phrase, after word number ``cut``."""
    cut: int = 0
    reverb: int = 0
    """sox's reverberance (0-100) applied to the clip, as a room would; 0: none."""


def plan(count: int, voices: Sequence[str], speeds: Sequence[int], pitches: Sequence[int],
         noise: Sequence[float], seed: int = 1, colors: Sequence[str] = ("white",),
         language: str = "en", kinds: Sequence[str] = ()) -> list[Clip]:
    """``count`` clips covering every kind of phrase of the language (or only
    ``kinds``: "bid", "card"...), with varied speech; every kind is said by every
    voice in turn."""
    rng = random.Random(seed)
    by_kind = shuffled_by_kind(lexicon_for(language), rng,
                               lambda kind: not kinds or kind in kinds)
    order: list[str] = []
    for turn in range(count):
        for kind in sorted(by_kind):
            pool = by_kind[kind]
            order.append(pool[turn % len(pool)])
        if len(order) >= count:
            break
    clips = []
    for i, text in enumerate(order[:count]):
        level = rng.choice(noise)
        # the kinds of a round take the voices in turn, from a voice one further each
        # round: with as many kinds as a multiple of the voices, each kind would
        # otherwise meet one voice only (and one kind alone every other voice)
        voice = voices[(i % len(by_kind) + i // len(by_kind)) % len(voices)]
        params = SpeechParams(voice=voice, speed=rng.choice(speeds),
                              pitch=rng.choice(pitches), noise=max(level, NOISE_FLOOR),
                              pad_seconds=PAD_SECONDS, seed=i)
        clips.append(Clip(text, params, rng.choice(colors)))
    return clips


def plan_table_talk(count: int, voices: Sequence[str], speeds: Sequence[int],
                    pitches: Sequence[int], noise: Sequence[float], seed: int = 1,
                    colors: Sequence[str] = ("white",), language: str = "en") -> list[Clip]:
    """``count`` clips of table talk (:mod:`.chatter`), no command among them."""
    rng = random.Random(seed)
    return [Clip(text, params, rng.choice(colors))
            for text, params in plan_chatter(count, voices, speeds, pitches, noise,
                                             floor=NOISE_FLOOR, pad_seconds=PAD_SECONDS,
                                             seed=seed, language=language)]


PAUSES_INSIDE = (0.25, 0.4)
"""The shortest and longest pause said inside a phrase (``--pause-inside``): under the
microphone's full quiet (0.6 s), so the phrase stays one utterance."""


def with_pauses(clips: Sequence[Clip], seed: int = 1) -> list[Clip]:
    """The clips of two words or more, each with a pause after a word drawn at random."""
    rng = random.Random(seed)
    paused = []
    for clip in clips:
        words = len(clip.transcript.split())
        if words >= 2:
            paused.append(replace(clip, pause=rng.uniform(*PAUSES_INSIDE),
                                  cut=rng.randrange(1, words)))
    return paused


def with_reverb(clips: Sequence[Clip], reverbs: Sequence[int], seed: int = 1) -> list[Clip]:
    """The clips, each with a reverberance drawn from ``reverbs``."""
    rng = random.Random(f"reverb {seed}")
    return [replace(clip, reverb=rng.choice(reverbs)) for clip in clips]


def render(clip: Clip) -> bytes:
    """The clip's speech with its noise (and reverberation), as 16 kHz mono int16 PCM."""
    if clip.reverb > 0:
        return _reverberate(render(replace(clip, reverb=0)), clip.reverb)
    if clip.pause > 0:
        return _render_paused(clip)
    if clip.color == "white" or clip.params.noise <= NOISE_FLOOR:
        return speak(clip.transcript, clip.params)
    quiet = speak(clip.transcript, replace(clip.params, noise=NOISE_FLOOR))
    return add_brown_noise(quiet, clip.params.noise, clip.params.seed)


def _render_paused(clip: Clip) -> bytes:
    """Both parts of the clip's phrase, each trimmed to its speech, with the pause
    between them, padded, and with the clip's noise."""
    words = clip.transcript.split()
    quiet = replace(clip.params, noise=0.0, pad_seconds=0.0)
    first, second = (_speech_only(speak(" ".join(part), quiet))
                     for part in (words[:clip.cut], words[clip.cut:]))
    pad = silence(clip.params.pad_seconds)
    pcm = pad + first + silence(clip.pause) + second + pad
    if clip.color == "brown" and clip.params.noise > NOISE_FLOOR:
        return add_brown_noise(add_white_noise(pcm, NOISE_FLOOR, clip.params.seed),
                               clip.params.noise, clip.params.seed)
    return add_white_noise(pcm, clip.params.noise, clip.params.seed)


def _reverberate(pcm: bytes, reverberance: int) -> bytes:
    """``pcm`` through sox's ``reverb`` (room reflections, the tail cut to the clip's
    length plus its padding)."""
    raw = ["-t", "raw", "-r", str(SAMPLE_RATE), "-e", "signed-integer", "-b", "16", "-c", "1"]
    return subprocess.run(["sox", *raw, "-", *raw, "-", "reverb", str(reverberance)],
                          input=pcm, check=True, capture_output=True).stdout[:len(pcm)]


def _speech_only(pcm: bytes) -> bytes:
    """``pcm`` from its first to its last sample louder than 2% of its peak: the
    synthesizer's own silence cut, its weak first and last sounds kept (the decoder's
    :func:`~voice_spades.voice.audio.features.trim_to_speech` without a margin cuts
    them: the same held-out set was then understood 82% rather than 87%)."""
    samples = np.frombuffer(pcm, "<i2")
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > 0.02 * np.abs(samples).max())
    return samples[loud[0]:loud[-1] + 1].tobytes() if len(loud) else pcm


def speak(text: str, params: SpeechParams) -> bytes:
    """``text`` as 16 kHz mono int16 PCM, by espeak-ng, or by flite (voice
    ``flite:NAME``), Festival (voice ``festival:NAME``) or Pico (``pico:LANG``)."""
    engine, _, name = params.voice.partition(":")
    if engine not in ("flite", "festival", "pico"):
        return synthesize(text, params)
    tempo: list[str] = []
    with tempfile.TemporaryDirectory(prefix="voice-spades-tts-") as tmp:
        wav = Path(tmp) / "speech.wav"
        if engine == "pico":
            # Pico has one speed: sox's tempo changes it, keeping the pitch.
            command = ["pico2wave", "-l", name, "-w", str(wav), text]
            tempo = ["tempo", "-s", f"{params.speed / 150:.3f}"]
        elif engine == "flite":
            # flite's speed is a duration stretch, its pitch a mean F0 in Hz.
            command = ["flite", "-voice", name,
                       "--setf", f"duration_stretch={150 / params.speed:.3f}",
                       "--setf", f"int_f0_target_mean={60 + 1.6 * params.pitch:.0f}",
                       "-t", text, "-o", str(wav)]
        else:
            script = Path(tmp) / "text.txt"
            # Festival reads Latin-1 (its Italian rules stop at a UTF-8 "più").
            script.write_text(text, encoding="latin-1", errors="replace")
            command = ["text2wave", "-o", str(wav), "-eval", f"(voice_{name})",
                       "-eval", f"(Parameter.set 'Duration_Stretch {150 / params.speed:.3f})",
                       str(script)]
        subprocess.run(command, check=True, capture_output=True)
        pcm = subprocess.run(["sox", str(wav), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16",
                              "-e", "signed-integer", "-t", "raw", "-", *tempo],
                             check=True, capture_output=True).stdout
    pad = silence(params.pad_seconds)
    return add_white_noise(pad + pcm + pad, params.noise, params.seed)


def missing_voices(voices: Sequence[str]) -> list[str]:
    """The espeak-ng voices of ``voices`` espeak-ng cannot speak with (flite and
    Festival voices are not checked here)."""
    missing = []
    for voice in voices:
        if ":" in voice:
            continue
        tried = subprocess.run(["espeak-ng", "-v", voice, "-q", "--", "a"],
                               capture_output=True, check=False)
        if tried.returncode != 0:
            missing.append(voice)
    return missing


@dataclass(frozen=True, slots=True)
class Written:
    """What :func:`write_manifest` wrote."""

    manifest: Path
    clips: tuple[Clip, ...]
    """The clips written, each with the voice that said it."""
    revoiced: int = 0
    """Clips said by another of the voices, their own lacking some of the sounds."""
    left_out: tuple[MissingSounds, ...] = ()
    """Clips no voice could say whole, with what the first voice lacked."""


def write_manifest(out: Path, clips: Sequence[Clip], language: str = "en",
                   voices: Sequence[str] = ()) -> Written:
    """Synthesize ``clips`` into ``out``. A language other than English is named on
    the first line (``# language: it``), which ``voice-spades bench voice`` reads.
    A clip its voice cannot say whole (an MBROLA voice lacking sounds) is said by the
    next of ``voices`` that can, or left out."""
    folder = out / "clips"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [] if language == "en" else [f"{LANGUAGE_HEADER}{language}\n"]
    written: list[Clip] = []
    left_out: list[MissingSounds] = []
    revoiced = 0
    for clip in clips:
        spoken = _spoken_whole(clip, voices)
        if isinstance(spoken, MissingSounds):
            left_out.append(spoken)
            continue
        said, pcm = spoken
        revoiced += said.params.voice != clip.params.voice
        name = f"clips/{len(written):04d}.wav"
        write_wav(pcm, out / name)
        lines.append(f"{name}\t{said.transcript}\t{said.params.voice}\n")
        written.append(said)
    manifest = out / "manifest.tsv"
    manifest.write_text("".join(lines), encoding="utf-8")
    return Written(manifest, tuple(written), revoiced, tuple(left_out))


def _spoken_whole(clip: Clip, voices: Sequence[str]) -> tuple[Clip, bytes] | MissingSounds:
    """The clip rendered by its own voice, else by the next of ``voices`` that can say
    it whole; the first voice's complaint when none can."""
    others = list(voices)
    if clip.params.voice in others:
        start = others.index(clip.params.voice)
        others = others[start + 1:] + others[:start]
    first: MissingSounds | None = None
    for voice in (clip.params.voice, *others):
        tried = replace(clip, params=replace(clip.params, voice=voice))
        try:
            return tried, render(tried)
        except MissingSounds as lacking:
            first = first or lacking
    assert first is not None
    return first


def _list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m voice_spades.voice.testing.manifest",
                                     description="Synthesize a voice benchmark manifest.")
    parser.add_argument("--out", type=Path, required=True, help="folder to write into")
    parser.add_argument("--language", choices=LANGUAGES, default="en",
                        help="the language of the phrases (and of the default voices)")
    parser.add_argument("--count", type=int, default=600, help="number of clips")
    parser.add_argument("--voices", help="espeak-ng voices (default: the language's)")
    parser.add_argument("--speeds", default=",".join(map(str, DEFAULT_SPEEDS)),
                        help="words per minute")
    parser.add_argument("--pitches", default=",".join(map(str, DEFAULT_PITCHES)),
                        help="espeak-ng pitches, 0-99")
    parser.add_argument("--noise", default=",".join(map(str, DEFAULT_NOISE)),
                        help="white noise peak levels (fraction of full scale)")
    parser.add_argument("--colors", default="white",
                        help="noise colours drawn per clip: white, brown")
    parser.add_argument("--reverb", default="0",
                        help="reverberances drawn per clip (sox reverb, 0-100; 0: none)")
    parser.add_argument("--kinds", default="",
                        help="only phrases of these kinds (bid, card, query, answer...)")
    parser.add_argument("--chatter", action="store_true",
                        help="table talk (no commands): what the game must ignore")
    parser.add_argument("--pause-inside", action="store_true",
                        help="commands of two words or more, with a pause inside")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if not tools_available():
        print("espeak-ng and sox are needed: apt-get install espeak-ng sox", file=sys.stderr)
        return 2
    if args.voices and "flite:" in args.voices and shutil.which("flite") is None:
        print("flite voices need flite: apt-get install flite", file=sys.stderr)
        return 2
    if args.voices and "pico:" in args.voices and shutil.which("pico2wave") is None:
        print("pico voices need SVOX Pico: apt-get install libttspico-utils", file=sys.stderr)
        return 2
    if args.voices and "festival:" in args.voices and shutil.which("text2wave") is None:
        print("festival voices need Festival and its voices: apt-get install festival "
              "festvox-kallpc16k festvox-us-slt-hts", file=sys.stderr)
        return 2
    voices = _list(args.voices) if args.voices else list(VOICES_BY_LANGUAGE[args.language])
    if missing := missing_voices(voices):
        print(f"espeak-ng cannot speak with {', '.join(missing)}"
              + (" (an MBROLA voice mb-NAME needs the packages mbrola and mbrola-NAME)"
                 if any(v.startswith("mb-") for v in missing) else ""), file=sys.stderr)
        return 2
    colors = _list(args.colors)
    if not colors or set(colors) - {"white", "brown"}:
        print("--colors takes white and brown", file=sys.stderr)
        return 2
    speech = (args.count, voices, [int(s) for s in _list(args.speeds)],
              [int(p) for p in _list(args.pitches)], [float(n) for n in _list(args.noise)],
              args.seed, colors, args.language)
    clips = plan_table_talk(*speech) if args.chatter else plan(*speech, _list(args.kinds))
    if args.pause_inside:
        clips = with_pauses(clips, args.seed)
    reverbs = [int(r) for r in _list(args.reverb)]
    if any(reverbs):
        clips = with_reverb(clips, reverbs, args.seed)
    if not clips:
        print(f"no phrase of the kinds {args.kinds}", file=sys.stderr)
        return 2
    written = write_manifest(args.out, clips, args.language, voices)
    used = sorted({c.params.voice for c in written.clips})
    noisy = sum(c.params.noise > NOISE_FLOOR for c in written.clips)
    print(f"{len(written.clips)} clips, voices {', '.join(used)}, {noisy} with added noise: "
          f"{written.manifest}")
    if written.revoiced or written.left_out:
        lacking = sorted({f"{m.voice} {d}" for m in written.left_out for d in m.diphones})
        print(f"{written.revoiced} said by another voice and {len(written.left_out)} left "
              "out: their MBROLA voice lacks some of their sounds"
              + (f" ({', '.join(lacking)})" if lacking else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
