"""The default recognizer: PocketSphinx restricted to the allowed phrases.

How one utterance is decided (each step was measured on espeak-ng speech):

1. Rumble below 120 Hz (traffic, air conditioning: brown noise) is filtered
   out. Too short, or hardly any voiced frames (hiss, clicks, fan noise):
   rejected before decoding.
2. Steady background noise is subtracted, then the audio is trimmed to its
   speech plus 50 ms and given a faint noise floor; long or digitally silent
   edges made the grammar search let silence swallow word onsets.
3. A finite-state grammar holding only the allowed phrases is searched, then
   searched again without the winner to find the runner-up. The decoder can
   only answer with whole phrases; a search that ends nowhere is a rejection.
   The dictionary also holds the lexicon's extra pronunciations (British and
   other non-rhotic "hearts", "four", "cards"). (PocketSphinx's own n-best
   lattice often lacked the winner, so its scores could not rank phrases.)
4. The same audio is decoded by a free phone loop. Speech that really is the
   phrase scores close to the phone loop; other speech forced into the
   grammar scores far below it. The per-frame gap, squashed to [0, 1], is the
   search's verification. The winner is then searched alone (its own one-phrase
   grammar) and its gap to the phone loop per frame of its words, squashed too,
   is weighed with it (``tuning.verify_alone``): table talk forced into the
   grammar is told apart far better so. Where the language's tuning weighs it at
   nothing (``alone_weight`` 0: Italian, French) it is only reported
   (``Recognition.alone_fit``), for the floors of each kind of command the game
   sets on it. Below ``tuning.accept_above`` the
   utterance is rejected, as it is when the speech lasts far longer than the
   phrase could.
5. ``confidence`` is verification times the winner's share against the
   runner-up, so a near tie (ace/eight) gives a low confidence the game can
   confirm by offering ``alternatives``. The winner always stays first: the
   two searches' scores are only roughly comparable, because PocketSphinx
   scales each frame by the best senone among those the grammar keeps
   active, so a runner-up that outscores the winner is still second
   (letting it win measured no better). A rejection skips the runner-up's
   search (a third of the decode).
6. The last few results are kept by audio and phrases: an utterance decoded at a
   pause (to end it early, :mod:`voice_spades.voice.early_end`) costs nothing to
   decode again. That decode searches first among the phrases and every
   beginning of one, so that "exchange the marked" is not taken for a whole phrase.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import replace
from pathlib import Path

from voice_spades.voice.audio.features import (
    add_noise_floor,
    high_pass,
    reduce_noise,
    trim_to_speech,
    voiced_fraction,
)
from voice_spades.voice.lexicon import Lexicon, default_lexicon
from voice_spades.voice.recognizers.base import (
    BYTES_PER_SECOND,
    Recognition,
    audio_seconds,
    rejection,
)
from voice_spades.voice.recognizers.phonetics import word_of
from voice_spades.voice.recognizers.phrases import PhraseSet
from voice_spades.voice.recognizers.pocketsphinx_decoders import (
    Decoders,
    builtin_model_dir,
)
from voice_spades.voice.recognizers.pocketsphinx_grammar import GrammarPlan, plan_grammar
from voice_spades.voice.recognizers.pocketsphinx_scoring import (
    Ranked,
    alone_verification,
    alternatives,
    beginnings,
    runner_up_candidates,
    verification,
)
from voice_spades.voice.recognizers.pocketsphinx_tuning import (
    DecodeDetails,
    PocketSphinxTuning,
    tuning_for,
)

__all__ = ["RECENT_RESULTS", "PocketSphinxRecognizer", "builtin_model_dir", "prepared_clip"]

log = logging.getLogger(__name__)

RECENT_RESULTS = 4
"""Results kept for audio decoded again (see :meth:`PocketSphinxRecognizer.decode`)."""


class PocketSphinxRecognizer:
    """Grammar-constrained PocketSphinx recognizer with rejection (see module doc).

    Decoders load on first use (about half a second). Switching phrase sets is
    cheap: each distinct set's grammar is built once and kept (LRU). Calls may
    come from several threads; they take turns on the decoders.
    """

    name = "pocketsphinx"
    kept_results = RECENT_RESULTS
    """How many results are kept for audio decoded again."""

    def __init__(self, tuning: PocketSphinxTuning | None = None,
                 model_dir: str | Path | None = None, lexicon: Lexicon | None = None,
                 adaptation: Path | None = None) -> None:
        self.lexicon = lexicon or default_lexicon()
        self.tuning = tuning or tuning_for(self.lexicon.language)
        self.model_dir = Path(model_dir) if model_dir else builtin_model_dir()
        # A language other than English has its own dictionary entries ("it:re").
        english = not self.lexicon.exclusive_pronunciations
        extra_words = {word: list(variants)
                       for word, variants in self.lexicon.pronunciations.items()} \
            if english else {}
        self._decoders = Decoders(self.tuning, self.model_dir, self.lexicon, extra_words,
                                  adaptation)
        self._phrases = PhraseSet.build(())
        self._plan = GrammarPlan((), {}, (), (), {})
        self._groups: dict[str, Hashable] = {}
        self._stream: bytearray | None = None
        self._lock = threading.RLock()
        self.last_details: DecodeDetails | None = None
        self._recent: OrderedDict[Hashable, tuple[Recognition, DecodeDetails | None]] = \
            OrderedDict()
        self._words_changed = 0

    @property
    def adaptation(self) -> Path | None:
        """The player's voice training the decoders load (a means file), or None."""
        return self._decoders.adaptation

    def use_training(self, adaptation: Path | None) -> None:
        """Hear through ``adaptation`` (a means file already checked; None: the standard
        model) from the next decode on. The new decoders load here (about half a second)
        while the old ones go on decoding; the phrases loaded stay loaded."""
        with self._lock:
            extra_words = {word: list(variants)
                           for word, variants in self._decoders.extra_words.items()}
        fresh = Decoders(self.tuning, self.model_dir, self.lexicon, extra_words, adaptation)
        fresh.grammar  # noqa: B018 (loads them now, not at the next decode)
        with self._lock:
            old, self._decoders = self._decoders, fresh
            self._recent.clear()  # (decoded by the old model)
            if self._phrases.original:
                self._set_phrases(list(self._phrases.original.values()))
        old.close()

    # -- phrases ----------------------------------------------------------------

    @property
    def unknown_words(self) -> tuple[str, ...]:
        """Words of the current phrases missing from the dictionary."""
        if self.lexicon.exclusive_pronunciations:
            return tuple(word_of(entry) for entry in self._plan.unknown_words)
        return self._plan.unknown_words

    @property
    def dropped_phrases(self) -> tuple[str, ...]:
        """Current phrases left out of the grammar because of unknown words."""
        return tuple(self._phrases.original[p] for p in self._plan.dropped)

    @property
    def homophones(self) -> tuple[tuple[str, ...], ...]:
        """Groups of current phrases that sound identical ("four", "for").

        The decoder answers with the first of a group and lists the others as
        equally likely alternatives.
        """
        return tuple(
            tuple(self._phrases.original[p] for p in (owner, *others))
            for owner, others in self._plan.homophones.items() if others
        )

    def add_pronunciation(self, word: str, phones: str) -> None:
        """Teach the dictionary a word: ``add_pronunciation("blorp", "B L AO R P")``.

        ``phones`` are ARPAbet phones separated by spaces; the word becomes
        usable at the next :meth:`set_phrases`.
        """
        with self._lock:
            self._decoders.extra_words.setdefault(word.lower(), []).append(phones.upper())
            self._words_changed += 1
            if self._decoders.loaded:
                self._decoders.install_extra_words()

    def pronunciations(self, word: str) -> list[str]:
        """Every pronunciation the dictionary holds for ``word`` (ARPAbet phones)."""
        with self._lock:
            return self._decoders.pronunciations(word.lower())

    def set_phrases(self, phrases: Sequence[str]) -> None:
        """Allow exactly ``phrases``; words missing from the dictionary are logged."""
        with self._lock:
            self._set_phrases(phrases)
            self._groups = {}

    def set_grouped_phrases(self, phrases: Sequence[str], groups: Sequence[Hashable]) -> None:
        """:meth:`set_phrases`, knowing what each phrase means (``groups[i]`` for
        ``phrases[i]``): with ``tuning.other_meanings`` the runner-ups are other
        meanings."""
        with self._lock:
            self._set_phrases(phrases)
            spelling = {original: phrase for phrase, original in self._phrases.original.items()}
            self._groups = {spelling[p]: g for p, g in zip(phrases, groups, strict=True)
                            if p in spelling}

    def _set_phrases(self, phrases: Sequence[str]) -> None:
        self._phrases = PhraseSet.build(phrases)
        if self.lexicon.exclusive_pronunciations:
            self._phrases = self._decoders.in_language(self._phrases)
        self._plan = plan_grammar(self._phrases.normalized, self._decoders.lookup)
        if self._plan.unknown_words:
            log.warning("PocketSphinx does not know the words %s; left out phrases: %s",
                        ", ".join(self._plan.unknown_words), "; ".join(self.dropped_phrases))
        if self._plan.decodable:
            self._decoders.prepare(self._plan.decodable)

    # -- decoding ---------------------------------------------------------------

    def _key(self, audio: bytes) -> Hashable:
        return (audio, self._plan.decodable, tuple(self._groups.items()), self._words_changed)

    def _kept(self, key: Hashable, started: float) -> Recognition | None:
        """The result kept for ``key``, its ``decode_seconds`` the look-up's; else None."""
        if key not in self._recent:
            return None
        self._recent.move_to_end(key)
        result, self.last_details = self._recent[key]
        return replace(result, decode_seconds=time.perf_counter() - started)

    def decode(self, audio: bytes) -> Recognition:
        """Recognize one whole utterance (16 kHz mono int16 little-endian PCM).

        The last few results are kept: the same audio decoded again with the same
        phrases (an utterance first decoded at a pause, before it was known to be
        over) is answered at once, ``decode_seconds`` then being the look-up's."""
        started = time.perf_counter()
        with self._lock:
            key = self._key(audio)
            if (kept := self._kept(key, started)) is not None:
                return kept
            result = self._decode(audio)
            self._keep(key, result)
            return result

    def decode_unless_unfinished(self, audio: bytes) -> Recognition | None:
        """:meth:`decode` ``audio``, the utterance so far at a pause; None when it sounds
        like the beginning of an allowed phrase rather than a whole one ("exchange the
        marked" of "exchange the marked cards": the grammar searched first also holds
        every beginning of a phrase, as if it were one)."""
        started = time.perf_counter()
        with self._lock:
            key = self._key(audio)
            if (kept := self._kept(key, started)) is not None:
                return kept
            try:
                result = self._decode(audio, beginnings(self._plan.decodable))
            except _Unfinished:
                return None
            self._keep(key, result)
            return result

    def _keep(self, key: Hashable, result: Recognition) -> None:
        self._recent[key] = (result, self.last_details)
        while len(self._recent) > RECENT_RESULTS:
            self._recent.popitem(last=False)

    def _decode(self, audio: bytes, first: tuple[str, ...] | None = None) -> Recognition:
        started = time.perf_counter()
        self.last_details = None

        frames = 1

        def reject(reason: str, ranked: Ranked | None = None) -> Recognition:
            options = self._alternatives(ranked, frames) if ranked else ()
            return rejection(reason, audio, time.perf_counter() - started, options)

        t = self.tuning
        if not self._plan.decodable:
            return reject("no phrases are allowed now")
        if audio_seconds(audio) < t.min_seconds:
            return reject("too short to be a phrase")
        voiced, clip = prepared_clip(audio, t)
        self.last_details = DecodeDetails(voiced)
        if clip is None:
            return reject("no speech, only noise or silence")
        frames = max(1, len(clip) * 100 // BYTES_PER_SECOND)
        self._decoders.start_phone_loop(clip)
        try:
            winner = self._winner(clip, first)
        except _Unfinished:
            self._decoders.drop_phone_loop()
            raise
        if winner is None:
            self._decoders.drop_phone_loop()
            return reject("not one of the allowed phrases")
        best, best_score = winner
        loop = self._decoders.phone_loop_score(clip)
        gap = (best_score - loop) / frames
        verified = searched = verification(gap, t)
        verified_alone: float | None = None
        # Unweighed (alone_weight 0), the alone search cannot save a rejected winner.
        wanted = t.verify_alone and (t.alone_weight > 0 or searched >= t.accept_above)
        if wanted and (alone := self._decoders.score_alone(clip, best)) is not None:
            gap = (alone[0] - loop) / alone[1]
            verified_alone = alone_verification(gap, t)
            verified = verified_alone ** t.alone_weight * searched ** (1 - t.alone_weight)
        weighed = verified_alone is not None and t.alone_weight > 0
        self.last_details = DecodeDetails(voiced, self._phrases.original[best], gap, verified,
                                          (winner,), searched, verified_alone)
        # A rejection needs no runner-up (its search is a third of the time).
        if verified < t.accept_above:
            return reject("sounded unlike every allowed phrase", [winner])
        allowed = max(t.always_allowed_seconds,
                      t.max_seconds_per_phone * self._plan.phone_counts[best])
        if audio_seconds(clip) - 2 * t.trim_margin_seconds > allowed:
            return reject("much longer than the phrase it resembles", [winner])
        ranked = self._runner_ups(clip, [winner])
        self.last_details = DecodeDetails(voiced, self._phrases.original[best], gap, verified,
                                          tuple(ranked), searched, verified_alone)
        # The confidence weighs the winner against the runner-up only: further
        # alternatives are there to be offered, not to make every answer doubtful.
        share = self._alternatives(ranked[:2], frames)[0][1]
        return Recognition(self._phrases.original[best], verified * share,
                           self._alternatives(ranked, frames), audio_seconds(audio),
                           time.perf_counter() - started,
                           search_fit=searched if weighed else None,
                           alone_fit=verified_alone)

    def _alternatives(self, ranked: Ranked, frames: int) -> tuple[tuple[str, float], ...]:
        return alternatives(ranked, frames, self.tuning, self._plan, self._phrases)

    def _winner(self, clip: bytes, phrases: tuple[str, ...] | None = None
                ) -> tuple[str, int] | None:
        """The best phrase and its score. It is searched among ``phrases`` when given
        (the phrases and their beginnings): _Unfinished when it is no phrase."""
        among = phrases or self._plan.decodable
        found = self._decoders.search(clip, among)
        if found is not None and phrases is not None \
                and found[0] not in self._plan.phone_counts:
            raise _Unfinished
        return found

    def _runner_ups(self, clip: bytes, ranked: Ranked) -> Ranked:
        """``ranked`` (the winner) and then the runner-ups (``tuning.runner_ups``), with
        their scores."""
        for _ in range(self.tuning.runner_ups):
            others = runner_up_candidates(ranked, self._plan, self._groups,
                                          self.tuning.other_meanings)
            if not others or (after := self._decoders.search(clip, others)) is None:
                break
            ranked.append(after)
        return ranked

    @property
    def parallel_wait_seconds(self) -> float:
        """How long decodes would have waited so far for the phone loop's process with
        a core of its own (see ``Decoders.waited_seconds``): what a benchmark timing
        decodes by this thread's CPU time adds."""
        return self._decoders.waited_seconds

    def close(self) -> None:
        """Free what lives outside this process (the phone loop's, if any)."""
        with self._lock:
            self._decoders.close()

    # -- streaming --------------------------------------------------------------

    def start(self) -> None:
        """Begin a streamed utterance (audio is kept; decoding runs at finish)."""
        self._stream = bytearray()

    def feed(self, chunk: bytes) -> None:
        """Add audio to the streamed utterance."""
        if self._stream is None:
            self._stream = bytearray()
        self._stream.extend(chunk)

    def finish(self) -> Recognition:
        """Decode the streamed utterance.

        Decoding the utterance as a whole lets PocketSphinx normalize it as a
        whole, which measured far more accurate than live decoding (90% against
        97% on the same clips); it costs about 0.1 s after the speech ends.
        """
        audio = bytes(self._stream or b"")
        self._stream = None
        return self.decode(audio)


class _Unfinished(Exception):
    """The utterance so far sounds like the beginning of a phrase."""


def prepared_clip(audio: bytes, tuning: PocketSphinxTuning) -> tuple[float, bytes | None]:
    """The fraction of ``audio`` that is voiced, and the clip the decoders are given:
    rumble removed, steady noise subtracted, trimmed to the speech, with a faint
    noise floor; None when too little of it is voiced to be speech."""
    if tuning.high_pass_hz > 0:
        audio = high_pass(audio, tuning.high_pass_hz)
    voiced = voiced_fraction(audio)
    if voiced < tuning.min_voiced_fraction:
        return voiced, None
    if tuning.noise_subtraction > 0:
        audio = reduce_noise(audio, tuning.noise_subtraction, tuning.noise_gain_floor)
    return voiced, add_noise_floor(trim_to_speech(audio, tuning.trim_margin_seconds),
                                   tuning.noise_floor)
