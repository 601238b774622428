"""Every message id the code names exists in the catalog, and every catalog field is a
plain name.

The code is read, not run: the abstract syntax tree of each module of the package is
searched for message ids,

* strictly: the first text argument of the calls that take an id (``Message(...)``,
  an error class derived from ``SpadesError``, ``render``, ``.say``, ``.line``,
  ``Line``...), both branches of ``a if c else b``, and f-strings (``f"word.rank.{r}"``
  must match some id);
* broadly: any text in the code that looks like an id of one of the catalog's
  namespaces (``"score.part.bags"`` in a table, ``("setup.no_terminal", {})``), file
  names aside.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

from voice_spades.narration import CATALOG

PACKAGE = Path(__file__).resolve().parents[2] / "voice_spades"

ID_CALLS = {"Message", "render", "say", "line", "_line", "Line", "make_line", "Template"}
"""Functions and methods whose first text argument is a message id."""

ID_PATTERN = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_-]+)+")
FILE_SUFFIXES = {"toml", "json", "wav", "raw", "pho", "txt", "py", "md", "log", "tmp", "gz", "zip",
                 "tar", "csv", "pyc", "onnx", "bin"}
"""Last parts that make a dotted text a file name, not a message id."""

NAMESPACES = {message_id.split(".")[0] for message_id in CATALOG}


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def error_classes() -> set[str]:
    """Names of every class of the package derived from SpadesError."""
    bases: dict[str, set[str]] = {}
    for _, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {b.id if isinstance(b, ast.Name) else
                                    b.attr if isinstance(b, ast.Attribute) else ""
                                    for b in node.bases}
    found = {"SpadesError"}
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in found and parents & found:
                found.add(name)
                grew = True
    return found


def callee(node: ast.Call) -> str:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return ""


def id_texts(node: ast.expr) -> Iterator[str | re.Pattern[str]]:
    """The ids an argument can be: a text, each branch of a conditional, or the
    pattern of an f-string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from id_texts(node.body)
        yield from id_texts(node.orelse)
    elif isinstance(node, ast.JoinedStr):
        pattern = "".join(re.escape(part.value) if isinstance(part, ast.Constant) else ".+"
                          for part in node.values)
        yield re.compile(pattern)


def first_text_argument(node: ast.Call) -> ast.expr | None:
    for arg in node.args:
        if isinstance(arg, ast.Constant | ast.IfExp | ast.JoinedStr):
            return arg
    for keyword in node.keywords:
        if keyword.arg == "message_id":
            return keyword.value
    return None


def looks_like_id(text: str) -> bool:
    """"score.part.bags" or "tied", not a sentence."""
    return bool(ID_PATTERN.fullmatch(text)) or text.isidentifier()


def exists(message_id: str | re.Pattern[str]) -> bool:
    if isinstance(message_id, str):
        return message_id in CATALOG
    return any(message_id.fullmatch(known) for known in CATALOG)


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', '?')}"


def test_every_id_passed_to_a_message_call_exists() -> None:
    calls = ID_CALLS | error_classes()
    missing = []
    for path, tree in modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or callee(node) not in calls:
                continue
            argument = first_text_argument(node)
            if argument is None:
                continue
            for message_id in id_texts(argument):
                text = message_id if isinstance(message_id, str) else message_id.pattern
                if isinstance(message_id, str) and not looks_like_id(text):
                    missing.append(f"{where(path, node)}: {callee(node)}({text!r}) is a "
                                   "sentence, not a message id")
                elif not exists(message_id):
                    missing.append(f"{where(path, node)}: {callee(node)}({text!r})")
    assert not missing, "ids not in the catalog:\n" + "\n".join(missing)


def test_every_text_that_looks_like_an_id_exists() -> None:
    missing = []
    for path, tree in modules():
        in_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                       for part in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                candidates = [] if not isinstance(node.values[0], ast.Constant) else \
                    list(id_texts(node))
                head = str(getattr(node.values[0], "value", ""))
                if head.split(".")[0] in NAMESPACES and "." in head:
                    missing += [f"{where(path, node)}: f-string {c.pattern!r}"
                                for c in candidates
                                if isinstance(c, re.Pattern) and not exists(c)]
                continue
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or \
                    id(node) in in_fstrings:
                continue
            text = node.value
            if ID_PATTERN.fullmatch(text) and text.split(".")[0] in NAMESPACES and \
                    text.rsplit(".", 1)[1] not in FILE_SUFFIXES and text not in CATALOG:
                missing.append(f"{where(path, node)}: {text!r}")
    assert not missing, "ids not in the catalog:\n" + "\n".join(missing)


def test_every_catalog_field_is_a_name() -> None:
    formatter = string.Formatter()
    for message_id, template in CATALOG.items():
        assert looks_like_id(message_id), message_id
        for form in template.forms():
            for text in [form] if isinstance(form, str) else form.values():
                for _, field, _, conversion in formatter.parse(text):
                    assert field is None or field.isidentifier(), (message_id, field)
                    assert not conversion, (message_id, field, conversion)


def test_plural_entries_count_one_of_their_fields() -> None:
    formatter = string.Formatter()
    for message_id, template in CATALOG.items():
        if template.count is None:
            continue
        fields = {field for form in template.forms()
                  for text in ([form] if isinstance(form, str) else form.values())
                  for _, field, _, _ in formatter.parse(text) if field}
        assert template.count in fields, message_id
