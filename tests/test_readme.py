"""The players' guides stay true: README.md, README.it.md and README.fr.md link only
files (and headings) that exist, and their keys tables name every key the default
keymap binds, by the name the game itself says in that language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_spades.keys.keymap import load_keymap
from voice_spades.keys.names import key_label
from voice_spades.narration.catalog import active_language, set_language

ROOT = Path(__file__).resolve().parents[1]

GUIDES = {"en": "README.md", "it": "README.it.md", "fr": "README.fr.md"}
"""Each players' guide, by the language it is written in."""

KEYS_HEADINGS = {"en": "Keys", "it": "Tasti", "fr": "Les touches"}
"""The level-2 heading of each guide's keys section, whose tables the test reads."""

_SEPARATORS = {"en": "or", "it": "o", "fr": "ou"}
"""The word for "or" between two keys of a table cell."""

_RANGE = re.compile(r"^(?:da |de )?(\d) (?:to|a|à) (\d)$")
"""A run of digit keys: "0 to 9", "da 0 a 9", "de 0 à 9"."""

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _markdown_files() -> list[Path]:
    return [ROOT / name for name in GUIDES.values()] + sorted((ROOT / "docs").glob("*.md"))


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of ``path``: lower case, punctuation dropped
    (hyphens kept), spaces as hyphens."""
    anchors = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        match = re.match(r"^#{1,6} (.+)$", line)
        if match and not in_code:
            text = match.group(1).strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return anchors


def _links(path: Path) -> Iterator[str]:
    text = path.read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("    "):  # an indented code block: commands, not links
            continue
        yield from _LINK.findall(re.sub(r"`[^`]*`", "", line))


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: p.name)
def test_guides_link_only_files_and_headings_that_exist(path: Path) -> None:
    broken = []
    for target in _links(path):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:: outside the project
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(f"{target}: no such heading")
    assert not broken, f"{path.name} links what does not exist: {broken}"


def _section(text: str, heading: str) -> str:
    """The text under the level-2 ``heading``, up to the next level-2 heading."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no '## {heading}' section"
    return match.group(1)


def _table_keys(section: str, language: str) -> set[str]:
    """Every key named in the first column of the section's tables, normalized."""
    keys: set[str] = set()
    for line in section.splitlines():
        if not line.startswith("|") or re.match(r"^\|\s*-", line):
            continue
        cell = line.split("|")[1]
        cell = re.sub(r"\([^)]*\)|`", "", cell)
        items = re.split(rf",|/|\b{_SEPARATORS[language]}\b", cell)
        for item in items:
            key = " ".join(item.replace("+", " ").split()).lower()
            if span := _RANGE.match(key):
                keys.update(str(d) for d in range(int(span[1]), int(span[2]) + 1))
            elif key:
                keys.add(key)
    return keys


@pytest.fixture
def restore_language() -> Iterator[None]:
    before = active_language()
    yield
    set_language(before)


@pytest.mark.parametrize("language", sorted(GUIDES))
def test_keys_tables_name_every_default_key(language: str, restore_language: None) -> None:
    text = (ROOT / GUIDES[language]).read_text(encoding="utf-8")
    named = _table_keys(_section(text, KEYS_HEADINGS[language]), language)
    set_language(language)
    bindings = load_keymap().bindings
    missing = sorted({f"{action} = {key} ({key_label(key)})"
                      for actions in bindings.values()
                      for action, keys in actions.items() for key in keys
                      if " ".join(key_label(key).split()).lower() not in named})
    assert not missing, f"{GUIDES[language]}'s keys tables lack: {missing}"


def test_a_missing_key_is_found() -> None:
    """The table reader really reads: a table without Shift+B lacks it."""
    section = "| key | does |\n|---|---|\n| B | your bid |\n| 0 to 9 | type |\n"
    named = _table_keys(section, "en")
    assert {"b", "0", "9"} <= named and "shift b" not in named
