"""Every message the engine and the bots report has its sentence in the catalog, and the
catalog file of the engine and bots (rules.toml) holds no sentence nobody says."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from voice_spades.engine import Phase
from voice_spades.narration.catalog import CATALOG

PACKAGE = Path(__file__).resolve().parents[2] / "voice_spades"
RULES_FILE = PACKAGE / "narration" / "locales" / "en" / "rules.toml"
PREFIXES = ("refusal.", "input.", "rules.", "save.", "bots.")


def used_ids() -> set[str]:
    """Every string constant of engine/ and bots/ shaped like one of their message ids."""
    found: set[str] = set()
    for room in ("engine", "bots"):
        for path in (PACKAGE / room).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and node.value.startswith(PREFIXES) and " " not in node.value \
                        and not node.value.endswith("."):
                    found.add(node.value)
    return found | {f"refusal.task.{phase}" for phase in Phase}


def test_every_message_id_of_the_engine_and_bots_is_in_the_catalog() -> None:
    ids = used_ids()
    assert len(ids) > 50
    assert not ids - set(CATALOG), sorted(ids - set(CATALOG))


def test_every_sentence_of_rules_toml_is_used() -> None:
    defined = set(tomllib.loads(RULES_FILE.read_text(encoding="utf-8")))
    assert not defined - used_ids(), sorted(defined - used_ids())
