"""A speaker's linear transform of the model's means (MLLR): per feature stream, each
mean ``m`` becomes ``A m + b``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

STREAMS = 3
DIMENSION = 13
"""The bundled model's streams and their length."""


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
