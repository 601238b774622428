"""The one message catalog: every sentence the game says, keyed by message id.

The sentences are data, in TOML files a translator can edit without reading Python:
``locales/<language>/*.toml`` beside this module (the format is described in
``locales/README.md``). Each entry has a normal form and, where they differ, a brief
and a verbose form; ``""`` means "say nothing at this verbosity". A form may be a
table of CLDR plural categories (``one``, ``few``, ``many``, ``other``...) chosen by
the number in the field that the entry's ``count`` key names. Templates use
``str.format`` fields. Nothing else in the game builds a sentence.

>>> render("storage.bad_record", name="pagat")
'the record for pagat is damaged.'
>>> render("word.bags", n=1), render("word.bags", n=3)
('1 bag', '3 bags')
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from typing import Any

from babel import Locale

from voice_spades.messages import Message

DEFAULT_LANGUAGE = "en"


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


class Catalog:
    """Every message of one language, rendered with fields at a verbosity."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language
        self.templates = load_templates(language)
        self._locale = Locale.parse(language)

    def plural_category(self, number: int) -> str:
        """The CLDR plural category of ``number`` in this language ("one", "other"...)."""
        return str(self._locale.plural_form(abs(number)))

    def render(self, message_id: str, verbosity: Verbosity = Verbosity.NORMAL, /,
               **fields: Any) -> str:
        """The message ``message_id`` at ``verbosity`` with its fields filled in.

        A field holding a :class:`Message` (or an error carrying one) is rendered first.
        Raises KeyError for an unknown id or a missing field: both are programming errors.
        """
        template = self.templates[message_id]
        form = template.form(verbosity)
        if not isinstance(form, str):
            number = fields[template.count] if template.count else 0
            category = self.plural_category(int(number))
            form = form.get(category, form["other"])
        values = {key: self._value(value, verbosity) for key, value in fields.items()}
        return form.format(**values)

    def render_message(self, message: Message,
                       verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """:meth:`render` for a :class:`Message` value."""
        return self.render(message.id, verbosity, **message.fields)

    def _value(self, value: object, verbosity: Verbosity) -> object:
        if isinstance(value, Message):
            return self.render_message(value, verbosity)
        carried = getattr(value, "message", None)
        if isinstance(value, Exception) and isinstance(carried, Message):
            return self.render_message(carried, verbosity)
        return value


@functools.cache
def catalog(language: str = DEFAULT_LANGUAGE) -> Catalog:
    """The loaded catalog of ``language`` (loaded once)."""
    return Catalog(language)


def render(message_id: str, verbosity: Verbosity = Verbosity.NORMAL, /,
           **fields: Any) -> str:
    """:meth:`Catalog.render` in the default language."""
    return catalog().render(message_id, verbosity, **fields)


def render_message(message: Message, verbosity: Verbosity = Verbosity.NORMAL) -> str:
    """:meth:`Catalog.render_message` in the default language."""
    return catalog().render_message(message, verbosity)


CATALOG: Mapping[str, Template] = catalog().templates
"""Every message of the default language, by id."""
