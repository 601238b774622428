"""Field forms: the other spellings a named value carries, and how a template asks for one.

A game value named in words (a card, a suit, a rank, a list of ranks, a seat) is a
:class:`Spelled` text: it reads as its bare name ("donna di cuori") and also carries
its *forms* ("the": "la donna di cuori"), built by the catalog from its own entries,
and, for a person, whether that person is the listener. A template chooses with a
format spec (:func:`fill`):

* ``{card}``: the bare name;
* ``{card:the}``: the form named ``the`` (with its definite article);
* ``{seat:A|B}``: ``A`` alone for the listener, else the name, a space and ``B``
  ("{Seat:Hai|ha} giocato" -> "Hai giocato" / "Ovest ha giocato");
* ``{side:A|B|C|D}``: the same for a group of people (``A``, ``B``), with ``C`` and ``D``
  used instead when the value names one person (a side of one player in a 3-, 5- or
  6-player game): "{Side:Avete vinto|hanno vinto|Hai vinto|ha vinto}";
* ``{score:.1f}`` and other specs: Python's own formatting, for numbers.

A field whose name starts with a capital (``{Seat}``, ``{Card:the}``) is written with
a capital first letter, whichever form was chosen. A template may also write a field in
lower case where the game passes it only capitalised (``{side}`` for ``Side=``): a
:class:`Spelled` value remembers its text before :func:`capital`.

>>> card = Spelled("donna di cuori", {"the": "la donna di cuori"})
>>> fill("Hai giocato {card:the}. {Card}!", {"card": card})
'Hai giocato la donna di cuori. Donna di cuori!'
>>> you, west = Spelled("tu", listener=True), Spelled("Ovest")
>>> fill("{Seat:Hai|ha} vinto.", {"seat": you}), fill("{Seat:Hai|ha} vinto.", {"seat": west})
('Hai vinto.', 'Ovest ha vinto.')
>>> won = "{Side:Avete vinto|hanno vinto|Hai vinto|ha vinto}."
>>> pair = Spelled("Nord e Sud", plural=True)
>>> fill(won, {"Side": pair}), fill(won, {"Side": west}), fill(won, {"Side": you})
('Nord e Sud hanno vinto.', 'Ovest ha vinto.', 'Hai vinto.')
>>> fill("La partita va a {side}.", {"Side": capital(Spelled("loro"))})
'La partita va a loro.'
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence

__all__ = ["SEAT_CHOICE", "Spelled", "capital", "fill", "join_spelled"]

SEAT_CHOICE = "|"
"""Separates the listener's text from everyone else's in a format spec: ``{seat:A|B}``."""

_PARSER = string.Formatter()


class Spelled(str):
    """Text naming a game value, with its other forms and, for a seat, whether it is
    the listener. It is a ``str``: wherever it is used as text it is the bare name."""

    forms: Mapping[str, str]
    listener: bool
    uncapitalised: Spelled | None
    plural: bool

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None,
                listener: bool = False, uncapitalised: Spelled | None = None,
                plural: bool = False) -> Spelled:
        spelled = super().__new__(cls, text)
        spelled.forms = dict(forms or {})
        spelled.listener = listener
        spelled.uncapitalised = uncapitalised
        spelled.plural = plural
        return spelled

    def form(self, name: str) -> str:
        """The form ``name``; KeyError if this value has none by that name."""
        try:
            return self.forms[name]
        except KeyError:
            raise KeyError(f"{str(self)!r} has no form {name!r} (it has "
                           f"{sorted(self.forms) or 'none'})") from None


def capital(text: str) -> str:
    """``text`` with its first letter in upper case, for the start of a sentence (a
    :class:`Spelled` text keeps its forms, capitalised too, and its listener mark)."""
    if isinstance(text, Spelled):
        return Spelled(capital(str(text)), {k: capital(v) for k, v in text.forms.items()},
                       text.listener, text.uncapitalised or text, text.plural)
    return text[:1].upper() + text[1:]


def join_spelled(joined: str, items: Sequence[str], join: Callable[[list[str]], str]
                 ) -> Spelled:
    """``joined`` (the bare ``items`` joined by ``join``) with every form that some item
    has, joined the same way (items without the form are joined bare)."""
    names = {name for item in items if isinstance(item, Spelled) for name in item.forms}
    return Spelled(joined, {
        name: join([item.forms.get(name, item) if isinstance(item, Spelled) else item
                    for item in items]) for name in sorted(names)})


def fill(form: str, values: Mapping[str, object], strict: bool = True) -> str:
    """``form`` with its fields filled from ``values`` (see the module's text).

    Raises KeyError for a field with no value. A form the value does not have is a
    KeyError too when ``strict``; otherwise the bare text is used (a translation that
    asks for a form where the game passes plain text is then still understood).
    """
    out: list[str] = []
    for literal, field, spec, conversion in _PARSER.parse(form):
        out.append(literal)
        if field is None:
            continue
        if conversion or (spec and "{" in spec):
            raise KeyError(f"field {{{field}}}: conversions and nested fields are not used")
        out.append(_field(field, spec or "", values, strict))
    return "".join(out)


def _value(name: str, values: Mapping[str, object]) -> object:
    if name in values:
        return values[name]
    lower, upper = name[:1].lower() + name[1:], name[:1].upper() + name[1:]
    if lower != name and lower in values:
        return values[lower]
    capitalised = values.get(upper) if upper != name else None
    if isinstance(capitalised, Spelled):
        return capitalised.uncapitalised or capitalised
    raise KeyError(name)


def _field(name: str, spec: str, values: Mapping[str, object], strict: bool) -> str:
    value = _value(name, values)
    if not spec:
        text = str(value)
    elif SEAT_CHOICE in spec:
        choices = spec.split(SEAT_CHOICE)
        if len(choices) == 4:
            one_person = not getattr(value, "plural", False)
            mine, others = choices[2:4] if one_person else choices[0:2]
        else:
            mine, others = spec.split(SEAT_CHOICE, 1)
        text = mine if getattr(value, "listener", False) else \
            f"{value} {others}" if others else str(value)
    elif isinstance(value, Spelled) and (strict or spec in value.forms):
        text = value.form(spec)
    elif isinstance(value, str):
        if strict:
            raise KeyError(f"{{{name}:{spec}}}: the value {value!r} has no forms")
        text = value
    else:
        try:
            text = format(value, spec)
        except ValueError:
            if strict:
                raise KeyError(f"{{{name}:{spec}}}: no such form of {value!r}") from None
            text = str(value)
    return capital(text) if name[:1].isupper() else text
