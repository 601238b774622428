"""The examples in the docstrings run and hold.

:data:`LISTED` are the modules whose examples are part of their documented API (the
engine facade, the parsers, messages and errors, the catalog): each must have some.
Any other module of the package with a ``>>>`` example is run as well.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "voice_spades"

LISTED = [
    "voice_spades.messages",
    "voice_spades.errors",
    "voice_spades.narration.catalog",
    "voice_spades.engine",
    "voice_spades.engine.cards",
    "voice_spades.engine.actions",
]
"""Modules that must have doctests."""

_EXAMPLE = re.compile(r"^\s*>>> ", re.MULTILINE)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_with_examples() -> list[str]:
    """Every module of the package whose source holds a ``>>>`` example."""
    return [module_name(path) for path in sorted(PACKAGE.rglob("*.py"))
            if _EXAMPLE.search(path.read_text(encoding="utf-8"))]


def run_doctests(name: str) -> tuple[int, int, str]:
    """(examples, failures, report) of the doctests of module ``name``."""
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder(exclude_empty=True).find(module)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in sorted(tests, key=lambda t: t.name):
        runner.run(test, out=report.append)
    examples = sum(len(test.examples) for test in tests)
    return examples, runner.failures, "".join(report)


@pytest.mark.parametrize("name", sorted(set(LISTED) | set(modules_with_examples())))
def test_doctests_pass(name: str) -> None:
    examples, failures, report = run_doctests(name)
    if name in LISTED:
        assert examples, f"{name} should show its use in doctests, and has none"
    assert failures == 0, report


def test_the_listed_modules_exist() -> None:
    for name in LISTED:
        path = PACKAGE.parent / (name.replace(".", "/") + ".py")
        assert path.exists() or (path.with_suffix("") / "__init__.py").exists(), name
