"""The player's trained voice as PocketSphinx reads it: the model's means moved towards
their voice, saved in the model's own means format (given to the decoders as ``mean``),
and read back checked, since PocketSphinx given a malformed file ends the process or
hears nothing."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from voice_spades.errors import InvalidStateError
from voice_spades.storage.atomic import atomic_write_bytes
from voice_spades.storage.envelope import load_binary_file
from voice_spades.voice.adaptation.acoustic_model import (
    Gaussians,
    gaussians_data,
    parse_gaussians,
)

LARGEST = 1e4
"""A mean beyond this is no cepstral mean (the model's reach about 105): the file is
damaged."""


def save_trained_means(path: Path, means: Gaussians) -> None:
    """Write ``means`` to ``path`` atomically (a crash leaves the old file)."""
    atomic_write_bytes(path, gaussians_data(means))


def parse_trained_means(data: bytes, shape: tuple[int, ...]) -> Gaussians:
    """The means in ``data``, checked against the model's ``shape``: anything else (not a
    means file, cut short, another shape, values not finite or out of range) is an
    :class:`InvalidStateError`."""
    try:
        means = parse_gaussians(data)
    except (ValueError, struct.error) as error:
        raise InvalidStateError("voice.adaptation.damaged") from error
    if means.shape != shape or not np.all(np.abs(means) < LARGEST):  # (NaN fails too)
        raise InvalidStateError("voice.adaptation.damaged")
    return means


def load_trained_means(path: Path, model: Path) -> Gaussians | None:
    """The trained means saved in ``path`` for the model in folder ``model``, None when
    there are none; a damaged file is moved aside and
    :class:`~voice_spades.storage.envelope.CorruptFileError` raised."""
    shape = parse_gaussians((model / "means").read_bytes()).shape
    return load_binary_file(path, lambda data: parse_trained_means(data, shape))
