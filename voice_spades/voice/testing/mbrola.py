"""MBROLA test voices, spoken whole or not at all.

MBROLA voices (``mb-it1``, ``mb-fr4``...) build speech from diphones recorded by
real speakers; espeak-ng drives them through a table of its phoneme names. For
the Italian voices that table names sounds the voices do not have (``dZ`` where
it1 and it2 have ``gh``, a long ``ss`` where it3 and it4 have two ``s``), and
espeak-ng plays silence for each pair it cannot find: 192 of the game's Italian
phrases came out with holes in all four voices, and a recognizer tested on them
is tested on phrases nobody says.

So the voices listed in :data:`RENAMES` are spoken here from espeak-ng's phonemes
(``--pho``), renamed to the voice's own names, by ``mbrola`` itself; and any MBROLA
voice that still lacks a pair of sounds raises :class:`MissingSounds` instead of
giving a clip with a hole.

>>> rename_phonemes("dZ\\t74\\nss\\t130\\nO1\\t40\\t0 117\\n", "it1")
'gh\\t74\\nSS\\t130\\nO1\\t40\\t0 117\\n'
>>> rename_phonemes("ss\\t130\\n", "it3")
's\\t65\\ns\\t65\\n'
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

MBROLA_FOLDER = Path("/usr/share/mbrola")
"""Where Debian's ``mbrola-*`` packages put the voices (``it1/it1``)."""

_FIRST_VOICES: dict[str, tuple[str, ...]] = {
    # espeak-ng's name -> the voice's own, from each voice's phoneme table
    # (``mbrola -i``): the affricates and the sh sound, the long s, the glide j and
    # the gn sound, an accented u the voice keeps as U.
    "dZ": ("gh",), "tS": ("ch",), "S": ("sh",), "ss": ("SS",), "j": ("J",),
    "J": ("gn",), "U1": ("U",), "ts2": ("ts",),
}
_SECOND_VOICES: dict[str, tuple[str, ...]] = {
    # the unstressed i espeak-ng marks "i/" is the voice's i; a long s is two s
    "i/": ("i",), "ss": ("s", "s"), "ts2": ("ts",),
}
RENAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "it1": _FIRST_VOICES, "it2": _FIRST_VOICES, "it3": _SECOND_VOICES, "it4": _SECOND_VOICES,
}
"""Per MBROLA voice, espeak-ng's phoneme names it lacks and what to say instead (one
phoneme, or several sharing its duration)."""

Pairs = dict[tuple[str, str], tuple[str, ...]]

_LONG: Pairs = {
    # pairs a voice was not recorded with, after renaming: a long consonant is the
    # voice's own long one
    ("gn", "gn"): ("GN",), ("RR", "R"): ("RR",), ("ng", "G"): ("N", "G"), ("_", "Z"): ("_", "S"),
}
_FIRST_PAIRS: Pairs = {
    # a vowel missing after a consonant is said a little more open or closed
    **_LONG, ("T", "O2"): ("T", "O"), ("P", "O2"): ("P", "O"), ("D", "E1"): ("D", "E"),
}
_FIRST_PAIRS_2: Pairs = {
    **_LONG, ("U", "T"): ("U2", "T"), ("gn", "A"): ("gn", "A2"), ("D", "E1"): ("D", "E"),
}
_SECOND_PAIRS: Pairs = {
    # a j closing a syllable before a consonant ("poi di") is said as an i
    ("j", consonant): ("i", consonant) for consonant in ("b", "d", "l", "s", "v", "t", "k")
}
PAIRS: dict[str, Pairs] = {
    "it1": _FIRST_PAIRS, "it2": _FIRST_PAIRS_2, "it3": _SECOND_PAIRS, "it4": _SECOND_PAIRS,
}
"""Per MBROLA voice, pairs of (renamed) phonemes it has no diphone for and what to
say instead: two phonemes keep their durations, one takes both."""

_MISSING = re.compile(r"(?:Warning: (\S+) unknown|Unknown recovery for (\S+) segment)")


class MissingSounds(RuntimeError):
    """An MBROLA voice cannot say all of a phrase: it lacks the pairs of sounds
    ``diphones`` and would play silence for them."""

    def __init__(self, voice: str, text: str, diphones: tuple[str, ...]) -> None:
        super().__init__(f"{voice} cannot say all of {text!r}: no {', '.join(diphones)}")
        self.voice = voice
        self.text = text
        self.diphones = diphones


def is_mbrola(voice: str) -> bool:
    """True for espeak-ng's name of an MBROLA voice (``mb-it1``)."""
    return voice.startswith("mb-")


def missing_diphones(stderr: str) -> tuple[str, ...]:
    """The pairs of sounds espeak-ng or mbrola reported missing in ``stderr``."""
    return tuple(dict.fromkeys(a or b for a, b in _MISSING.findall(stderr)))


def rename_phonemes(pho: str, database: str) -> str:
    """espeak-ng's phoneme lines ``pho`` with the names voice ``database`` lacks
    replaced (:data:`RENAMES`)."""
    renames = RENAMES.get(database, {})
    rows: list[list[str]] = []
    for line in pho.splitlines():
        name, *rest = line.split("\t")
        parts = renames.get(name, (name,))
        if len(parts) == 1 or not rest:
            rows.append([parts[0], *rest])
            continue
        duration = int(rest[0])
        rows += [[part, str(duration // len(parts) + (i < duration % len(parts)))]
                 for i, part in enumerate(parts)]
    lines = ["\t".join(fields) for fields in _mend_pairs(rows, database)]
    return "".join(f"{line}\n" for line in lines)


def _mend_pairs(rows: list[list[str]], database: str) -> list[list[str]]:
    pairs = PAIRS.get(database, {})
    mended: list[list[str]] = []
    for fields in rows:
        if not fields[0]:
            continue  # a word's end: nothing for mbrola
        previous = mended[-1] if mended else None
        instead = pairs.get((previous[0], fields[0])) if previous and len(fields) > 1 else None
        if previous is None or instead is None:
            mended.append(fields)
        elif len(instead) == 1:
            previous[0] = instead[0]
            previous[1] = str(int(previous[1]) + int(fields[1]))
        else:
            previous[0] = instead[0]
            mended.append([instead[1], *fields[1:]])
    return mended


def speak_to_wav(text: str, voice: str, speed: int, pitch: int, wav: Path) -> None:
    """Write ``text`` said by MBROLA voice ``voice`` to ``wav``; :class:`MissingSounds`
    when the voice cannot say all of it."""
    database = voice.removeprefix("mb-")
    espeak = ["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch)]
    if database not in RENAMES:
        said = subprocess.run([*espeak, "-w", str(wav), "--", text],
                              check=True, capture_output=True, text=True)
        if missing := missing_diphones(said.stderr):
            raise MissingSounds(voice, text, missing)
        return
    pho = subprocess.run([*espeak, "-q", "--pho", "--", text],
                         check=True, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory(prefix="voice-spades-mbrola-") as tmp:
        script = Path(tmp) / "speech.pho"
        script.write_text(rename_phonemes(pho, database), encoding="utf-8")
        made = subprocess.run(["mbrola", str(MBROLA_FOLDER / database / database), str(script),
                               str(wav)], check=False, capture_output=True, text=True)
    missing = missing_diphones(made.stderr)
    if made.returncode != 0 or missing:
        raise MissingSounds(voice, text, missing or ("?",))
