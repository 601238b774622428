"""The Gaussians of a PocketSphinx acoustic model, read from its ``means`` and
``variances`` files, the mixture weights of its senones (``sendump``), and the names
of its base phones (one codebook each in the bundled phonetically-tied model).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from voice_spades.errors import SetupError

_BYTE_ORDER_MAGIC = 0x11223344
_END_OF_HEADER = b"endhdr\n"
VARIANCE_FLOOR = 1e-4
WEIGHT_STEP = 1024 * math.log(1.0001)
"""One step of a quantized mixture weight, in natural log: PocketSphinx's log base
1.0001 shifted by 10 bits."""

Gaussians = NDArray[np.float64]
"""codebook x stream x density x dimension."""


@dataclass(frozen=True)
class AcousticModel:
    """Means and variances of each codebook, stream and density, and the base phones
    whose codebook each is (in order)."""

    means: Gaussians
    variances: Gaussians
    weights: NDArray[np.uint8]
    """Quantized mixture weights: stream x density x senone (see :meth:`log_weights`)."""
    definition: Definition

    @property
    def phones(self) -> tuple[str, ...]:
        """The base phones, in codebook order."""
        return self.definition.phones

    def log_weights(self, senones: NDArray[np.int64], stream: int) -> NDArray[np.float64]:
        """The log mixture weights of ``senones`` in ``stream``: senone x density."""
        quantized: NDArray[np.float64] = self.weights[stream][:, senones].T.astype(np.float64)
        return -WEIGHT_STEP * quantized

    @property
    def streams(self) -> int:
        """Feature streams (3 of 13 dimensions in the bundled model)."""
        return int(self.means.shape[1])

    @property
    def dimension(self) -> int:
        """Dimensions of one stream."""
        return int(self.means.shape[3])

    def codebook(self, phone: str) -> int | None:
        """The codebook of a base phone ("AH"), None for a phone the model lacks."""
        return self.phones.index(phone) if phone in self.phones else None

    @classmethod
    def read(cls, folder: Path) -> AcousticModel:
        """The model in ``folder`` (``means``, ``variances``, ``mdef``); a model of
        another layout (not one codebook a base phone, streams of unequal sizes) is a
        :class:`SetupError`."""
        try:
            means = parse_gaussians((folder / "means").read_bytes())
            variances = np.maximum(parse_gaussians((folder / "variances").read_bytes()),
                                   VARIANCE_FLOOR)
            definition = read_definition(folder / "mdef", means.shape[0])
            weights = _mixture_weights(folder / "sendump", means.shape[1], means.shape[2])
        except (OSError, ValueError, struct.error) as error:
            raise SetupError("voice.adaptation.model_unreadable", path=folder,
                             error=str(error)) from error
        if means.shape != variances.shape:
            raise SetupError("voice.adaptation.model_unreadable", path=folder,
                             error="means and variances differ in shape")
        return cls(means, variances, weights, definition)


def parse_gaussians(data: bytes) -> Gaussians:
    """The values of a means or variances file; ValueError or :class:`struct.error`
    when ``data`` is not one (no header, cut short, streams of unequal sizes)."""
    offset = data.index(_END_OF_HEADER) + len(_END_OF_HEADER)
    (magic,) = struct.unpack_from("<I", data, offset)
    order = "<" if magic == _BYTE_ORDER_MAGIC else ">"
    if struct.unpack_from(f"{order}I", data, offset)[0] != _BYTE_ORDER_MAGIC:
        raise ValueError("no byte-order mark")
    codebooks, streams, densities = struct.unpack_from(f"{order}3i", data, offset + 4)
    sizes = struct.unpack_from(f"{order}{streams}i", data, offset + 16)
    if len(set(sizes)) != 1:
        raise ValueError(f"streams of unequal sizes {sizes}")
    start = offset + 16 + 4 * streams
    (total,) = struct.unpack_from(f"{order}i", data, start)
    shape = (codebooks, streams, densities, sizes[0])
    if total != int(np.prod(shape)):
        raise ValueError(f"{total} values for {shape}")
    values = np.frombuffer(data, f"{order}f4", total, start + 4)
    return values.astype(np.float64).reshape(shape)


def gaussians_data(values: Gaussians) -> bytes:
    """``values`` in PocketSphinx's means and variances format (no checksum), which
    :func:`parse_gaussians` reads back."""
    header = b"s3\nversion 1.0\n"
    # the values start on a multiple of 4 bytes, as in the model's own files
    header += b" " * (-(len(header) + len(_END_OF_HEADER)) % 4) + _END_OF_HEADER
    codebooks, streams, densities, dimension = values.shape
    sizes = struct.pack(f"<I3i{streams}ii", _BYTE_ORDER_MAGIC, codebooks, streams, densities,
                        *([dimension] * streams), values.size)
    return header + sizes + values.astype("<f4").tobytes()


@dataclass(frozen=True)
class Definition:
    """A binary model definition: the base phones, and the tree that finds the senones
    of a phone in its context (word position, base phone, left and right phones)."""

    phones: tuple[str, ...]
    silence: int
    tree: tuple[tuple[int, int, int], ...]
    """(context, children, first child or phone) for each node."""
    sequences: tuple[int, ...]
    """Each phone's senone sequence (index into :attr:`senone_ids`)."""
    senone_ids: NDArray[np.int16]
    """The senones of each sequence: sequence x state."""

    def senones(self, base: int, left: int, right: int, position: int) -> tuple[int, ...]:
        """The senones of ``base`` between ``left`` and ``right`` at word ``position``
        (0 inside a word, 1 first, 2 last, 3 alone); the context-free ones when the
        model has no such triphone."""
        context = (position, base, left, right)
        first, count = 0, 4
        for level in range(4):
            node = next((first + i for i in range(count)
                         if self.tree[first + i][0] == context[level]), None)
            if node is None:
                return tuple(int(x) for x in self.senone_ids[self.sequences[base]])
            _, children, down = self.tree[node]
            if children == 0 or level == 3:
                return tuple(int(x) for x in self.senone_ids[self.sequences[down]])
            first, count = down, children
        return tuple(int(x) for x in self.senone_ids[self.sequences[base]])


def read_definition(mdef: Path, codebooks: int) -> Definition:
    """The binary model definition ("BMDF", a version, the format description's length
    and text, ten counts, the base phone names, the context tree, the phones, the
    senone sequences)."""
    data = mdef.read_bytes()
    if data[:4] != b"BMDF":
        raise ValueError("not a binary model definition")
    order = "<" if struct.unpack_from("<i", data, 4)[0] == 1 else ">"
    (described,) = struct.unpack_from(f"{order}i", data, 8)
    offset = 12 + described
    (base_phones, phone_count, states, _, _, _, sequence_count, _, tree_size,
     silence) = struct.unpack_from(f"{order}10i", data, offset)
    if base_phones != codebooks:
        raise ValueError(f"{base_phones} base phones for {codebooks} codebooks")
    offset += 40
    names = data[offset:].split(b"\0", base_phones)[:base_phones]
    offset += sum(len(name) + 1 for name in names)
    offset = (offset + 3) // 4 * 4
    tree = tuple(struct.iter_unpack(f"{order}hhi", data[offset:offset + 8 * tree_size]))
    offset += 8 * tree_size
    phones = np.frombuffer(data, np.dtype([("sequence", f"{order}i4"), ("matrix", f"{order}i4"),
                                           ("info", "i1", 4)]), phone_count, offset)
    offset += 12 * phone_count + 4  # and the sequences' count
    senone_ids = np.frombuffer(data, f"{order}i2", sequence_count * states,
                               offset).reshape(sequence_count, states)
    return Definition(tuple(name.decode("ascii") for name in names), silence,
                      tuple((int(a), int(b), int(c)) for a, b, c in tree),
                      tuple(int(x) for x in phones["sequence"]), senone_ids)


def _mixture_weights(sendump: Path, streams: int, densities: int) -> NDArray[np.uint8]:
    """The quantized weights of a senone dump: length-prefixed title and header
    strings up to an empty one, the rows and columns, then a row of bytes (one per
    senone) per stream and density."""
    data = sendump.read_bytes()
    order = "<" if 0 < struct.unpack_from("<i", data, 0)[0] < 1000 else ">"
    offset = 0
    while True:
        (length,) = struct.unpack_from(f"{order}i", data, offset)
        offset += 4 + length
        if length == 0:
            break
        if b"cluster_count" in data[offset - length:offset] \
                and not data[offset - length:offset].startswith(b"cluster_count 0"):
            raise ValueError("clustered mixture weights")
    rows, senones = struct.unpack_from(f"{order}2i", data, offset)
    offset += 8
    if rows != densities or len(data) < offset + streams * rows * senones:
        raise ValueError(f"mixture weights of {rows} rows for {densities} densities")
    values = np.frombuffer(data, np.uint8, streams * rows * senones, offset)
    return values.reshape(streams, rows, senones)
