"""Key names: the canonical spelling used in keymaps, and how each is spoken.

Canonical names are lower case: ``"b"``, ``"shift+b"`` (what a terminal sends as
``B``), ``"ctrl+n"``, ``"7"``, ``"?"``, and the named keys of :data:`NAMED_KEYS`.
"""

from __future__ import annotations

import string

from voice_spades.narration.catalog import render

NAMED_KEYS: dict[str, str] = {
    "enter": "Enter", "escape": "Escape", "space": "Space", "tab": "Tab",
    "backspace": "Backspace", "delete": "Delete", "insert": "Insert",
    "up": "Up arrow", "down": "Down arrow", "left": "Left arrow", "right": "Right arrow",
    "home": "Home", "end": "End", "page_up": "Page Up", "page_down": "Page Down",
    **{f"f{n}": f"F{n}" for n in range(1, 13)},
}
"""Named keys and their spoken labels."""

UNKNOWN_KEY = "unknown"
"""The name given to a key sequence the terminal decoder does not recognise."""

_ALIASES = {"esc": "escape", "return": "enter", "del": "delete", "ins": "insert",
            "pgup": "page_up", "pageup": "page_up", "page-up": "page_up",
            "pgdn": "page_down", "pagedown": "page_down", "page-down": "page_down",
            "bksp": "backspace", "spacebar": "space"}
_MODIFIERS = {"shift": "shift", "ctrl": "ctrl", "control": "ctrl"}
_SPOKEN_PUNCTUATION = {
    "?": "question mark", "/": "slash", "+": "plus", "-": "minus", "=": "equals",
    ".": "period", ",": "comma", ";": "semicolon", ":": "colon", "'": "apostrophe",
    "[": "left bracket", "]": "right bracket", "\\": "backslash", "`": "backquote",
    "!": "exclamation mark", "#": "hash", "*": "star", "<": "less than", ">": "greater than",
}
# Ctrl+letters a terminal cannot deliver as keys: they are Tab, Enter and Backspace,
# or the terminal's own interrupt/suspend/flow-control keys.
_UNBINDABLE_CTRL = {"h", "i", "j", "m", "c", "z", "s", "q", "\\"}


def parse_key(text: str) -> str:
    """The canonical name of a key written in a keymap, or raise ValueError saying why.

    Accepts ``"B"`` (shift+b), ``"Shift+B"``, ``"ctrl+n"``, ``"Esc"``, ``"F1"``, ``"?"``...
    """
    raw = text.strip()
    if not raw:
        raise ValueError(render("key.empty"))
    if len(raw) == 1:
        return _single(raw)
    lowered = raw.lower()
    if "+" in lowered:
        modifier, _, base = lowered.partition("+")
        mod = _MODIFIERS.get(modifier.strip())
        base = base.strip()
        if mod is None or not base:
            raise ValueError(render("key.bad_modifier", text=text))
        if len(base) != 1 or base not in string.ascii_lowercase:
            raise ValueError(render("key.modifier_letter", text=text, mod=mod))
        if mod == "ctrl" and base in _UNBINDABLE_CTRL:
            raise ValueError(render("key.reserved", text=text))
        return f"{mod}+{base}"
    lowered = _ALIASES.get(lowered, lowered)
    if lowered in NAMED_KEYS:
        return lowered
    raise ValueError(render("key.unknown", text=text))


def _single(char: str) -> str:
    if char in string.ascii_uppercase:
        return f"shift+{char.lower()}"
    if char in string.ascii_lowercase or char in string.digits or char in string.punctuation:
        return char
    if char == " ":
        return "space"
    raise ValueError(render("key.unsendable", text=char))


def key_label(name: str) -> str:
    """How a key is spoken and printed: "B", "Shift H", "Control N", "F1", "question mark"."""
    if name in NAMED_KEYS:
        return NAMED_KEYS[name]
    if name == UNKNOWN_KEY:
        return render("key.that_key")
    if name.startswith("shift+"):
        return f"Shift {name[6:].upper()}"
    if name.startswith("ctrl+"):
        return f"Control {name[5:].upper()}"
    if name in _SPOKEN_PUNCTUATION:
        return _SPOKEN_PUNCTUATION[name]
    return name.upper()
