"""Puts French typography's spaces into the French catalog, in place.

French sets a no-break space before ":", ";", "?", "!" and "»" and after "«". The
catalog uses the narrow one, U+202F, everywhere: liblouis's French braille tables
(fr-bfu-comp6, fr-bfu-g2) write it as a blank cell, while they pass U+00A0 through
untranslated, and espeak-ng reads both as a plain space (measured with liblouis 3.24
and espeak-ng 1.51). Fields (``{seat:vous|a}``), `code` and addresses are left as
they are. ``tests/narration/test_french_typography.py`` checks every sentence as
rendered; run this after editing ``voice_spades/narration/locales/fr/``:

    .venv/bin/python scripts/french_spacing.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

NARROW_NO_BREAK = "\u202f"
FRENCH = Path(__file__).resolve().parent.parent / "voice_spades" / "narration" / "locales" / "fr"

_TOML_PIECE = re.compile(
    r'(?P<comment>#[^\n]*)'
    r'|(?P<quote>"""|")(?P<text>(?:[^"\\]|\\.|"(?!""))*?)(?P=quote)')
"""A comment, or a TOML string (basic or multi-line: the shortest text to its closing
quote) and its text."""
_SPACES = " \u00a0\u202f"
_PIECE = re.compile(
    rf"(?P<kept>\{{[^{{}}]*\}}|`[^`]*`|\S+://\S+|[{_SPACES}]*[\w.\[]*::[\w:.\]]*"
    r"|[\w.-]+:\d+)"  # a field, code, an address (IPv6: "::", "[::]"; host:port)
    rf"|[{_SPACES}]*(?P<before>[:;?!»])"  # a sign that takes a space before it
    rf"|(?P<open>«)[{_SPACES}]*")  # the sign that takes one after it


def spaced(text: str) -> str:
    """``text`` with a narrow no-break space before ``: ; ? ! »`` and after ``«``
    (none between two of ``?!``, as in "?!")."""
    def one(match: re.Match[str]) -> str:
        if match.group("kept"):
            return match.group(0)
        if match.group("open"):
            return "«" + NARROW_NO_BREAK
        sign = match.group("before")
        previous = text[match.start() - 1] if match.start() else ""
        if sign in "?!" and previous and previous in "?!":
            return sign
        return NARROW_NO_BREAK + sign
    return _PIECE.sub(one, text)


def spaced_file(source: str) -> str:
    """A catalog file with every string spaced, one-line and multi-line (comments and
    keys as they are: no key holds one of the signs)."""
    return _TOML_PIECE.sub(lambda m: m.group(0) if m.group("comment") else
                           m.group("quote") + spaced(m.group("text")) + m.group("quote"),
                           source)


def main() -> int:
    """Rewrite every French catalog file that needs it; print the ones changed."""
    for path in sorted(FRENCH.glob("*.toml")):
        source = path.read_text(encoding="utf-8")
        result = spaced_file(source)
        if result != source:
            path.write_text(result, encoding="utf-8")
            print(path.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
