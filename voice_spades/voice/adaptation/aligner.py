"""Which model state each frame of a phrase belongs to: a forced alignment (Viterbi)
of the phrase's phones on its features, in numpy.

Each phone is its three states in context (the senones the model has for the phone
between its neighbours, at its place in the word), each scored by its base phone's
codebook under the senone's mixture weights; silence begins and ends the phrase and
may come between words. A word with several
pronunciations is aligned with each in turn (the others' first), and the one that
fits best is kept. A phrase that fits its frames far worse than the model's best
state for each frame fits them was not what the player said: it is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from voice_spades.voice.adaptation.acoustic_model import AcousticModel

SILENCE = "SIL"
STATES = 3
LARGEST_GAP = 5.0
"""The most the phrase may fit worse than the best context-free state of each frame,
per frame of speech in log likelihood. Measured on five espeak-ng voices reading the
script (120 readings): the right phrase fitted 2.3 worse at the median and 4.4 at the
95th percentile (short words worst); another phrase of the script, aligned on the
same speech, 6.5 at the median and 4.7 at the 5th percentile. The player reads what
was asked for: a phrase is refused above 5 (then asked for again)."""

State = tuple[int, int]
"""A frame's codebook and senone."""

Pronounce = Callable[[str], Sequence[str]]
"""A word's pronunciations in the model's phones ("K W IY N"), none when unknown."""


@dataclass(frozen=True)
class Alignment:
    """Each frame's state (None: silence) and how much worse than the free path the
    phrase fitted, per frame of speech."""

    states: list[State | None]
    gap: float


class PhraseAligner:
    """Aligns phrases of known words on their features (:func:`.front_end.features`)."""

    def __init__(self, pronounce: Pronounce, model: AcousticModel,
                 means: NDArray[np.float64] | None = None) -> None:
        self.pronounce = pronounce
        self.model = model
        self.means = model.means if means is None else means
        """The means states are scored with (moved by a transform, on a later pass)."""

    def states(self, phrase: str, features: NDArray[np.float64]) -> list[State | None] | None:
        """For each frame, the codebook and senone of the state it was aligned to (None
        for silence); None when a word is unknown or the phrase is not what was said."""
        found = self.align(phrase, features)
        return None if found is None or found.gap > LARGEST_GAP else found.states

    def align(self, phrase: str, features: NDArray[np.float64]) -> Alignment | None:
        """The best alignment of ``phrase`` on ``features`` (None: unknown word, or
        fewer frames than states)."""
        words = [list(dict.fromkeys(self.pronounce(w))) for w in phrase.split()]
        if not words or not all(words) or any(
                p not in self.model.phones for v in words for s in v for p in s.split()):
            return None
        gaussians = self._gaussians(features)
        chosen = [variants[0] for variants in words]

        def tried(pronunciations: list[str]) \
                -> tuple[float, list[State], NDArray[np.float64]] | None:
            """The best path's score, each frame's (codebook, senone) and its score."""
            sequence = _states_of(pronunciations, self.model)
            scores = _mixed(gaussians, self.model, [s for s, _, _ in sequence],
                            [c for _, c, _ in sequence])
            found = _viterbi(scores, [optional for _, _, optional in sequence])
            return None if found is None else (
                found[0], [(sequence[i][1], sequence[i][0]) for i in found[1]],
                scores[np.arange(len(scores)), found[1]])

        best = tried(chosen)
        for position, variants in enumerate(words):
            for variant in variants[1:]:
                other = [*chosen[:position], variant, *chosen[position + 1:]]
                found = tried(other)
                if found is not None and (best is None or found[0] > best[0]):
                    best, chosen = found, other
        if best is None:
            return None
        silence = self.model.definition.silence
        states: list[State | None] = [None if codebook == silence else (codebook, senone)
                                      for codebook, senone in best[1]]
        speech = [t for t, state in enumerate(states) if state is not None]
        if not speech:
            return None
        codebooks = len(self.model.phones)
        free = _mixed([g[speech] for g in gaussians], self.model,
                      list(range(codebooks * STATES)),
                      [c // STATES for c in range(codebooks * STATES)]).max(axis=1)
        return Alignment(states, float(np.mean(free - best[2][speech])))

    def _gaussians(self, features: NDArray[np.float64]) -> list[NDArray[np.float64]]:
        """Per stream, the log likelihood of each frame in each Gaussian of each
        codebook: frames x codebook x density."""
        model = self.model
        dimension = model.dimension
        found = []
        for stream in range(model.streams):
            x = features[:, stream * dimension:(stream + 1) * dimension]
            means = self.means[:, stream]
            variances = model.variances[:, stream]
            inverse = 1.0 / variances
            found.append(-0.5 * (np.einsum("td,cgd->tcg", x * x, inverse)
                                 - 2 * np.einsum("td,cgd->tcg", x, means * inverse)
                                 + (means * means * inverse).sum(axis=2)[None]
                                 + np.log(variances).sum(axis=2)[None]))
        return found


def _mixed(gaussians: list[NDArray[np.float64]], model: AcousticModel, senones: list[int],
           codebooks: list[int]) -> NDArray[np.float64]:
    """The log likelihood of each frame in each of ``senones`` (of ``codebooks``):
    frames x senones."""
    total = np.zeros((gaussians[0].shape[0], len(senones)))
    ids = np.array(senones)
    for stream, per_codebook in enumerate(gaussians):
        mixed = per_codebook[:, codebooks, :] + model.log_weights(ids, stream)[None]
        peak = mixed.max(axis=2, keepdims=True)
        total += peak[..., 0] + np.log(np.exp(mixed - peak).sum(axis=2))
    return total


def _states_of(pronunciations: Sequence[str],
               model: AcousticModel) -> list[tuple[int, int, bool]]:
    """The phrase's states in order, as (senone, codebook, may be skipped): silence,
    each phone's three states in its context (the word's position, the phones
    before and after it, across words too), with optional silence between words,
    then silence."""
    silence = model.definition.silence
    words = [[model.phones.index(p) for p in phones.split()] for phones in pronunciations]
    flat = [phone for word in words for phone in word]
    edges = [silence, *flat, silence]
    quiet = [(STATES * silence + s, silence, False) for s in range(STATES)]
    sequence = list(quiet)
    place = 0
    for number, word in enumerate(words):
        if number:
            sequence += [(senone, codebook, True) for senone, codebook, _ in quiet]
        for index, phone in enumerate(word):
            position = 3 if len(word) == 1 else 1 if index == 0 \
                else 2 if index == len(word) - 1 else 0
            place += 1
            senones = model.definition.senones(phone, edges[place - 1], edges[place + 1],
                                               position)
            sequence += [(senone, phone, False) for senone in senones]
    return sequence + quiet


def _viterbi(scores: NDArray[np.float64],
             optional: list[bool]) -> tuple[float, list[int]] | None:
    """The best path through the states whose frame scores are ``scores`` (frames x
    states; on each frame a path stays or moves on, and jumps over a run of optional
    states), its score and each frame's state; None when there are too few frames."""
    frames, count = scores.shape
    if frames < sum(not o for o in optional):
        return None
    # where each state may also come from: the state before a run of optional ones
    jump = np.array([i - STATES - 1 if i > STATES and all(optional[i - 1 - k]
                                                          for k in range(STATES))
                     and not optional[i] else -1 for i in range(count)])
    delta = np.full(count, -np.inf)
    delta[0] = scores[0, 0]
    back = np.zeros((frames, count), dtype=np.int64)
    index = np.arange(count)
    for t in range(1, frames):
        move = np.concatenate([[-np.inf], delta[:-1]])
        over = np.where(jump >= 0, delta[np.maximum(jump, 0)], -np.inf)
        choices = np.stack([delta, move, over])
        pick = choices.argmax(axis=0)
        back[t] = np.where(pick == 0, index, np.where(pick == 1, index - 1, jump))
        delta = choices[pick, index] + scores[t]
    if not np.isfinite(delta[-1]):
        return None
    path = [count - 1]
    for t in range(frames - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    path.reverse()
    return float(delta[-1]), path
