"""`voice-spades bench voice`: how well spoken commands become the right intent.

    voice-spades bench voice --manifest FILE.tsv [--language en|it|fr]
                             [--backend pocketsphinx|vosk|all]
                             [--grammar full|per-prompt|both] [--seed N] [--json]
                             [--no-confirm] [--dump FILE.jsonl]
    voice-spades bench voice --manifest FILE.tsv --through-microphone [--seed N] [--json]

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

Table talk (a transcript outside the grammar, ``manifest --chatter``) is tried at
every prompt of :data:`CHATTER_PROMPTS` and counted per prompt by what the game would
do: act unasked (the failure), ask, answer as a query, "say again", ignore (noise, or
anything but the wake phrase while asleep). ``--no-confirm`` decides as a player who
switched bid questions off.

The phrases are those of the manifest's language (its first line ``# language: it``,
else English), or of ``--language``; PocketSphinx then hears them through the
language's pronunciations, Vosk with the language's model. Where a question offers
the runner-up ("Quattro? O tre?"), the figures count the wrong actions whose question
offered the right one.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
import time
import wave
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from voice_spades.bench.voice_outcomes import Outcome, print_row, summary
from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    NotUnderstood,
    PlayCurrent,
    Propose,
    answered_decision,
)
from voice_spades.engine import Bid, BlindNilChoice
from voice_spades.errors import SetupError
from voice_spades.narration import render_message
from voice_spades.voice.audio.features import voiced_fraction
from voice_spades.voice.learning import teaches
from voice_spades.voice.lexicon import LANGUAGES, Lexicon, default_lexicon, lexicon_for
from voice_spades.voice.models.locations import find_vosk_model
from voice_spades.voice.recognizers.base import (
    BYTES_PER_SECOND,
    Recognition,
    Recognizer,
    load_phrases,
)
from voice_spades.voice.testing.manifest import LANGUAGE_HEADER
from voice_spades.voice.testing.prompts import CHATTER_PROMPTS, chatter_table, prompt_table
from voice_spades.voice.understanding.confirmation import (
    DEFAULT_POLICY,
    ConfirmationPolicy,
    asleep_reminder,
    decide,
    fits_like_table_talk,
    offered_choices,
    reading_kind,
    switch,
)
from voice_spades.voice.understanding.grammar import (
    Extreme,
    Listening,
    PhraseTable,
    full_grammar,
    meaning_kind,
)
from voice_spades.voice.understanding.meaning import Reading, normalize, read

__all__ = ["BACKENDS", "Outcome", "Sample", "decode_one", "load_pcm", "main", "open_backend",
           "open_manifest", "read_manifest", "run", "summary"]

BACKENDS = ("pocketsphinx", "vosk")


@dataclass(frozen=True, slots=True)
class Sample:
    """One manifest line."""

    wav: Path
    transcript: str
    speaker: str = ""
    """Who said it (the synthesizer's voice), where the manifest names one."""


def manifest_language(path: Path) -> str:
    """The language a manifest names on its first line (``# language: it``), else "en"."""
    with path.open(encoding="utf-8") as handle:
        first = handle.readline()
    if first.startswith(LANGUAGE_HEADER):
        return first[len(LANGUAGE_HEADER):].strip()
    return "en"


def read_manifest(path: Path) -> list[Sample]:
    """The samples of a manifest (``wav<TAB>transcript``, then optionally ``<TAB>speaker``);
    blank lines and ``#`` comments are skipped."""
    samples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        wav, sep, rest = line.partition("\t")
        if not sep:
            raise ValueError(f"{path}:{number}: expected wav_path<TAB>transcript")
        transcript, _, speaker = rest.partition("\t")
        samples.append(Sample(path.parent / wav, transcript.strip(), speaker.strip()))
    return samples


def load_pcm(path: Path) -> bytes:
    """The samples of a 16 kHz mono 16-bit WAV file."""
    with wave.open(str(path), "rb") as handle:
        if (handle.getframerate(), handle.getnchannels(), handle.getsampwidth()) != (16000, 1, 2):
            raise ValueError(f"{path}: expected 16 kHz mono 16-bit audio")
        return handle.readframes(handle.getnframes())


def _acts(meaning: object, table: PhraseTable) -> bool:
    """True for an intent that would change something: not a query, not a miss, not
    an action the engine refuses (the session only says why)."""
    if meaning is None or isinstance(meaning, Ask | NotUnderstood):
        return False
    return not isinstance(meaning, Act | PlayCurrent) or meaning in table.legal


def _as_decision(intent: object, table: PhraseTable) -> object:
    """``intent``, but a yes or a no at the blind nil or draw decision with no question of
    the player's own pending (the prompts tried here hold none) as the decision it makes
    there (the session's rule): "nope" said for "not blind" declines blind nil."""
    if isinstance(intent, Confirm) and not table.offered and table.phase is not None:
        decision = answered_decision(table.phase, intent.yes)
        if decision is not None:
            return Act(decision)
    return intent


CHUNK_SECONDS = 0.1
"""Audio is streamed to the recognizer in blocks this long, as a microphone sends it."""


NOISE_VOICING = 0.2
"""As the listener: a rejected utterance with fewer voiced frames is ignored as noise."""


def decode_one(recognizer: Recognizer, table: PhraseTable, pcm: bytes, transcript: str,
               expected: object, state_free: bool, kind: str = "none",
               prompt: str = "full", lexicon: Lexicon | None = None,
               policy: ConfirmationPolicy = DEFAULT_POLICY) -> Outcome:
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
    reading = read(result, table, lexicon)
    decided = decide(reading, table, policy, lexicon)
    end = time.perf_counter()
    offered = offered_choices(reading, table, lexicon) if isinstance(decided, Propose) else ()
    got: object = reading.meaning if state_free else _as_decision(reading.intent, table)
    if isinstance(reading.meaning, Listening):
        got = switch(reading, lexicon)
    if isinstance(got, NotUnderstood) or (isinstance(decided, NotUnderstood)
                                          and not isinstance(reading.meaning, Listening)):
        got = None  # (heard too unsurely to act or ask: "say again")
    wrong = got != expected and _acts(got, table)
    asked = isinstance(decided, Propose)
    lasting = isinstance(got, Act | PlayCurrent | Extreme | Confirm | Listening) \
        or got == Command(Control.SAVE_AND_QUIT)
    play = isinstance(expected, Act | PlayCurrent | Extreme) and got == expected \
        and not (isinstance(expected, Act) and isinstance(expected.action, Bid | BlindNilChoice))
    if asked:
        answer = "ask"
    elif got is None:
        # Asleep, the game says nothing to what is not the wake phrase, but for the
        # sleep word or an unsure wake phrase: it says how to wake voice.
        if prompt == "asleep":
            answer = "remind" if asleep_reminder(reading, lexicon or default_lexicon()) \
                else "ignore"
        else:
            answer = "ignore" if result.rejected and voiced_fraction(pcm) < NOISE_VOICING \
                else "sorry"
    else:
        answer = "act" if _acts(got, table) and lasting else "query"
    details = {"confidence": round(result.confidence, 4), "cost": reading.cost,
               "alternatives": [[t, round(p, 4)] for t, p in result.alternatives[:3]],
               "rivals": len(reading.rivals), "reason": result.reason,
               "acts": _acts(got, table) and lasting, "expected_acts": _acts(expected, table),
               "phrase": reading.phrase, "teaches": teaches(decided, table),
               "fit": round(reading.fit, 4), "kind": reading_kind(reading),
               "alone_fit": None if reading.alone_fit is None else round(reading.alone_fit, 4)}
    found = getattr(recognizer, "last_details", None)
    if found is not None and getattr(found, "verification", None) is not None:
        details["verification"] = round(found.verification, 4)
        details["gap"] = round(found.phone_loop_gap, 2)
        if getattr(found, "search_verification", None) is not None:
            details["searched"] = round(found.search_verification, 4)
        if getattr(found, "alone_verification", None) is not None:
            details["alone"] = round(found.alone_verification, 4)
    return Outcome(transcript, result.text or "", kind, got == expected, wrong,
                   wrong and lasting and not asked, asked if play else None,
                   got is None and expected is not None,
                   end - start, len(pcm) / BYTES_PER_SECOND, end - busy, details, prompt, answer,
                   wrong and expected in offered,
                   _turned_away(result, reading, table, expected, lexicon or default_lexicon(),
                                policy) if got is None and expected is not None else "")


def _turned_away(result: Recognition, reading: Reading, table: PhraseTable,
                 expected: object, lexicon: Lexicon, policy: ConfirmationPolicy) -> str:
    """For a command answered "say again": the gate that turned it away when the phrase
    heard (or, rejected by the recognizer, its best) meant the right intent: "floor" (a
    table-talk floor of its kind), "answer" (an answer under its confidence bar),
    "recognizer" (the recognizer's own threshold), "other"; "" when it was misheard."""
    heard = result.text or (result.alternatives[0][0] if result.alternatives else "")
    phrase = normalize(heard, lexicon)
    if not heard or expected not in (table.intent(phrase), table.meanings.get(phrase)):
        return ""
    if result.rejected:
        return "recognizer"
    if policy.reject_table_talk and fits_like_table_talk(reading, reading_kind(reading),
                                                         lexicon):
        return "floor"
    return "answer" if isinstance(reading.intent, Confirm | Cancel) else "other"


def run(recognizer: Recognizer, samples: Sequence[Sample], grammar: str,
        seed: int = 1, lexicon: Lexicon | None = None,
        policy: ConfirmationPolicy = DEFAULT_POLICY,
        numbers: Sequence[int] = ()) -> list[Outcome]:
    """Decode every sample with the full or the per-prompt grammar (of ``lexicon``'s
    language, English by default) and decide on it with ``policy``. With per-prompt
    grammars a command is tried at a prompt where it can be said, and speech outside
    the grammar at every prompt of :data:`CHATTER_PROMPTS`; the prompts' states are
    drawn from ``seed`` and each sample's place in its manifest (``numbers``, by
    default their order here)."""
    outcomes = []
    lex = lexicon or lexicon_for("en")
    full = full_grammar(lex)
    if grammar == "full":
        load_phrases(recognizer, full.phrases, [full.meanings[p] for p in full.phrases])
    for place, sample in enumerate(samples):
        number = numbers[place] if numbers else place
        pcm = load_pcm(sample.wav)
        text = normalize(sample.transcript, lex)
        meaning = full.meanings.get(text)
        kind = meaning_kind(meaning) if meaning is not None else "chatter"
        if grammar == "full":
            outcomes.append(decode_one(recognizer, full, pcm, sample.transcript, meaning,
                                       state_free=True, kind=kind, lexicon=lex,
                                       policy=policy))
            continue
        if meaning is None:
            tries = [(prompt, chatter_table(prompt, seed + number, lex))
                     for prompt in CHATTER_PROMPTS]
        else:
            tries = [prompt_table(text, seed + number, lex)]
        for prompt, table in tries:
            load_phrases(recognizer, table.phrases, [table.meanings[p] for p in table.phrases])
            expected = meaning if isinstance(meaning, Listening) else table.intent(text)
            outcomes.append(decode_one(recognizer, table, pcm, sample.transcript, expected,
                                       state_free=False, kind=kind, prompt=prompt,
                                       lexicon=lex, policy=policy))
    return outcomes


def open_manifest(path: Path, language: str | None) -> tuple[list[Sample], str] | None:
    """The manifest's samples and language (``language`` if given, else the manifest's
    own); None, with the reason printed, when it cannot be read or its language is
    unknown."""
    try:
        samples = read_manifest(path)
        language = language or manifest_language(path)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        print(f"voice-spades bench voice: cannot read the manifest {path}: {reason}",
              file=sys.stderr)
        return None
    if language not in LANGUAGES:
        print(f"voice-spades bench voice: the manifest's language {language!r} is not one "
              f"of {', '.join(LANGUAGES)}", file=sys.stderr)
        return None
    return samples, language


def open_backend(name: str, language: str = "en") -> Recognizer:
    """A recognizer of the named backend for ``language``; raises SetupError (or
    ImportError) when it cannot run here (Vosk without a model of the language)."""
    if name == "pocketsphinx":
        from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
        return PocketSphinxRecognizer(lexicon=lexicon_for(language))
    from voice_spades.voice.recognizers.vosk_recognizer import VoskRecognizer
    return VoskRecognizer(find_vosk_model(language=language))


def main(argv: list[str] | None = None,
         opener: Callable[[str], Recognizer] | None = None) -> int:
    """Run the benchmark; ``opener`` builds a recognizer by backend name (by default
    :func:`open_backend` for the language)."""
    if "--room" in (sys.argv[1:] if argv is None else argv):  # issue 12: its own bench,
        room = importlib.import_module("voice_spades.bench.voice_room")  # as cli routes
        return int(room.main([a for a in (sys.argv[1:] if argv is None else argv)
                              if a != "--room"]))
    if "--through-microphone" in (sys.argv[1:] if argv is None else argv):
        endpoint = importlib.import_module("voice_spades.bench.voice_endpoint")
        return int(endpoint.main([a for a in (sys.argv[1:] if argv is None else argv)
                                  if a != "--through-microphone"], opener))
    parser = argparse.ArgumentParser(prog="voice-spades bench voice")
    parser.add_argument("--manifest", type=Path, required=True)
    parser.add_argument("--language", choices=LANGUAGES,
                        help="the phrases' language (default: the manifest's, else English)")
    parser.add_argument("--backend", choices=(*BACKENDS, "all"), default="pocketsphinx")
    parser.add_argument("--grammar", choices=("full", "per-prompt", "both"), default="full")
    parser.add_argument("--seed", type=int, default=1, help="seed of the per-prompt states")
    parser.add_argument("--no-confirm", action="store_true",
                        help="decide as a player who switched bid questions off")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("--dump", type=Path, help="write every clip's outcome here (JSON lines)")
    parser.add_argument("--through-microphone", action="store_true",
                        help="latency from the end of speech, early end on and off "
                             "(bench/voice_endpoint.py)")
    parser.add_argument("--enroll", action="store_true",
                        help="each speaker first reads the voice training's script "
                             "(PocketSphinx adapted to each; bench/voice_enrolled.py)")
    parser.add_argument("--enroll-length", type=int, default=None,
                        help="phrases of the script read (default: the whole script)")
    parser.add_argument("--learn", action="store_true",
                        help="each speaker's clips in turn, the voice learnt from the "
                             "commands carried out, as in a game (bench/voice_learnt.py)")
    parser.add_argument("--learn-at", type=int, nargs="+", default=None,
                        help="after how many commands the voice is learnt (default: the "
                             "game's)")
    args = parser.parse_args(argv)
    opened = open_manifest(args.manifest, args.language)
    if opened is None:
        return 2
    samples, language = opened
    lexicon = lexicon_for(language)
    open_one = opener or functools.partial(open_backend, language=language)
    rows = []
    grammars = ("full", "per-prompt") if args.grammar == "both" else (args.grammar,)
    for backend in BACKENDS if args.backend == "all" else (args.backend,):
        try:
            recognizer = open_one(backend)
        except (SetupError, ImportError) as error:
            why = render_message(error.message) if isinstance(error, SetupError) else error
            print(f"{backend}: skipped: {why}")
            continue
        for grammar in grammars:
            policy = ConfirmationPolicy(confirm_bids=not args.no_confirm)
            if args.learn and backend == "pocketsphinx":
                outcomes = _learnt(samples, grammar, args.seed, lexicon, policy, args.learn_at)
                if outcomes is None:
                    return 2
            elif args.enroll and backend == "pocketsphinx":
                outcomes = _enrolled(samples, grammar, args.seed, lexicon, policy,
                                     args.enroll_length)
                if outcomes is None:
                    return 2
            else:
                outcomes = run(recognizer, samples, grammar, args.seed, lexicon, policy)
            if args.dump is not None:
                with args.dump.open("a", encoding="utf-8") as dump:
                    dump.writelines(json.dumps({"backend": backend, "grammar": grammar,
                                                **asdict(o)}) + "\n" for o in outcomes)
            row = {"language": language, **summary(backend, grammar, outcomes)}
            print_row(row, outcomes, args.verbose)
            rows.append(row)
    if args.json:
        print(json.dumps(rows))
    return 0 if rows else 1


def _enrolled(samples: Sequence[Sample], grammar: str, seed: int, lexicon: Lexicon,
              policy: ConfirmationPolicy, length: int | None) -> list[Outcome] | None:
    """The outcomes of :func:`voice_enrolled.enrolled_run`, with each speaker's training
    printed; None, with the reason printed, when the manifest names no speakers."""
    enrolled = importlib.import_module("voice_spades.bench.voice_enrolled")
    try:
        outcomes, readings = enrolled.enrolled_run(samples, grammar, seed, lexicon, policy,
                                                   length)
    except ValueError as error:
        print(f"voice-spades bench voice --enroll: {error}", file=sys.stderr)
        return None
    for reading in readings:
        print(f"  trained on {reading.speaker}: {reading.heard} of {reading.read} phrases "
              f"heard, {reading.seconds:.1f} s")
    return list(outcomes)


def _learnt(samples: Sequence[Sample], grammar: str, seed: int, lexicon: Lexicon,
            policy: ConfirmationPolicy, at: Sequence[int] | None) -> list[Outcome] | None:
    """The outcomes of :func:`voice_learnt.learnt_run`, with when each speaker's voice
    was learnt printed; None, with the reason printed, when the manifest names no
    speakers."""
    learnt = importlib.import_module("voice_spades.bench.voice_learnt")
    try:
        outcomes, speakers = learnt.learnt_run(samples, grammar, seed, lexicon, policy, at)
    except ValueError as error:
        print(f"voice-spades bench voice --learn: {error}", file=sys.stderr)
        return None
    for speaker in speakers:
        print(f"  {speaker.speaker}: {speaker.clips} clips, learnt after clip "
              f"{', '.join(map(str, speaker.learnt_after)) or 'never'}; after: "
              f"{speaker.right_after} of {speaker.commands_after} commands understood")
    return list(outcomes)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
