"""The PocketSphinx decoders of the recognizer, its dictionary and its grammar searches.

One grammar decoder holds the dictionary (with the lexicon's extra pronunciations
and, for another language, its own entries such as "it:re") and one search per
phrase set, kept in a cache (LRU). A second decoder runs the free phone loop that
verifies the winner; with ``tuning.phone_loop_process`` (and a second core) it runs
in a process of its own (:mod:`.phone_loop_worker`), beside the grammar search, and
is built here only if that process fails (it then stays here).
"""

from __future__ import annotations

import itertools
import logging
import os
import time
import weakref
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pocketsphinx

from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.recognizers.base import SAMPLE_RATE
from voice_spades.voice.recognizers.phone_loop_worker import PhoneLoopWorker, loop_score
from voice_spades.voice.recognizers.phonetics import pronunciations_for, token
from voice_spades.voice.recognizers.phrases import PhraseSet
from voice_spades.voice.recognizers.pocketsphinx_grammar import (
    garbage_loop,
    language_garbage,
    prefix_tree,
    pronunciations,
)
from voice_spades.voice.recognizers.pocketsphinx_tuning import PocketSphinxTuning

log = logging.getLogger(__name__)

def builtin_model_dir() -> Path:
    """Return the English model folder shipped inside the pocketsphinx wheel."""
    return Path(pocketsphinx.get_model_path()) / "en-us"


class Decoders:
    """The grammar and phone-loop decoders, loaded on first use (about half a second).

    Not thread-safe: the recognizer calls it under its own lock.
    """

    def __init__(self, tuning: PocketSphinxTuning, model_dir: Path, lexicon: Lexicon,
                 extra_words: dict[str, list[str]], adaptation: Path | None = None) -> None:
        self.tuning = tuning
        self.model_dir = model_dir
        self.adaptation = adaptation
        """The model's means trained on the speaker's voice (a file already checked by
        :func:`~voice_spades.voice.adaptation.trained_means.load_trained_means`), or
        None."""
        self.lexicon = lexicon
        self.extra_words = extra_words
        """Pronunciations added to the dictionary: word -> ARPAbet phone strings."""
        self._grammar: Any = None
        self._loop: Any = None
        self._searches: OrderedDict[tuple[str, ...], str] = OrderedDict()
        self._alone: OrderedDict[tuple[str, ...], str] = OrderedDict()
        """The searches of one phrase alone, with no garbage words (see :meth:`score_alone`)."""
        self._numbers = itertools.count()
        self._loop_options: dict[str, Any] = {}
        self._worker: PhoneLoopWorker | None = None
        self._submitted: float | None = None
        """This thread's CPU time when the clip being scored in the worker was sent."""
        self.waited_seconds = 0.0
        """How long decodes would have waited so far for the phone loop's process, had
        it a core of its own: per clip, the worker's CPU time on it less this
        thread's CPU time between sending it and asking for its score (never below
        0). A benchmark timing decodes by CPU time adds it."""

    @property
    def loaded(self) -> bool:
        """True once the decoders are loaded."""
        return self._grammar is not None

    @property
    def worker(self) -> PhoneLoopWorker | None:
        """The phone loop's process, while it serves."""
        return self._worker

    @property
    def grammar(self) -> Any:
        """The grammar decoder (loaded now if it was not)."""
        if self._grammar is None:
            self._load()
        return self._grammar

    def _load(self) -> None:
        t = self.tuning
        # Every decoder of a process must share one frequency warp: PocketSphinx keeps
        # the warp in process-wide state, and a decoder made without it turns it off.
        common: dict[str, Any] = dict(
            hmm=str(self.model_dir / "en-us"), samprate=SAMPLE_RATE, loglevel="FATAL",
            bestpath=False, warp_type="inverse_linear", warp_params=f"{t.warp:g}",
        )
        if self.adaptation is not None:  # both decoders: the loop verifies the same voice
            common["mean"] = str(self.adaptation)
        self._loop_options = dict(allphone=str(self.model_dir / "en-us-phone.lm.bin"),
                                  lw=1.0, **common)
        if t.phone_loop_process and (os.cpu_count() or 1) > 1:
            try:  # it loads while the grammar decoder does
                self._worker = PhoneLoopWorker(self._loop_options)
                weakref.finalize(self, self._worker.close)
            except (RuntimeError, OSError):
                log.info("the phone loop runs in this process")
        self._grammar = pocketsphinx.Decoder(
            dict=str(self.model_dir / "cmudict-en-us.dict"), lm=None, beam=t.beam,
            wbeam=t.word_beam, pbeam=t.phone_beam, topn=t.topn, **common)
        if self._worker is None:
            self._loop = pocketsphinx.Decoder(**self._loop_options)
        self.install_extra_words()

    # -- dictionary -------------------------------------------------------------

    def lookup(self, word: str) -> str | None:
        """The dictionary's first pronunciation of ``word`` (None when unknown)."""
        phones: str | None = self.grammar.lookup_word(word)
        return phones

    def install_extra_words(self) -> None:
        """Add :attr:`extra_words` the dictionary lacks (each as its next variant)."""
        decoder = self.grammar
        for word, variants in self.extra_words.items():
            known: list[str] = []
            while (phones := decoder.lookup_word(variant(word, len(known) + 1))) is not None:
                known.append(phones)
            for phones in variants:
                if phones not in known:
                    decoder.add_word(variant(word, len(known) + 1), phones)
                    known.append(phones)

    def _add_language_entry(self, word: str) -> str:
        """The dictionary entry of ``word`` in the lexicon's language ("it:re"), added
        with the language's pronunciations when missing."""
        entry = token(word, self.lexicon.language)
        if self.lookup(entry) is None:
            for number, phones in enumerate(pronunciations_for(word, self.lexicon), 1):
                self.grammar.add_word(variant(entry, number), phones, False)
        return entry

    def in_language(self, phrases: PhraseSet) -> PhraseSet:
        """The phrases with each word as its entry of the lexicon's language ("it:re"),
        entries added to the dictionary with the language's pronunciations only."""
        tagged: dict[str, str] = {}
        for phrase in phrases.normalized:
            entries = [self._add_language_entry(word) for word in phrase.split()]
            tagged[" ".join(entries)] = phrases.original[phrase]
        return PhraseSet(tuple(tagged), tagged)

    def language_garbage(self) -> tuple[str, ...]:
        """The language's own garbage words as dictionary entries (added on first use);
        none for English."""
        if not self.lexicon.exclusive_pronunciations:
            return ()
        entries = (self._add_language_entry(word)
                   for word in language_garbage(self.lexicon.language))
        return tuple(entry for entry in entries if self.lookup(entry) is not None)

    def pronunciations(self, word: str) -> list[str]:
        """Every pronunciation the dictionary holds for ``word`` (ARPAbet phones)."""
        if self.lexicon.exclusive_pronunciations:
            known = pronunciations(token(word, self.lexicon.language), self.lookup)
            return known or pronunciations_for(word, self.lexicon)
        return pronunciations(word, self.lookup)

    # -- searches ---------------------------------------------------------------

    def _search_for(self, decodable: tuple[str, ...], garbage: bool = True) -> str:
        """The name of the search among ``decodable`` (with the garbage words beside
        them unless ``garbage`` is false), built now if it is not kept."""
        kept = self._searches if garbage else self._alone
        if decodable in kept:
            kept.move_to_end(decodable)
            return kept[decodable]
        decoder = self.grammar
        name = f"phrases{next(self._numbers)}"
        transitions, final = prefix_tree(decodable)
        if garbage:
            transitions += garbage_loop(decodable, transitions, final,
                                        self.tuning.garbage_words,
                                        self.tuning.garbage_probability,
                                        self.language_garbage())
        decoder.add_fsg(name, decoder.create_fsg(name, 0, final, transitions))
        kept[decodable] = name
        while len(kept) > self.tuning.cached_grammars:
            _, old = kept.popitem(last=False)
            decoder.remove_search(old)
        return name

    def prepare(self, decodable: tuple[str, ...]) -> None:
        """Build the search of ``decodable`` now, so the first decode is quick."""
        self._search_for(decodable)

    def search(self, clip: bytes, decodable: tuple[str, ...],
               garbage: bool = True) -> tuple[str, int] | None:
        """The best of ``decodable`` for ``clip`` with its log score; None when the
        search ends nowhere or in the garbage words (beside the phrases unless
        ``garbage`` is false)."""
        decoder = self.grammar
        decoder.activate_search(self._search_for(decodable, garbage))
        _run(decoder, clip)
        hyp = decoder.hyp()
        if hyp is None or hyp.hypstr not in decodable:
            return None
        return hyp.hypstr, int(decoder.get_logmath().log(hyp.score))

    def score_alone(self, clip: bytes, phrase: str) -> tuple[int, int] | None:
        """``phrase`` searched alone in ``clip``: its log score and the frames its words
        took (silence left out); None when the search ends nowhere."""
        if (found := self.search(clip, (phrase,), garbage=False)) is None:
            return None
        frames = sum(segment.end_frame - segment.start_frame + 1
                     for segment in self.grammar.seg() if not _silent(segment.word))
        return found[1], max(1, frames)

    def start_phone_loop(self, clip: bytes) -> None:
        """Start scoring ``clip`` with the phone loop in its process, when there is one,
        so that it runs while this process searches the grammar."""
        if self._worker is None:
            return
        try:
            self._worker.submit(clip)
        except RuntimeError:
            self._lose_worker()
            return
        self._submitted = time.thread_time()

    def phone_loop_score(self, clip: bytes) -> int:
        """The free phone loop's log score of ``clip`` (0 when it finds nothing): the
        answer of :meth:`start_phone_loop` when it was called, else scored here."""
        if (score := self._collect()) is not None:
            return score
        if not self.loaded:
            self._load()
        if self._loop is None:  # the process failed: the phone loop runs here from now
            self._loop = pocketsphinx.Decoder(**self._loop_options)
        return loop_score(self._loop, clip)

    def drop_phone_loop(self) -> None:
        """Forget the score :meth:`start_phone_loop` asked for (the decode needs none)."""
        self._collect()

    def _collect(self) -> int | None:
        if self._submitted is None or self._worker is None:
            return None
        submitted, self._submitted = self._submitted, None
        try:
            score = self._worker.score()
        except RuntimeError:
            self._lose_worker()
            return None
        here = time.thread_time() - submitted
        self.waited_seconds += max(0.0, self._worker.last_seconds - here)
        return score

    def _lose_worker(self) -> None:
        log.warning("the phone-loop process ended; the phone loop runs in this process")
        self._submitted = None
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def close(self) -> None:
        """End the phone loop's process, if any (it also ends with this process)."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None


def _run(decoder: Any, clip: bytes) -> None:
    # PocketSphinx carries its feature normalization over from the previous
    # utterance, so the same clip decoded differently depending on what came
    # before; starting the features afresh (0.1 ms) makes a decode depend on
    # its own audio only.
    decoder.reinit_feat()
    decoder.start_utt()
    decoder.process_raw(clip, full_utt=True)
    decoder.end_utt()


def _silent(word: str) -> bool:
    """True for the dictionary's silence and noise entries ("<sil>", "[NOISE]")."""
    return word.startswith(("<", "[", "+"))


def variant(word: str, number: int) -> str:
    """The dictionary entry of ``word``'s ``number``-th pronunciation ("word(2)")."""
    return word if number == 1 else f"{word}({number})"
