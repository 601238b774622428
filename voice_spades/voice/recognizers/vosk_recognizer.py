"""The Vosk recognizer: a Kaldi model restricted to the allowed phrases.

Only models with a dynamic graph honour a grammar (see
:mod:`voice_spades.voice.models.folder`, which refuses the others).

How one utterance is decided:

1. Too short, or hardly any voiced frames: rejected before decoding.
   (``"[unk]"`` is weak on some models and can win noise with full
   confidence, so noise is best kept away from the decoder.)
2. Vosk answers with an n-best list, read against the allowed phrases by
   :mod:`.vosk_results`: the best entry must be one of them, else the
   utterance is rejected.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from voice_spades.errors import SetupError
from voice_spades.voice.audio.features import voiced_fraction
from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.models.folder import require_model_folder
from voice_spades.voice.models.locations import find_vosk_model
from voice_spades.voice.recognizers.base import (
    SAMPLE_RATE,
    Recognition,
    audio_seconds,
    rejection,
)
from voice_spades.voice.recognizers.phrases import PhraseSet
from voice_spades.voice.recognizers.vosk_results import (
    UNKNOWN,
    combine_segments,
    grammar_json,
    parse_result,
)

log = logging.getLogger(__name__)

SPELLING_COST = 0.1
"""Lexicon variants this cheap are the same word spelt another way ("cœur", "coeur")."""


def load_vosk() -> ModuleType:
    """Import vosk (loading its native library) only when a model is really used;
    SetupError when it cannot be loaded."""
    try:
        import vosk
    except (ImportError, OSError) as error:
        raise SetupError("voice.vosk.cannot_run", error=str(error)) from error
    vosk.SetLogLevel(-1)
    module: ModuleType = vosk
    return module


def load_model(path: str | Path) -> Any:
    """Load the Vosk model at ``path`` (about a second for a small model).

    Raises SetupError naming the missing files, or saying the files are damaged.
    """
    folder = require_model_folder(path)
    vosk = load_vosk()
    try:
        return vosk.Model(str(folder))
    except Exception as error:
        raise SetupError("voice.vosk.damaged", path=folder) from error


class VoskRecognizer:
    """Grammar-constrained Vosk recognizer with rejection (see module doc).

    ``model_path`` is a Vosk model folder; without it the model is looked up
    like :func:`~voice_spades.voice.models.locations.find_vosk_model` does (SetupError
    when none is installed). ``model`` may instead be an already loaded
    ``vosk.Model`` to share between recognizers. One Kaldi recognizer is
    built per distinct phrase set and kept (LRU, ``cached_grammars``).
    A word the model does not know is replaced by a spelling variant of the
    ``lexicon``'s that it knows ("coeur" for "cœur"), answers given back in the
    game's spelling.
    """

    name = "vosk"

    def __init__(self, model_path: str | Path | None = None, *, model: Any = None,
                 max_alternatives: int = 5, score_scale: float = 1.0,
                 min_seconds: float = 0.15, min_voiced_fraction: float = 0.2,
                 cached_grammars: int = 32, lexicon: Lexicon | None = None) -> None:
        if model is None:
            if model_path is None:
                model_path = find_vosk_model()
            model = load_model(model_path)
        self.model_path = Path(model_path) if model_path is not None else None
        self.model = model
        self.max_alternatives = max_alternatives
        self.score_scale = score_scale
        self.min_seconds = min_seconds
        self.min_voiced_fraction = min_voiced_fraction
        self.cached_grammars = cached_grammars
        self.lexicon = lexicon
        self._phrases = PhraseSet.build(())
        self._decodable: tuple[str, ...] = ()
        self._unknown_words: tuple[str, ...] = ()
        self._known_words: dict[str, bool] = {}
        self._recognizers: OrderedDict[tuple[str, ...], Any] = OrderedDict()
        self._stream: _Stream | None = None

    # -- phrases ----------------------------------------------------------------

    @property
    def catches_other_speech(self) -> bool:
        """True when the model knows ``"[unk]"``, the grammar entry that soaks up speech
        outside the phrases. Without it (some small models) the grammar holds the
        phrases alone, and other speech is heard as a string of them, which is no
        phrase and is rejected; a single word may still be heard as the nearest one.
        """
        return self._knows(UNKNOWN)

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
        self._phrases = self._in_model_spelling(PhraseSet.build(phrases))
        unknown = sorted(w for w in self._phrases.words() if not self._knows(w))
        self._unknown_words = tuple(unknown)
        self._decodable = tuple(p for p in self._phrases.normalized
                                if not set(p.split()) & set(unknown))
        if unknown:
            log.warning("Vosk does not know the words %s; left out phrases: %s",
                        ", ".join(unknown), "; ".join(self.dropped_phrases))
        if self._decodable:
            self._recognizer_for(self._decodable)

    def _in_model_spelling(self, phrases: PhraseSet) -> PhraseSet:
        """``phrases`` with each word the model lacks spelt as a variant it knows (in a
        language other than English: English keeps leaving such phrases out)."""
        if self.lexicon is None or self.lexicon.language == "en":
            return phrases
        spelt: dict[str, str] = {}
        for phrase in phrases.normalized:
            words = [self._known_spelling(word) for word in phrase.split()]
            spelt.setdefault(" ".join(words), phrases.original[phrase])
        return PhraseSet(tuple(spelt), spelt)

    def _known_spelling(self, word: str) -> str:
        if self._knows(word) or self.lexicon is None:
            return word
        for pair, cost in self.lexicon.variants.items():
            if word in pair and cost <= SPELLING_COST:
                other = next(iter(pair - {word}), word)
                if self._knows(other):
                    return other
        return word

    def _knows(self, word: str) -> bool:
        if word not in self._known_words:
            self._known_words[word] = int(self.model.vosk_model_find_word(word)) >= 0
        return self._known_words[word]

    def _recognizer_for(self, decodable: tuple[str, ...]) -> Any:
        if decodable in self._recognizers:
            self._recognizers.move_to_end(decodable)
            return self._recognizers[decodable]
        recognizer = load_vosk().KaldiRecognizer(
            self.model, SAMPLE_RATE, grammar_json(decodable, unknown=self.catches_other_speech))
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

