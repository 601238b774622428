"""`voice-spades bench voice`: how well spoken commands become the right intent.

    voice-spades bench voice --manifest FILE.tsv [--backend pocketsphinx|vosk|all]
                             [--grammar full|per-prompt|both] [--json]

The manifest has lines ``wav_path<TAB>transcript`` (16 kHz mono 16-bit WAVs,
paths relative to the manifest). Each clip is decoded with the full grammar
(every phrase sayable in any state), or with ``per-prompt`` the grammar of a
state in which its phrase is sayable, as the game does. A transcript outside the
grammar is expected to be rejected. Per backend and grammar it prints intent
accuracy, the wrong-intent rate (another intent that would act: the dangerous
error; an action the rules refuse does not act) and how many of those the
confirmation policy would not ask about, the rejection rate, the latency from
the end of the audio to the intent (median and 95th percentile) and the
real-time factor.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import wave
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    MarkCard,
    NotUnderstood,
    PlayCurrent,
    Propose,
)
from voice_spades.engine import (
    CARDS,
    Bid,
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    Match,
    Phase,
    PlayerView,
    cards_of,
    legal_mask,
    mask_of,
    profile,
)
from voice_spades.errors import SetupError
from voice_spades.narration import render_message
from voice_spades.voice.lexicon import default_lexicon
from voice_spades.voice.recognizers.base import BYTES_PER_SECOND, Recognizer
from voice_spades.voice.understanding.confirmation import decide
from voice_spades.voice.understanding.grammar import (
    Extreme,
    PhraseTable,
    build_phrases,
    full_grammar,
    meaning_kind,
)
from voice_spades.voice.understanding.meaning import normalize, read

BACKENDS = ("pocketsphinx", "vosk")


@dataclass(frozen=True, slots=True)
class Sample:
    """One manifest line."""

    wav: Path
    transcript: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one clip was understood."""

    transcript: str
    heard: str
    kind: str
    correct: bool
    wrong: bool
    """Another intent that would act (the dangerous error)."""
    unasked: bool
    """Wrong, not undone by saying the right thing next (a card, a bid, an answer,
    quitting; not a mark or a speech command), and not asked about first."""
    needless: bool | None
    """For a card, draw or exchange heard right: whether it was asked about anyway."""
    rejected: bool
    latency: float
    audio_seconds: float
    decode_seconds: float


def read_manifest(path: Path) -> list[Sample]:
    """The samples of a manifest; blank lines and ``#`` comments are skipped."""
    samples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        wav, sep, transcript = line.partition("\t")
        if not sep:
            raise ValueError(f"{path}:{number}: expected wav_path<TAB>transcript")
        samples.append(Sample(path.parent / wav, transcript.strip()))
    return samples


def load_pcm(path: Path) -> bytes:
    """The samples of a 16 kHz mono 16-bit WAV file."""
    with wave.open(str(path), "rb") as handle:
        if (handle.getframerate(), handle.getnchannels(), handle.getsampwidth()) != (16000, 1, 2):
            raise ValueError(f"{path}: expected 16 kHz mono 16-bit audio")
        return handle.readframes(handle.getnframes())


def prompt_table(phrase: str, seed: int) -> PhraseTable:
    """The grammar of a prompt at which ``phrase`` (of the full grammar) can be said."""
    rng = random.Random(seed)
    meaning = full_grammar().meanings[phrase]
    confirming, cursor = False, None
    if isinstance(meaning, Act) and isinstance(meaning.action, Card):
        view = _play_view(rng, meaning.action)
    elif isinstance(meaning, Extreme):
        view = _play_view(rng, rng.choice(cards_of(meaning.suit.mask)))
    elif isinstance(meaning, PlayCurrent) and phrase in default_lexicon().actions["play-it"]:
        view = _play_view(rng, None)
        cursor = rng.choice(view.hand_cards)
    elif isinstance(meaning, MarkCard | PlayCurrent) or meaning == Act(Exchange()):
        card = meaning.card if isinstance(meaning, MarkCard) else None
        view = replace(_play_view(rng, card), phase=Phase.EXCHANGE, legal=(Exchange(),))
    elif isinstance(meaning, Act) and isinstance(meaning.action, Bid):
        view = _bid_view(meaning.action.tricks > 13)
    elif isinstance(meaning, Act) and isinstance(meaning.action, BlindNilChoice | DrawChoice):
        view, confirming = _two_player_view(isinstance(meaning.action, DrawChoice)), True
    elif isinstance(meaning, Confirm | Cancel):
        view, confirming = _play_view(rng, None), True
    else:
        view = _play_view(rng, None) if rng.random() < 0.5 else _bid_view(False)
    table = build_phrases(view, confirming=confirming, cursor=cursor)
    if phrase not in table:
        raise ValueError(f"{phrase!r} is not sayable in the state built for it")
    return table


@cache
def _base_view(rules: str, players: int, phase: Phase) -> PlayerView:
    match = Match(profile(rules, players=players), seed=1)
    rng = random.Random(1)
    while match.view(0).phase != phase:
        match.apply(rng.choice(match.legal_actions()))
    assert match.to_act is not None
    return match.view(match.to_act)


def _play_view(rng: random.Random, card: Card | None) -> PlayerView:
    """A view leading the first trick, holding 13 random cards (and ``card``)."""
    if card is None:
        hand = mask_of(rng.sample(CARDS, 13))
    else:
        hand = mask_of([card, *rng.sample([c for c in CARDS if c != card], 12)])
    return replace(_base_view("pagat", 4, Phase.PLAY), hand=hand,
                   legal=tuple(cards_of(legal_mask(hand, None, False))))


def _bid_view(seventeen: bool) -> PlayerView:
    if seventeen:
        return _base_view("playroom", 3, Phase.BID)
    return _base_view("pagat", 4, Phase.BID)


def _two_player_view(draw: bool) -> PlayerView:
    if not draw:
        return _base_view("two-player", 2, Phase.BLIND_NIL)
    match = Match(profile("two-player"), seed=1)
    while match.view(0).phase == Phase.BLIND_NIL:
        match.apply(BlindNilChoice(False))
    assert match.to_act is not None
    return match.view(match.to_act)


def _acts(meaning: object, table: PhraseTable) -> bool:
    """True for an intent that would change something: not a query, not a miss, not
    an action the engine refuses (the session only says why)."""
    if meaning is None or isinstance(meaning, Ask | NotUnderstood):
        return False
    return not isinstance(meaning, Act | PlayCurrent) or meaning in table.legal


CHUNK_SECONDS = 0.1
"""Audio is streamed to the recognizer in blocks this long, as a microphone sends it."""


def decode_one(recognizer: Recognizer, table: PhraseTable, pcm: bytes, transcript: str,
               expected: object, state_free: bool, kind: str = "none") -> Outcome:
    """Stream ``pcm`` to the recognizer (``table`` loaded) and compare with ``expected``.

    The latency runs from the last block of audio to the intent: decoding the
    earlier blocks overlaps the speech, as it does live.
    """
    chunk = int(CHUNK_SECONDS * BYTES_PER_SECOND)
    cut = max(0, (len(pcm) - 1) // chunk * chunk)
    recognizer.start()
    busy = time.perf_counter()
    for offset in range(0, cut, chunk):
        recognizer.feed(pcm[offset:offset + chunk])
    start = time.perf_counter()
    recognizer.feed(pcm[cut:])
    result = recognizer.finish()
    reading = read(result, table)
    end = time.perf_counter()
    got: object = reading.meaning if state_free else reading.intent
    if isinstance(got, NotUnderstood):
        got = None
    wrong = got != expected and _acts(got, table)
    asked = isinstance(decide(reading, table), Propose)
    lasting = isinstance(got, Act | PlayCurrent | Extreme | Confirm) \
        or got == Command(Control.SAVE_AND_QUIT)
    play = isinstance(expected, Act | PlayCurrent | Extreme) and got == expected \
        and not (isinstance(expected, Act) and isinstance(expected.action, Bid | BlindNilChoice))
    return Outcome(transcript, result.text or "", kind, got == expected, wrong,
                   wrong and lasting and not asked, asked if play else None,
                   got is None and expected is not None,
                   end - start, len(pcm) / BYTES_PER_SECOND, end - busy)


def run(recognizer: Recognizer, samples: Sequence[Sample], grammar: str,
        seed: int = 1) -> list[Outcome]:
    """Decode every sample with the full or the per-prompt grammar."""
    outcomes = []
    full = full_grammar()
    if grammar == "full":
        recognizer.set_phrases(full.phrases)
    for number, sample in enumerate(samples):
        pcm = load_pcm(sample.wav)
        text = normalize(sample.transcript)
        meaning = full.meanings.get(text)
        expected: object = meaning
        if grammar == "full":
            table = full
        elif meaning is None:
            table = build_phrases(_play_view(random.Random(seed + number), None),
                                  confirming=False, cursor=None)
        else:
            table = prompt_table(text, seed + number)
            expected = table.intent(text)
        if grammar != "full":
            recognizer.set_phrases(table.phrases)
        kind = meaning_kind(meaning) if meaning is not None else "none"
        outcomes.append(decode_one(recognizer, table, pcm, sample.transcript, expected,
                                   state_free=table is full, kind=kind))
    return outcomes


def summary(backend: str, grammar: str, outcomes: Sequence[Outcome]) -> dict[str, object]:
    """The figures of one backend and grammar."""
    n = max(len(outcomes), 1)
    latencies = sorted(o.latency * 1000 for o in outcomes) or [0.0]
    audio = sum(o.audio_seconds for o in outcomes)
    return {
        "backend": backend, "grammar": grammar, "clips": len(outcomes),
        "intent_accuracy": round(sum(o.correct for o in outcomes) / n, 4),
        "wrong_intent_rate": round(sum(o.wrong for o in outcomes) / n, 4),
        "wrong_unconfirmed_rate": round(sum(o.unasked for o in outcomes) / n, 4),
        "needless_question_rate": round(sum(o.needless is True for o in outcomes)
                                        / max(1, sum(o.needless is not None for o in outcomes)),
                                        4),
        "rejection_rate": round(sum(o.rejected for o in outcomes) / n, 4),
        "latency_ms_median": round(statistics.median(latencies), 1),
        "latency_ms_p95": round(latencies[min(len(latencies) - 1,
                                              int(0.95 * len(latencies)))], 1),
        "real_time_factor": round(sum(o.decode_seconds for o in outcomes) / audio, 4)
        if audio else 0.0,
    }


def _print_row(row: dict[str, object], outcomes: Sequence[Outcome], verbose: bool) -> None:
    print(f"{row['backend']} ({row['grammar']} grammar, {row['clips']} clips): "
          f"intent accuracy {row['intent_accuracy']:.2%}, "
          f"wrong intent {row['wrong_intent_rate']:.2%} "
          f"({row['wrong_unconfirmed_rate']:.2%} not asked about), "
          f"rejected {row['rejection_rate']:.2%}, "
          f"right plays asked about {row['needless_question_rate']:.2%}, "
          f"latency median {row['latency_ms_median']} ms, p95 {row['latency_ms_p95']} ms, "
          f"real-time factor {row['real_time_factor']}")
    kinds: dict[str, list[bool]] = {}
    for o in outcomes:
        kinds.setdefault(o.kind, []).append(o.correct)
    print("  by kind: " + ", ".join(f"{kind} {sum(ok) / len(ok):.0%} of {len(ok)}"
                                    for kind, ok in sorted(kinds.items())))
    misses = [o for o in outcomes if not o.correct]
    for o in misses if verbose else misses[:10]:
        label = "WRONG" if o.wrong else "rejected" if o.rejected else "miss"
        print(f"  {label}: {o.transcript!r} heard as {o.heard!r} ({o.kind})")


def open_backend(name: str) -> Recognizer:
    """A recognizer of the named backend; raises SetupError (or ImportError) when it
    cannot run here (Vosk without a model)."""
    if name == "pocketsphinx":
        from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
        return PocketSphinxRecognizer()
    from voice_spades.voice.recognizers.vosk_recognizer import VoskRecognizer
    return VoskRecognizer()


def main(argv: list[str] | None = None,
         opener: Callable[[str], Recognizer] = open_backend) -> int:
    """Run the benchmark; ``opener`` builds a recognizer by backend name."""
    parser = argparse.ArgumentParser(prog="voice-spades bench voice")
    parser.add_argument("--manifest", type=Path, required=True)
    parser.add_argument("--backend", choices=(*BACKENDS, "all"), default="pocketsphinx")
    parser.add_argument("--grammar", choices=("full", "per-prompt", "both"), default="full")
    parser.add_argument("--seed", type=int, default=1, help="seed of the per-prompt states")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    try:
        samples = read_manifest(args.manifest)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        print(f"voice-spades bench voice: cannot read the manifest {args.manifest}: {reason}",
              file=sys.stderr)
        return 2
    rows = []
    grammars = ("full", "per-prompt") if args.grammar == "both" else (args.grammar,)
    for backend in BACKENDS if args.backend == "all" else (args.backend,):
        try:
            recognizer = opener(backend)
        except (SetupError, ImportError) as error:
            why = render_message(error.message) if isinstance(error, SetupError) else error
            print(f"{backend}: skipped: {why}")
            continue
        for grammar in grammars:
            outcomes = run(recognizer, samples, grammar, args.seed)
            row = summary(backend, grammar, outcomes)
            _print_row(row, outcomes, args.verbose)
            rows.append(row)
    if args.json:
        print(json.dumps(rows))
    return 0 if rows else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
