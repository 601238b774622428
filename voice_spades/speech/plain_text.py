"""Standard output and error that never fail on a letter the terminal cannot show.

An ASCII or Latin-1 terminal cannot encode "é" or "€"; printing such a line would raise
and lose it. :func:`show_any_text` writes those characters in plain letters instead.
"""

from __future__ import annotations

import codecs
import io
import unicodedata
from typing import TextIO

PLAIN_TEXT = "voice_spades.plain"
"""The error handler of standard output and error: what the terminal's encoding cannot
show is written in plain letters (``é`` as ``e``, ``€`` as ``EUR``), never dropped."""
_PLAIN = {"€": "EUR", "£": "GBP", "—": "-", "–": "-", "‘": "'", "’": "'", "“": '"',
          "”": '"', "…": "...", "\u00a0": " "}
"""Plain spellings of signs that have no letters to fall back on (else "?")."""


def show_any_text(*streams: TextIO) -> None:
    """Write what the streams' encoding cannot show (ASCII or Latin-1 terminals) in plain
    letters instead of failing on the line: see :data:`PLAIN_TEXT`."""
    for stream in streams:
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=PLAIN_TEXT)


def _plain_letters(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler :data:`PLAIN_TEXT`."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(map(_plain, error.object[error.start:error.end])), error.end


def _plain(char: str) -> str:
    letters = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return _PLAIN.get(char) or letters or "?"


codecs.register_error(PLAIN_TEXT, _plain_letters)
