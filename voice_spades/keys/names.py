"""Key names: the canonical spelling used in keymaps, and how each is spoken.

Canonical names are lower case: ``"b"``, ``"shift+b"`` (what a terminal sends as
``B``), ``"ctrl+n"``, ``"7"``, ``"?"``, and the named keys of :data:`NAMED_KEYS`.
"""

from __future__ import annotations

import string

from voice_spades.errors import InvalidInputError
from voice_spades.messages import Message
from voice_spades.narration import render_message

NAMED_KEYS: tuple[str, ...] = (
    "enter", "escape", "space", "tab", "backspace", "delete", "insert",
    "up", "down", "left", "right", "home", "end", "page_up", "page_down",
    *(f"f{n}" for n in range(1, 13)),
)
"""Named keys; each is spoken as its catalog entry ``key.name.<name>`` ("Enter", "Up
arrow"), the function keys as ``key.name.function`` ("F1")."""

_FUNCTION_KEYS = frozenset(f"f{n}" for n in range(1, 13))
"""The function keys, which also take Shift ("shift+f1")."""

UNKNOWN_KEY = "unknown"
"""The name given to a key sequence the terminal decoder does not recognise."""

_ALIASES = {"esc": "escape", "return": "enter", "del": "delete", "ins": "insert",
            "pgup": "page_up", "pageup": "page_up", "page-up": "page_up",
            "pgdn": "page_down", "pagedown": "page_down", "page-down": "page_down",
            "bksp": "backspace", "spacebar": "space"}
_MODIFIERS = {"shift": "shift", "ctrl": "ctrl", "control": "ctrl"}
_PUNCTUATION = {
    "?": "question_mark", "/": "slash", "+": "plus", "-": "minus", "=": "equals",
    ".": "period", ",": "comma", ";": "semicolon", ":": "colon", "'": "apostrophe",
    "[": "left_bracket", "]": "right_bracket", "\\": "backslash", "`": "backquote",
    "!": "exclamation_mark", "#": "hash", "*": "star", "<": "less_than", ">": "greater_than",
}
"""Punctuation keys spoken by name: the catalog's ``key.name.<name>``."""

# Ctrl+letters a terminal cannot deliver as keys: they are Tab, Enter and Backspace,
# or the terminal's own interrupt/suspend/flow-control keys.
_UNBINDABLE_CTRL = {"h", "i", "j", "m", "c", "z", "s", "q", "\\"}


def parse_key(text: str) -> str:
    """The canonical name of a key written in a keymap; InvalidInputError (a ValueError)
    says why a text is not one.

    Accepts ``"B"`` (shift+b), ``"Shift+B"``, ``"ctrl+n"``, ``"Esc"``, ``"F1"``, ``"?"``...
    """
    raw = text.strip()
    if not raw:
        raise InvalidInputError("key.empty")
    if len(raw) == 1:
        return _single(raw)
    lowered = raw.lower()
    if "+" in lowered:
        modifier, _, base = lowered.partition("+")
        mod = _MODIFIERS.get(modifier.strip())
        base = base.strip()
        if mod is None or not base:
            raise InvalidInputError("key.bad_modifier", text=text)
        if mod == "shift" and base in _FUNCTION_KEYS:
            return f"shift+{base}"
        if len(base) != 1 or base not in string.ascii_lowercase:
            raise InvalidInputError("key.modifier_letter", text=text, mod=mod)
        if mod == "ctrl" and base in _UNBINDABLE_CTRL:
            raise InvalidInputError("key.reserved", text=text)
        return f"{mod}+{base}"
    lowered = _ALIASES.get(lowered, lowered)
    if lowered in NAMED_KEYS:
        return lowered
    raise InvalidInputError("key.unknown", text=text)


def _single(char: str) -> str:
    if char in string.ascii_uppercase:
        return f"shift+{char.lower()}"
    if char in string.ascii_lowercase or char in string.digits or char in string.punctuation:
        return char
    if char == " ":
        return "space"
    raise InvalidInputError("key.unsendable", text=char)


def key_message(name: str) -> Message:
    """How a key is spoken and printed, as a catalog message: "B", "Shift H",
    "Control N", "F1", "question mark"."""
    if name == UNKNOWN_KEY:
        return Message("key.that_key")
    if name in NAMED_KEYS:
        if name[0] == "f" and name[1:].isdigit():
            return Message("key.name.function", n=int(name[1:]))
        return Message(f"key.name.{name}")
    if name.startswith("shift+"):
        return Message("key.name.shift", key=name[6:].upper())
    if name.startswith("ctrl+"):
        return Message("key.name.ctrl", key=name[5:].upper())
    if name in _PUNCTUATION:
        return Message(f"key.name.{_PUNCTUATION[name]}")
    return Message("key.name.char", key=name.upper())


def key_label(name: str) -> str:
    """:func:`key_message` in words, in the default language.

    >>> key_label("shift+h"), key_label("ctrl+n"), key_label("f1"), key_label("?")
    ('Shift H', 'Control N', 'F1', 'question mark')
    """
    return render_message(key_message(name))
