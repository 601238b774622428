"""The catalog's data: message templates in three lengths, read from TOML files.

A template is one message in its brief, normal and verbose forms; a form is a text or
a table of CLDR plural categories. :func:`load_templates` merges the files of one
language (``locales/<language>/*.toml``, format in ``locales/README.md``) and refuses
a file that breaks the format. :mod:`.catalog` renders them.

>>> Verbosity.BRIEF.next(), Verbosity.VERBOSE.next()
(<Verbosity.NORMAL: 'normal'>, <Verbosity.BRIEF: 'brief'>)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from importlib import resources


class Verbosity(Enum):
    """How much the narrator says."""

    BRIEF = "brief"
    NORMAL = "normal"
    VERBOSE = "verbose"

    def next(self) -> Verbosity:
        """The following level, wrapping around (brief, normal, verbose, brief...)."""
        order = list(Verbosity)
        return order[(order.index(self) + 1) % len(order)]


Form = str | Mapping[str, str]
"""One verbosity's text, or its text per CLDR plural category."""


class CatalogError(Exception):
    """A catalog file that breaks the format (a developer's or translator's mistake)."""


@dataclass(frozen=True, slots=True)
class Template:
    """One message in its three lengths; ``None`` means "as normal".

    ``count`` names the field whose number picks a plural form, when forms are tables.
    """

    normal: Form
    brief: Form | None = None
    verbose: Form | None = None
    count: str | None = None

    def form(self, verbosity: Verbosity) -> Form:
        """The form for ``verbosity`` (falling back to normal)."""
        if verbosity is Verbosity.BRIEF and self.brief is not None:
            return self.brief
        if verbosity is Verbosity.VERBOSE and self.verbose is not None:
            return self.verbose
        return self.normal

    def forms(self) -> list[Form]:
        """Every form this template defines."""
        return [f for f in (self.normal, self.brief, self.verbose) if f is not None]


def _template(message_id: str, raw: object, source: str) -> Template:
    if isinstance(raw, str):
        return Template(raw)
    if not isinstance(raw, dict) or "normal" not in raw:
        raise CatalogError(f"{source}: {message_id} needs a text or a table with 'normal'")
    unknown = set(raw) - {"normal", "brief", "verbose", "count"}
    if unknown:
        raise CatalogError(f"{source}: {message_id} has unknown keys {sorted(unknown)}")
    count = raw.get("count")
    forms: dict[str, Form | None] = {}
    for key in ("normal", "brief", "verbose"):
        form = raw.get(key)
        if isinstance(form, dict):
            if count is None or "other" not in form:
                raise CatalogError(f"{source}: {message_id}.{key} is a plural table: it "
                                   "needs 'other' and the entry needs 'count'")
        elif form is not None and not isinstance(form, str):
            raise CatalogError(f"{source}: {message_id}.{key} must be text or a table")
        forms[key] = form
    return Template(forms["normal"] or "", forms["brief"], forms["verbose"],
                    count if isinstance(count, str) else None)


def load_templates(language: str) -> dict[str, Template]:
    """Every template of ``language``, merged from its TOML files; ids must be unique."""
    folder = resources.files("voice_spades.narration").joinpath("locales", language)
    if not folder.is_dir():
        raise CatalogError(f"there is no catalog for language {language!r}")
    templates: dict[str, Template] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        source = f"{language}/{entry.name}"
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CatalogError(f"{source}: {exc}") from exc
        for message_id, raw in data.items():
            if message_id in templates:
                raise CatalogError(f"{source}: {message_id} is defined twice")
            templates[message_id] = _template(message_id, raw, source)
    return templates
