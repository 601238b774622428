"""French typography in every French sentence as the game renders it: a narrow no-break
space (U+202F) before ``: ; ? !`` and ``»`` and after ``«``; and that space as the
player gets it: espeak-ng says it as a plain space, liblouis's French braille tables
write it as a blank cell, and a terminal that cannot show it prints a space."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.narration.test_translations import RULES, renderings, summary
from voice_spades.narration import Phrasebook, Verbosity
from voice_spades.narration.catalog import Catalog
from voice_spades.narration.templates import load_templates

NARROW = "\u202f"
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
_KEPT = re.compile(r"`[^`]*`|\S+://\S+|[\w.-]+:\d+|\S*::\S*|§\w+§")
"""What a sentence quotes rather than writes: code, addresses, the tests' markers."""


def typography_faults(text: str) -> list[str]:
    """Each sign of ``text`` without its narrow no-break space, shown in context."""
    bare = _KEPT.sub(lambda m: "x" * len(m.group(0)), text)
    faults = []
    for index, sign in enumerate(bare):
        before = bare[index - 1] if index else ""
        if sign in ":;?!»" and before != NARROW and not (sign in "?!" and before in ("?", "!")):
            faults.append(f"no space before {sign!r}: {text[max(0, index - 15):index + 5]!r}")
        elif sign == "«" and bare[index + 1:index + 2] != NARROW:
            faults.append(f"no space after «: {text[index:index + 15]!r}")
    if "\u00a0" in bare:
        faults.append(f"a wide no-break space: {text!r}")
    return faults


def test_the_check_finds_each_missing_space() -> None:
    assert typography_faults(f"Ouest{NARROW}: nil{NARROW}; oui{NARROW}?! «{NARROW}non{NARROW}»") \
        == []
    assert [fault[:19] for fault in typography_faults(
        "`voice-spades models`: https://example.org/a?b")] == ["no space before ':'"]
    assert len(typography_faults("Nil? Oui : «non»; fin!")) == 6
    assert typography_faults("Ouest\u00a0: nil") != []


def test_every_french_sentence_has_its_spaces() -> None:
    english = load_templates("en")
    catalog = Catalog("fr", strict=True)
    books = {v: Phrasebook(RULES, 0, v, words=catalog) for v in Verbosity}
    problems, checked = [], 0
    for message_id in sorted(catalog.templates):
        for where, text in renderings("fr", message_id, catalog.templates[message_id],
                                      english[message_id], books.__getitem__):
            assert isinstance(text, str), (where, text)
            checked += 1
            problems += [f"{where}: {fault}" for fault in typography_faults(text)]
    assert checked > 3000
    assert problems == [], summary(problems)


def test_the_spacing_script_puts_every_space_and_changes_nothing_twice() -> None:
    sys.path.insert(0, str(SCRIPTS))
    try:
        from french_spacing import spaced, spaced_file
    finally:
        sys.path.remove(str(SCRIPTS))
    # Addresses keep their colons: host:port, IPv6.
    assert spaced("défaut: 127.0.0.1:8765 ou ::") == "défaut\u202f: 127.0.0.1:8765 ou ::"
    assert spaced("{Seat:Vous|a}: «{text}» ?! fin; `a:b` https://x.org/?q") == \
        f"{{Seat:Vous|a}}{NARROW}: «{NARROW}{{text}}{NARROW}»{NARROW}?! fin{NARROW}; " \
        "`a:b` https://x.org/?q"
    assert spaced(spaced("Nil ? Oui : non !")) == spaced("Nil? Oui: non!")
    folder = SCRIPTS.parent / "voice_spades" / "narration" / "locales" / "fr"
    for path in folder.glob("*.toml"):
        source = path.read_text(encoding="utf-8")
        assert spaced_file(source) == source, f"run scripts/french_spacing.py: {path.name}"


SAID = ["Ouest{0}: annonce 4, 2 plis.", "Annoncer nil{0}? Oui ou non.",
        "Vous chutez votre nil{0}!", "Nous 152 avec 4 sacs{0}; eux 98.",
        "Dites «{0}quatre{0}» ou «{0}nil{0}»."]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="no espeak-ng")
def test_espeak_ng_says_the_narrow_space_as_a_plain_space() -> None:
    def phonemes(texts: list[str]) -> list[str]:
        result = subprocess.run(["espeak-ng", "-q", "-x", "-v", "fr", "--stdin"],
                                input="".join(f"{t}\n\n" for t in texts), capture_output=True,
                                text=True, check=True, timeout=60)
        return [line.strip() for line in result.stdout.splitlines() if line.strip()]
    narrow = phonemes([s.format(NARROW) for s in SAID])
    assert narrow == phonemes([s.format(" ") for s in SAID])
    assert narrow != phonemes([s.format("").replace(":", "").replace("?", "") for s in SAID])
    assert not any("Esp" in line or "fin" in line for line in narrow), narrow


@pytest.mark.skipif(shutil.which("lou_translate") is None, reason="no liblouis-bin")
@pytest.mark.parametrize("table", ["fr-bfu-comp6.utb", "fr-bfu-g2.ctb"])
def test_french_braille_writes_the_narrow_space_as_a_blank_cell(table: str) -> None:
    def braille(text: str) -> str:
        return subprocess.run(["lou_translate", "--forward", f"unicode.dis,{table}"],
                              input=text + "\n", capture_output=True, text=True, check=True,
                              timeout=30).stdout.strip()
    for sentence in SAID:
        cells = braille(sentence.format(NARROW))
        assert all(0x2800 <= ord(c) <= 0x28FF for c in cells), cells  # only braille cells
        assert cells == braille(sentence.format(" ")).replace(" ", "\u2800")
    # The wide no-break space is passed through untranslated: not a braille cell.
    assert "\u00a0" in braille("Ouest\u00a0: nil")


def test_a_terminal_that_cannot_show_the_narrow_space_prints_a_space() -> None:
    from voice_spades.speech.plain_text import PLAIN_TEXT
    assert f"Ouest{NARROW}: nil{NARROW}?".encode("ascii", PLAIN_TEXT) == b"Ouest : nil ?"
    assert f"«{NARROW}oui{NARROW}»".encode("latin-1", PLAIN_TEXT) == "« oui »".encode("latin-1")
