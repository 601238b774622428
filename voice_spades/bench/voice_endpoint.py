"""`voice-spades bench voice --through-microphone`: from the end of speech to the decision.

    voice-spades bench voice --manifest FILE.tsv --through-microphone [--seed N]
                             [--language en|it|fr] [--backend pocketsphinx|vosk]
                             [--decode-quiet SECONDS] [--decode-time modelled|measured]
                             [--no-confirm] [--verbose] [--json]

Each clip of the manifest is heard as the game hears it: through a
:class:`~voice_spades.voice.audio.microphone.Microphone` (open mode, the game's
detector settings) with an :class:`~voice_spades.voice.early_end.EarlyEnd`, at a
prompt where its phrase can be said (the per-prompt grammar of ``bench voice``; table
talk at every prompt of :data:`CHATTER_PROMPTS`). Every clip is heard twice, with
the early end and without it (the utterance then ends only after the full quiet),
each path by a recognizer of its own so that neither reuses the other's results.

How latency is measured. The clip is set in its own background noise: 20 ms pieces
drawn (by the seed) from its first and last 0.1 s make :data:`LEAD_SECONDS` before
it and :data:`TAIL_SECONDS` after it, so the detector's noise floor has settled
and the full quiet can pass. The end of speech is the end of the clip's last
20 ms frame at least :data:`SPEECH_ABOVE_DB` above its quietest tenth (the level
the detector measures). The audio goes to ``Microphone.process`` one 20 ms frame
at a time on a virtual clock that stands at the end of the frame just fed. The
early end's thread is modelled on that clock: a pause (offered after
``--decode-quiet`` seconds) is decoded once the thread is free, the newest pause
replacing one not started and one after which speech resumed being dropped; the
decode runs with the clock stopped and takes its decoding time of virtual time;
only then may it end the utterance (which the microphone delivers
when the pause reaches the early length, or at once if it has). A decode of a
pause after which speech went on still runs to its end, and a later decode or the
listener's own decode waits for it. The decision time is then:

* an utterance ended early: when the microphone delivered it, plus the time of
  deciding on it (``bench voice``'s decode and decision; the recognizer answers
  from the pause's result);
* an utterance ended by the full quiet: when it was delivered, or later if the
  decode of its last pause (same audio: the game reuses its result) or of an
  earlier one would still be running then, plus the time of deciding on it.

Latency is the decision time less the end of speech; the device's own buffering is
not counted (the same on both paths). A decode's time is modelled from its audio's
length (``--decode-time modelled``, the default: :mod:`.decode_time`), so a run
repeats itself; ``--decode-time measured`` counts CPU time (``thread_time``), so
that the figure holds on a loaded machine, and where the recognizer scores part of
a decode in a process of its own (PocketSphinx's phone loop, on a machine with a
second core), a second core is modelled as free: the decode takes the deciding
thread's CPU time plus, per clip sent to that process, how much longer the
process's CPU time on it was than the deciding thread's CPU time between sending
the clip and asking for its answer (``parallel_wait_seconds``). The report gives
the measured real-time factor either way. A clip's outcome is that of its last
utterance; one that acts wrongly unasked anywhere counts as such.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voice_spades.bench.decode_time import DECODE_TIMES, decoding_line, timed
from voice_spades.bench.endpoint_ear import Ear
from voice_spades.bench.voice import (
    BACKENDS,
    Outcome,
    Sample,
    decode_one,
    load_pcm,
    open_backend,
    open_manifest,
)
from voice_spades.errors import SetupError
from voice_spades.narration import render_message
from voice_spades.voice.audio.vad import SAMPLE_RATE, VadSettings, energy_db
from voice_spades.voice.lexicon import LANGUAGES, Lexicon, lexicon_for
from voice_spades.voice.recognizers.base import Recognizer, load_phrases
from voice_spades.voice.testing.prompts import CHATTER_PROMPTS, chatter_table, prompt_table
from voice_spades.voice.understanding.confirmation import DEFAULT_POLICY, ConfirmationPolicy
from voice_spades.voice.understanding.grammar import (
    Listening,
    PhraseTable,
    full_grammar,
    meaning_kind,
)
from voice_spades.voice.understanding.meaning import normalize

LEAD_SECONDS = 1.0
"""Background noise heard before the clip."""
TAIL_SECONDS = 1.0
"""Background noise heard after the clip (more than the full quiet)."""
EDGE_SECONDS = 0.1
"""The clip's first and last stretch, whose pieces make the background noise."""
SPEECH_ABOVE_DB = 15.0
"""How far above the clip's quietest tenth a frame is speech, for the end of speech."""

_FRAME = VadSettings().frame_bytes
_FRAME_SECONDS = VadSettings().frame_seconds


@dataclass(frozen=True, slots=True)
class Decision:
    """One utterance the microphone delivered, and what the game decided on it."""

    outcome: Outcome
    latency: float
    """Seconds from the end of speech to the decision (see the module doc)."""
    early: bool
    """Ended at a short pause by the early end."""
    waited: float = 0.0
    """Seconds of the latency spent waiting for the decode of an earlier pause after
    which speech went on (the recognizer cannot be interrupted)."""


@dataclass(frozen=True, slots=True)
class Heard:
    """One clip at one prompt, heard with and without the early end."""

    transcript: str
    prompt: str
    kind: str
    early: tuple[Decision, ...]
    plain: tuple[Decision, ...]


def end_of_speech(pcm: bytes) -> float:
    """Where the speech of a clip ends, in seconds (see :data:`SPEECH_ABOVE_DB`)."""
    levels = [energy_db(pcm[i:i + _FRAME]) for i in range(0, len(pcm) - _FRAME + 1, _FRAME)]
    if not levels:
        return len(pcm) / 2 / SAMPLE_RATE
    floor = float(np.percentile(levels, 10))
    loud = [i for i, level in enumerate(levels) if level >= floor + SPEECH_ABOVE_DB]
    return (loud[-1] + 1) * _FRAME_SECONDS if loud else len(pcm) / 2 / SAMPLE_RATE


def background(pcm: bytes, seconds: float, rng: np.random.Generator) -> bytes:
    """``seconds`` of the clip's own background: random frames of its edges."""
    edge = round(EDGE_SECONDS * SAMPLE_RATE) * 2
    source = pcm[:edge] + pcm[-edge:] if len(pcm) >= 2 * edge else pcm
    if len(source) < _FRAME:
        return bytes(round(seconds * SAMPLE_RATE) * 2)
    starts = rng.integers(0, (len(source) - _FRAME) // 2 + 1, round(seconds / _FRAME_SECONDS))
    return b"".join(source[2 * int(s):2 * int(s) + _FRAME] for s in starts)


def _tries(text: str, number: int, seed: int, lexicon: Lexicon,
           meaning: object) -> list[tuple[str, PhraseTable, object]]:
    """The prompts a clip is heard at, their phrases, and the intent expected there."""
    if meaning is None:
        return [(prompt, chatter_table(prompt, seed + number, lexicon), None)
                for prompt in CHATTER_PROMPTS]
    prompt, table = prompt_table(text, seed + number, lexicon)
    return [(prompt, table, meaning if isinstance(meaning, Listening) else table.intent(text))]


def run(recognizers: tuple[Recognizer, Recognizer], samples: Sequence[Sample], seed: int = 1,
        lexicon: Lexicon | None = None,
        policy: ConfirmationPolicy = DEFAULT_POLICY, vad: VadSettings | None = None
        ) -> list[Heard]:
    """Hear every sample through the microphone (``vad``: its detector's settings) with
    the early end (by the first recognizer) and without it (by the second)."""
    lex = lexicon or lexicon_for("en")
    full = full_grammar(lex)
    heard = []
    for number, sample in enumerate(samples):
        pcm = load_pcm(sample.wav)
        rng = np.random.default_rng([seed, number])
        audio = background(pcm, LEAD_SECONDS, rng) + pcm + background(pcm, TAIL_SECONDS, rng)
        speech_end = LEAD_SECONDS + end_of_speech(pcm)
        text = normalize(sample.transcript, lex)
        meaning = full.meanings.get(text)
        kind = meaning_kind(meaning) if meaning is not None else "chatter"
        for prompt, table, expected in _tries(text, number, seed, lex, meaning):
            paths = []
            for recognizer, early in zip(recognizers, (True, False), strict=True):
                load_phrases(recognizer, table.phrases,
                             [table.meanings[p] for p in table.phrases])

                judge = functools.partial(decode_one, recognizer, table,
                                          transcript=sample.transcript, expected=expected,
                                          state_free=False, kind=kind, prompt=prompt,
                                          lexicon=lex, policy=policy)
                ear = Ear(recognizer, table, judge, early, vad)
                ear.hear(audio)
                paths.append(tuple(Decision(outcome, at - speech_end, ended, waited)
                                   for at, outcome, ended, waited in ear.decided))
            heard.append(Heard(sample.transcript, prompt, kind, paths[0], paths[1]))
    return heard


def _unasked(decisions: Sequence[Decision]) -> bool:
    return any(d.outcome.unasked or (d.outcome.kind == "chatter" and d.outcome.answer == "act")
               for d in decisions)


def _correct(decisions: Sequence[Decision]) -> bool:
    return bool(decisions) and decisions[-1].outcome.correct


def _said(decisions: Sequence[Decision]) -> tuple[tuple[str, str, bool], ...]:
    return tuple((d.outcome.heard, d.outcome.answer, d.outcome.correct) for d in decisions)


def _ms(latencies: Sequence[float]) -> dict[str, float | None]:
    if not latencies:
        return {"median": None, "p95": None}
    ordered = sorted(latencies)
    return {"median": round(statistics.median(ordered) * 1000, 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000, 1)}


def figures(heard: Sequence[Heard]) -> dict[str, object]:
    """The figures of some clips: early ends, outcomes changed by them, accuracy and
    wrong actions not asked about (with and without), and latency in milliseconds."""
    n = len(heard)
    fired = [h for h in heard if h.early and h.early[-1].early]
    rest = [h for h in heard if h.early and not h.early[-1].early]
    changed = [h for h in heard if _said(h.early) != _said(h.plain)]
    stale = [h for h in heard if h.early and h.early[-1].waited > 0]
    return {
        "clips": n,
        "early_ended": len(fired),
        "changed": len(changed),
        "changed_wrong_unasked": sum(_unasked(h.early) for h in changed),
        "accuracy": round(sum(_correct(h.early) for h in heard) / n, 4) if n else 0.0,
        "wrong_unasked": sum(_unasked(h.early) for h in heard),
        "unheard": sum(not h.early for h in heard),
        "latency_ms": _ms([h.early[-1].latency for h in heard if h.early]),
        "latency_ms_early_ended": _ms([h.early[-1].latency for h in fired]),
        "latency_ms_not_early_ended": _ms([h.early[-1].latency for h in rest]),
        "waited_for_stale": len(stale),
        "stale_wait_ms": _ms([h.early[-1].waited for h in stale]),
        "plain_accuracy": round(sum(_correct(h.plain) for h in heard) / n, 4) if n else 0.0,
        "plain_wrong_unasked": sum(_unasked(h.plain) for h in heard),
        "plain_latency_ms": _ms([h.plain[-1].latency for h in heard if h.plain]),
    }


def summary(heard: Sequence[Heard]) -> dict[str, object]:
    """Figures over the commands, then per prompt (``prompts``), and over table talk
    (``chatter``) if there is any."""
    commands = [h for h in heard if h.kind != "chatter"]
    row: dict[str, object] = figures(commands)
    row["prompts"] = {p: figures([h for h in commands if h.prompt == p])
                      for p in sorted({h.prompt for h in commands})}
    chatter = [h for h in heard if h.kind == "chatter"]
    if chatter:
        row["chatter"] = figures(chatter)
    return row


def _line(f: dict[str, object]) -> str:
    def ms(key: str) -> str:
        value = f[key]
        assert isinstance(value, dict)
        return "-" if value["median"] is None else f"{value['median']}/{value['p95']}"

    return (f"{f['clips']} clips, early end {f['early_ended']}, changed {f['changed']} "
            f"({f['changed_wrong_unasked']} wrong not asked), accuracy {f['accuracy']:.2%}, "
            f"wrong not asked {f['wrong_unasked']}, unheard {f['unheard']}; "
            f"latency median/p95 ms {ms('latency_ms')} (early-ended "
            f"{ms('latency_ms_early_ended')}, not {ms('latency_ms_not_early_ended')}; "
            f"{f['waited_for_stale']} waited {ms('stale_wait_ms')} for a stale decode); "
            f"without the early end: accuracy {f['plain_accuracy']:.2%}, wrong not asked "
            f"{f['plain_wrong_unasked']}, latency {ms('plain_latency_ms')}")


def _story(decisions: Sequence[Decision]) -> str:
    """What was heard and done, utterance by utterance."""
    return ", then ".join(f"heard {d.outcome.heard!r} ({d.outcome.answer}"
                          f"{', ended early' if d.early else ''}"
                          f"{', WRONG' if d.outcome.wrong else ''})"
                          for d in decisions) or "nothing heard"


def main(argv: list[str] | None = None,
         opener: Callable[[str], Recognizer] | None = None) -> int:
    """Run the benchmark; ``opener`` builds a recognizer by backend name (by default
    :func:`~voice_spades.bench.voice.open_backend` for the language), twice."""
    parser = argparse.ArgumentParser(prog="voice-spades bench voice --through-microphone")
    parser.add_argument("--manifest", type=Path, required=True)
    parser.add_argument("--language", choices=LANGUAGES,
                        help="the phrases' language (default: the manifest's, else English)")
    parser.add_argument("--backend", choices=BACKENDS, default="pocketsphinx")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the per-prompt states and the background noise")
    parser.add_argument("--no-confirm", action="store_true",
                        help="decide as a player who switched bid questions off")
    parser.add_argument("--decode-quiet", type=float, default=VadSettings().decode_quiet_seconds,
                        help="seconds of quiet after which a pause is decoded (and kept "
                             "at the end of an utterance); default %(default)s")
    parser.add_argument("--decode-time", choices=DECODE_TIMES, default="modelled",
                        help="count each decode's time as modelled from its audio's length "
                             "(reproducible) or as measured (CPU time); default %(default)s")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    opened = open_manifest(args.manifest, args.language)
    if opened is None:
        return 2
    samples, language = opened
    open_one = opener or functools.partial(open_backend, language=language)
    try:
        modelled = args.decode_time == "modelled"
        recognizers = (timed(open_one(args.backend), modelled),
                       timed(open_one(args.backend), modelled))
    except (SetupError, ImportError) as error:
        why = render_message(error.message) if isinstance(error, SetupError) else error
        print(f"{args.backend}: skipped: {why}")
        return 1
    heard = run(recognizers, samples, args.seed, lexicon_for(language),
                ConfirmationPolicy(confirm_bids=not args.no_confirm),
                VadSettings(decode_quiet_seconds=args.decode_quiet))
    row = {"backend": args.backend, "language": language, "seed": args.seed,
           **summary(heard), "decode_time": args.decode_time,
           "decoding": recognizers[0].times.summary()}
    print(f"{args.backend} through the microphone (seed {args.seed}): {_line(row)}")
    print(f"  {decoding_line(args.decode_time, row['decoding'])}")
    prompts = row["prompts"]
    assert isinstance(prompts, dict)
    for prompt, f in prompts.items():
        print(f"  at the {prompt} prompt: {_line(f)}")
    chatter = row.get("chatter")
    if isinstance(chatter, dict):
        print(f"  table talk: {_line(chatter)}")
    misses = [h for h in heard if not _correct(h.early) or _unasked(h.early)
              or _said(h.early) != _said(h.plain)]
    for h in misses if args.verbose else misses[:10]:
        print(f"  {h.transcript!r} at the {h.prompt} prompt: {_story(h.early)}; "
              f"without the early end: {_story(h.plain)}")
    if args.json:
        print(json.dumps([row]))
    return 0
