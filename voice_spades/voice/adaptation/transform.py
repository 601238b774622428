"""A speaker's transform of the model's means, in PocketSphinx's MLLR file format.

The format is text: the number of classes (1 here) and of feature streams, then for
each stream its length, its matrix ``A`` row by row, its offset ``b`` and its
variance scale (all 1 here): each mean ``m`` of the stream becomes ``A m + b``.
PocketSphinx ends the process on a file whose streams do not match its model, so a
file is read and checked here before a decoder is given it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from voice_spades.errors import InvalidStateError
from voice_spades.storage.atomic import atomic_write_text
from voice_spades.storage.envelope import load_file

STREAMS = 3
DIMENSION = 13
"""The bundled model's streams and their length."""
LARGEST = 1e4
"""A value beyond this is no transform of cepstral means: the file is damaged."""


@dataclass(frozen=True)
class SpeakerTransform:
    """Per stream, a matrix and an offset applied to every mean of the stream."""

    matrices: NDArray[np.float64]
    """streams x dimension x dimension."""
    offsets: NDArray[np.float64]
    """streams x dimension."""

    @classmethod
    def identity(cls, streams: int = STREAMS, dimension: int = DIMENSION) -> SpeakerTransform:
        """The transform that changes nothing."""
        return cls(np.stack([np.eye(dimension)] * streams), np.zeros((streams, dimension)))

    def applied(self, means: NDArray[np.float64]) -> NDArray[np.float64]:
        """``means`` (codebook x stream x density x dimension) moved by the transform."""
        moved: NDArray[np.float64] = np.einsum("sij,cskj->cski", self.matrices, means)
        return moved + self.offsets[None, :, None, :]

    def text(self) -> str:
        """The transform in PocketSphinx's MLLR format."""
        streams, dimension = self.offsets.shape
        lines = ["1", str(streams)]
        for matrix, offset in zip(self.matrices, self.offsets, strict=True):
            lines.append(str(dimension))
            lines += [" ".join(f"{x:.7g}" for x in row) for row in matrix]
            lines.append(" ".join(f"{x:.7g}" for x in offset))
            lines.append(" ".join("1" for _ in offset))
        return "\n".join(lines) + "\n"

    def save(self, path: Path) -> None:
        """Write the transform to ``path`` atomically (a crash leaves the old file)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, self.text())


def parse_transform(text: str, streams: int = STREAMS,
                    dimension: int = DIMENSION) -> SpeakerTransform:
    """The transform written in ``text``, checked against the model's ``streams`` of
    ``dimension``: anything else (not numbers, truncated, another shape, numbers out
    of range) is an :class:`InvalidStateError`."""
    try:
        numbers = [float(word) for word in text.split()]
    except ValueError as error:
        raise InvalidStateError("voice.adaptation.damaged") from error
    per_stream = 1 + dimension * dimension + 2 * dimension
    square = dimension * dimension
    if numbers[:2] != [1.0, float(streams)] or len(numbers) != 2 + streams * per_stream \
            or not all(math.isfinite(x) and abs(x) < LARGEST for x in numbers):
        raise InvalidStateError("voice.adaptation.damaged")
    blocks = [numbers[2 + s * per_stream: 2 + (s + 1) * per_stream] for s in range(streams)]
    if any(block[0] != dimension or any(x != 1.0 for x in block[1 + square + dimension:])
           for block in blocks):
        raise InvalidStateError("voice.adaptation.damaged")
    return SpeakerTransform(
        np.stack([np.array(b[1:1 + square]).reshape(dimension, dimension) for b in blocks]),
        np.stack([np.array(b[1 + square:1 + square + dimension]) for b in blocks]))


def load_transform(path: Path) -> SpeakerTransform | None:
    """The transform saved in ``path``, None when there is none; a damaged file is
    moved aside and :class:`~voice_spades.storage.envelope.CorruptFileError` raised."""
    return load_file(path, parse_transform)
