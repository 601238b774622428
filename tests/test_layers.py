"""The package's imports point downward only, and no module imports itself back.

The layer order is written once, in :data:`LAYERS`: a room (a subpackage or top-level
module of ``voice_spades``) may import rooms of its own layer's index or lower, never
higher. Every import counts: inside functions and under ``TYPE_CHECKING`` too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "voice_spades"

LAYERS: list[set[str]] = [
    {"messages"},
    {"errors"},
    {"engine"},
    {"protocol"},
    {"bots"},
    {"commands", "storage"},
    {"table"},
    {"narration"},
    {"session"},
    {"server", "client"},
    {"speech"},
    {"keys", "voice"},
    {"web"},
    {"simulate", "bench", "app", "settings_command", "training_command", "serve_command"},
    {"online"},
    {"cli"},
    {"__main__", "__init__"},
]
"""Lowest first. Within one layer, rooms do not import each other."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """Every voice_spades module ``path`` imports, resolved to a module of the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # "from package import module" runs the package's __init__ first.
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names
                               if f"{base}.{alias.name}" in modules)]
        for target in targets:
            if target.startswith("voice_spades"):
                while target not in modules and "." in target:
                    target = target.rpartition(".")[0]
                if target in modules and target != name:
                    found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imports_of(path, name, modules) for name, path in modules.items()}


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer_of(room_name: str) -> int:
    for index, rooms in enumerate(LAYERS):
        if room_name in rooms:
            return index
    raise AssertionError(f"room {room_name!r} is in no layer: add it to LAYERS")


def upward_edges(graph: dict[str, set[str]]) -> list[str]:
    problems = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            a, b = room(source), room(target)
            if a == b:
                continue
            if layer_of(b) > layer_of(a):
                problems.append(f"{source} -> {target} (layer {layer_of(a)} imports {layer_of(b)})")
            elif layer_of(b) == layer_of(a):
                problems.append(f"{source} -> {target} (same layer, different rooms)")
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_room_has_a_layer() -> None:
    for module in all_modules():
        layer_of(room(module))


def test_imports_point_downward_only() -> None:
    problems = upward_edges(import_graph())
    assert not problems, "upward imports:\n" + "\n".join(problems)


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize(("graph", "expected"), [
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_cycle_finder_finds_cycles(graph: dict[str, set[str]],
                                   expected: list[list[str]]) -> None:
    assert cycles(graph) == expected


def test_an_upward_edge_is_reported() -> None:
    assert upward_edges({"voice_spades.engine.x": {"voice_spades.narration.y"}})
