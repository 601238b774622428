"""The Vosk recognizer: a Kaldi model restricted to the allowed phrases.

Vosk decodes against a grammar, the JSON list of allowed phrases plus
``"[unk]"``, which soaks up speech that is none of them. Only models with a
dynamic graph (``graph/HCLr.fst`` + ``graph/Gr.fst``, such as
vosk-model-small-en-us-0.15) honour a grammar; a model with a static
``graph/HCLG.fst`` silently ignores it and would answer with any words at
all, so :func:`check_model_folder` refuses such models.

How one utterance is decided:

1. Too short, or hardly any voiced frames: rejected before decoding.
   (``"[unk]"`` is weak on some models and can win noise with full
   confidence, so noise is best kept away from the decoder.)
2. Vosk answers with an n-best list (``SetMaxAlternatives``). Each entry's
   ``confidence`` is a log-likelihood, so the entries' shares of the summed
   likelihood are their probabilities; ``"[unk]"`` and other non-phrases keep
   their share, which lowers the confidence of the phrases beside them.
3. The best entry must be one of the allowed phrases; ``"[unk]"``, empty text
   or any other word sequence is a rejection.

The parsing functions (:func:`grammar_json`, :func:`parse_result`,
:func:`combine_segments`) need no model, so they are tested on their own.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from voice_spades.errors import SetupError
from voice_spades.voice.audio_features import voiced_fraction
from voice_spades.voice.phrases import PhraseSet
from voice_spades.voice.recognizer import SAMPLE_RATE, Recognition, audio_seconds, rejection

log = logging.getLogger(__name__)

UNKNOWN = "[unk]"
"""Vosk's catch-all grammar entry for speech outside the phrases."""

REQUIRED_FILES = ("am/final.mdl", "conf/mfcc.conf", "conf/model.conf")
DYNAMIC_GRAPH_FILES = ("graph/HCLr.fst", "graph/Gr.fst", "graph/disambig_tid.int")
STATIC_GRAPH_FILE = "graph/HCLG.fst"
IVECTOR_FILES = ("ivector/final.ie", "ivector/final.dubm", "ivector/final.mat",
                 "ivector/global_cmvn.stats", "ivector/online_cmvn.conf",
                 "ivector/splice.conf")


# -- model folders -----------------------------------------------------------------


def check_model_folder(path: str | Path) -> list[str]:
    """Return what keeps the Vosk model folder ``path`` from working; empty when usable.

    Each missing file is named by its path inside the folder
    ("am/final.mdl is missing"). A model whose graph is a static
    ``graph/HCLG.fst`` is refused: Vosk ignores grammars with it.
    The i-vector files are required when the folder has an ``ivector/``
    folder or ``conf/model.conf`` mentions i-vectors.
    """
    folder = Path(path)
    if not folder.is_dir():
        return [f"the folder {folder} does not exist"]

    def missing(names: Sequence[str]) -> list[str]:
        return [f"{name} is missing" for name in names if not (folder / name).is_file()]

    problems = missing(REQUIRED_FILES)
    if (folder / STATIC_GRAPH_FILE).is_file():
        problems.append(
            f"{STATIC_GRAPH_FILE} is a static graph, which ignores grammars; voice_spades "
            "needs a model with a dynamic graph (graph/HCLr.fst and graph/Gr.fst), "
            "such as vosk-model-small-en-us-0.15")
    else:
        problems += missing(DYNAMIC_GRAPH_FILES)
    if _uses_ivectors(folder):
        problems += missing(IVECTOR_FILES)
    return problems


def _uses_ivectors(folder: Path) -> bool:
    if (folder / "ivector").is_dir():
        return True
    try:
        config = (folder / "conf" / "model.conf").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "ivector" in config.lower()


def require_model_folder(path: str | Path) -> Path:
    """Return ``path`` as a Path if it holds a usable Vosk model, else raise SetupError."""
    problems = check_model_folder(path)
    if problems:
        raise SetupError(f"The Vosk model at {path} cannot be used: {'; '.join(problems)}.")
    return Path(path)


def _vosk() -> ModuleType:
    """Import vosk (loading its native library) only when a model is really used."""
    try:
        import vosk
    except (ImportError, OSError) as error:
        raise SetupError(f"Vosk cannot run on this machine ({error}). "
                         "Voice keeps using PocketSphinx.") from error
    vosk.SetLogLevel(-1)
    module: ModuleType = vosk
    return module


def load_model(path: str | Path) -> Any:
    """Load the Vosk model at ``path`` (about a second for a small model).

    Raises SetupError naming the missing files, or saying the files are damaged.
    """
    folder = require_model_folder(path)
    vosk = _vosk()
    try:
        return vosk.Model(str(folder))
    except Exception as error:
        raise SetupError(f"The Vosk model at {folder} could not be loaded; its files may be "
                         "damaged. Download it again with `voice-spades models download "
                         "vosk-en`.") from error


# -- results -----------------------------------------------------------------------


def grammar_json(phrases: Sequence[str]) -> str:
    """Return the Vosk grammar for ``phrases``: a JSON list of them plus ``"[unk]"``."""
    return json.dumps([*phrases, UNKNOWN])


@dataclass(frozen=True)
class Heard:
    """One Vosk result read against the allowed phrases.

    ``text`` is an allowed phrase (normalized spelling) or None for a
    rejection, whose ``reason`` says why. ``alternatives`` are the allowed
    phrases among the n-best entries with their probabilities, best first.
    ``raw_text`` is what Vosk said, "[unk]" included.
    """

    text: str | None
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    raw_text: str
    reason: str | None = None


def parse_result(result: str | Mapping[str, Any], phrases: Collection[str],
                 score_scale: float = 1.0) -> Heard:
    """Read a Vosk result (its JSON text or the decoded object) against ``phrases``.

    Two shapes are understood. With ``SetMaxAlternatives(n)``:
    ``{"alternatives": [{"text": ..., "confidence": <log-likelihood>}, ...]}``;
    the probability of each entry is its softmax share of the log-likelihoods
    (times ``score_scale``). Without: ``{"text": ..., "result": [{"word",
    "conf", "start", "end"}, ...]}``; the confidence is the mean word
    ``conf`` (1.0 when Vosk gave no words). "[unk]", empty text and text that
    is not an allowed phrase are rejections.
    """
    data: Mapping[str, Any] = json.loads(result) if isinstance(result, str) else result
    if "alternatives" in data:
        entries = [(str(e.get("text", "")).strip(), float(e.get("confidence", 0.0)))
                   for e in data.get("alternatives") or ()]
        shares = _softmax([score * score_scale for _, score in entries])
        ranked = list(zip([text for text, _ in entries], shares, strict=True))
    else:
        text = str(data.get("text", "")).strip()
        words = data.get("result") or ()
        confs = [float(w["conf"]) for w in words if "conf" in w]
        ranked = [(text, sum(confs) / len(confs) if confs else 1.0)]
    return _decide(ranked, phrases)


def _softmax(scores: Sequence[float]) -> list[float]:
    if not scores:
        return []
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def _decide(ranked: Sequence[tuple[str, float]], phrases: Collection[str]) -> Heard:
    """Pick the best of ``ranked`` (text, probability), which need not be sorted."""
    merged: dict[str, float] = {}
    for text, share in ranked:
        merged[text] = merged.get(text, 0.0) + share
    order = sorted(merged.items(), key=lambda item: item[1], reverse=True)
    alternatives = tuple((text, share) for text, share in order if text in phrases)
    if not order or not order[0][0]:
        return Heard(None, 0.0, alternatives, "", "heard nothing")
    best, share = order[0]
    if best in phrases:
        return Heard(best, share, alternatives, best)
    reason = ("speech outside the allowed phrases" if UNKNOWN in best.split()
              else "not one of the allowed phrases")
    return Heard(None, 0.0, alternatives, best, reason)


def combine_segments(segments: Sequence[Heard]) -> Heard:
    """Merge the results of one utterance that Vosk's endpointing split in parts.

    Empty segments (silence) are ignored. Exactly one distinct phrase among
    the segments (the rest "[unk]", a cough say) is accepted; two different
    phrases are a rejection listing both.
    """
    spoken = [heard for heard in segments if heard.raw_text]
    if not spoken:
        return Heard(None, 0.0, (), "", "heard nothing")
    accepted = [heard for heard in spoken if heard.text is not None]
    if not accepted:
        return spoken[-1]
    if len({heard.text for heard in accepted}) == 1:
        return max(accepted, key=lambda heard: heard.confidence)
    alternatives = tuple(pair for heard in accepted for pair in heard.alternatives[:1])
    raw = " / ".join(heard.raw_text for heard in spoken)
    return Heard(None, 0.0, alternatives, raw, "heard more than one phrase")


# -- the recognizer ----------------------------------------------------------------


class VoskRecognizer:
    """Grammar-constrained Vosk recognizer with rejection (see module doc).

    ``model_path`` is a Vosk model folder; without it the model is looked up
    like :func:`voice_spades.voice.models.find_vosk_model` does (SetupError
    when none is installed). ``model`` may instead be an already loaded
    ``vosk.Model`` to share between recognizers. One Kaldi recognizer is
    built per distinct phrase set and kept (LRU, ``cached_grammars``).
    """

    name = "vosk"

    def __init__(self, model_path: str | Path | None = None, *, model: Any = None,
                 max_alternatives: int = 5, score_scale: float = 1.0,
                 min_seconds: float = 0.15, min_voiced_fraction: float = 0.2,
                 cached_grammars: int = 32) -> None:
        if model is None:
            if model_path is None:
                from voice_spades.voice.models import find_vosk_model

                model_path = find_vosk_model()
            model = load_model(model_path)
        self.model_path = Path(model_path) if model_path is not None else None
        self.model = model
        self.max_alternatives = max_alternatives
        self.score_scale = score_scale
        self.min_seconds = min_seconds
        self.min_voiced_fraction = min_voiced_fraction
        self.cached_grammars = cached_grammars
        self._phrases = PhraseSet.build(())
        self._decodable: tuple[str, ...] = ()
        self._unknown_words: tuple[str, ...] = ()
        self._known_words: dict[str, bool] = {}
        self._recognizers: OrderedDict[tuple[str, ...], Any] = OrderedDict()
        self._stream: _Stream | None = None

    # -- phrases ----------------------------------------------------------------

    @property
    def unknown_words(self) -> tuple[str, ...]:
        """Words of the current phrases missing from the model's vocabulary."""
        return self._unknown_words

    @property
    def dropped_phrases(self) -> tuple[str, ...]:
        """Current phrases left out of the grammar because of unknown words."""
        kept = set(self._decodable)
        return tuple(self._phrases.original[p] for p in self._phrases.normalized
                     if p not in kept)

    def set_phrases(self, phrases: Sequence[str]) -> None:
        """Allow exactly ``phrases``; words missing from the model are logged.

        Vosk would silently drop an unknown word from a phrase and then hear
        the rest of it, so phrases with unknown words are left out instead.
        """
        self._phrases = PhraseSet.build(phrases)
        unknown = sorted(w for w in self._phrases.words() if not self._knows(w))
        self._unknown_words = tuple(unknown)
        self._decodable = tuple(p for p in self._phrases.normalized
                                if not set(p.split()) & set(unknown))
        if unknown:
            log.warning("Vosk does not know the words %s; left out phrases: %s",
                        ", ".join(unknown), "; ".join(self.dropped_phrases))
        if self._decodable:
            self._recognizer_for(self._decodable)

    def _knows(self, word: str) -> bool:
        if word not in self._known_words:
            self._known_words[word] = int(self.model.vosk_model_find_word(word)) >= 0
        return self._known_words[word]

    def _recognizer_for(self, decodable: tuple[str, ...]) -> Any:
        if decodable in self._recognizers:
            self._recognizers.move_to_end(decodable)
            return self._recognizers[decodable]
        recognizer = _vosk().KaldiRecognizer(self.model, SAMPLE_RATE, grammar_json(decodable))
        recognizer.SetWords(True)
        recognizer.SetMaxAlternatives(self.max_alternatives)
        self._recognizers[decodable] = recognizer
        while len(self._recognizers) > self.cached_grammars:
            self._recognizers.popitem(last=False)
        return recognizer

    # -- decoding ---------------------------------------------------------------

    def decode(self, audio: bytes) -> Recognition:
        """Recognize one whole utterance (16 kHz mono int16 little-endian PCM)."""
        self.start()
        self.feed(audio)
        return self.finish()

    def start(self) -> None:
        """Begin a streamed utterance; audio fed from now on is decoded as it comes."""
        abandoned = self._stream
        if abandoned is not None and abandoned.recognizer is not None:
            # Finalizing makes Vosk rebuild its feature pipeline on the next
            # audio, so nothing of the unfinished utterance leaks into this one.
            abandoned.recognizer.FinalResult()
        recognizer = self._recognizer_for(self._decodable) if self._decodable else None
        self._stream = _Stream(recognizer, self._phrases, self._decodable)

    def feed(self, chunk: bytes) -> None:
        """Add audio to the streamed utterance (decoded at once, so finish is quick)."""
        if self._stream is None:
            self.start()
        stream = self._stream
        assert stream is not None
        stream.audio.extend(chunk)
        if stream.recognizer is None or not chunk:
            return
        started = time.perf_counter()
        # True means Vosk's endpointing closed a segment; its result must be
        # collected now or it is lost.
        if stream.recognizer.AcceptWaveform(chunk):
            stream.results.append(stream.recognizer.Result())
        stream.busy_seconds += time.perf_counter() - started

    def finish(self) -> Recognition:
        """End the streamed utterance and return what was recognized."""
        stream = self._stream or _Stream(None, self._phrases, self._decodable)
        self._stream = None
        started = time.perf_counter()
        audio = bytes(stream.audio)

        def elapsed() -> float:
            return stream.busy_seconds + time.perf_counter() - started

        if stream.recognizer is not None:
            stream.results.append(stream.recognizer.FinalResult())
        if not stream.decodable:
            return rejection("no phrases are allowed now", audio, elapsed())
        if audio_seconds(audio) < self.min_seconds:
            return rejection("too short to be a phrase", audio, elapsed())
        if self.min_voiced_fraction > 0 and voiced_fraction(audio) < self.min_voiced_fraction:
            return rejection("no speech, only noise or silence", audio, elapsed())
        allowed = set(stream.decodable)
        heard = combine_segments([parse_result(r, allowed, self.score_scale)
                                  for r in stream.results])
        original = stream.phrases.original
        alternatives = tuple((original.get(text, text), share)
                             for text, share in heard.alternatives)
        if heard.text is None:
            return rejection(heard.reason or "not one of the allowed phrases", audio, elapsed(),
                             alternatives)
        return Recognition(original.get(heard.text, heard.text), heard.confidence, alternatives,
                           audio_seconds(audio), elapsed())


class _Stream:
    """One utterance in progress: its recognizer, phrases, audio and closed segments."""

    def __init__(self, recognizer: Any, phrases: PhraseSet,
                 decodable: tuple[str, ...]) -> None:
        self.recognizer = recognizer
        self.phrases = phrases
        self.decodable = decodable
        self.audio = bytearray()
        self.results: list[str] = []
        self.busy_seconds = 0.0
