"""The engine is used through its facade, ``voice_spades.engine``, which exports every
public type: events, actions, errors, values."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import voice_spades.engine as facade

PACKAGE = Path(facade.__file__).resolve().parents[1]


def engine_modules() -> list[str]:
    return [f"voice_spades.engine.{info.name}" for info in pkgutil.iter_modules(facade.__path__)]


def test_every_public_class_is_exported() -> None:
    missing = []
    for name in engine_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == name and not attr.startswith("_") \
                    and getattr(facade, attr, None) is not value:
                missing.append(f"{name}.{attr}")
    assert not missing, missing


def test_the_facade_exports_what_it_lists() -> None:
    assert sorted(facade.__all__) == sorted(set(facade.__all__))
    for name in facade.__all__:
        assert hasattr(facade, name), name


def test_the_rest_of_the_package_imports_the_engine_through_the_facade() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(PACKAGE / "engine"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            offenders += [f"{path.relative_to(PACKAGE)}: {name}" for name in names
                          if name.startswith("voice_spades.engine.")]
    assert not offenders, offenders
