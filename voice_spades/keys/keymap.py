"""Keymaps: which key sends which action, from the default file and the player's own.

A keymap file has a ``[keys]`` table (always active) and a ``[question]`` table
(active while a yes/no question is pending, taking precedence). Each entry binds an
action to one key or a list of keys. Problems in the player's file are reported with
their line numbers; each faulty entry keeps its default keys. A problem is a catalog
:class:`~voice_spades.messages.Message` (``keymap.*`` and ``key.*`` ids), worded by
whoever shows it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from voice_spades.errors import InvalidInputError, InvalidStateError
from voice_spades.keys.actions import ACTIONS
from voice_spades.keys.names import key_label, key_message, parse_key
from voice_spades.messages import Message
from voice_spades.storage.bounded import SETTINGS_FILE_LIMIT, read_capped_text
from voice_spades.storage.envelope import set_aside
from voice_spades.storage.preferences import unusable

SECTIONS = ("keys", "question")
"""The tables of a keymap file, in the order they are documented."""

_QUESTION_ACTIONS = {"yes", "no", "cancel", "confirm"}
_ENTRY = re.compile(r'^\s*(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*=')
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]")

Bindings = dict[str, dict[str, list[str]]]
"""Section -> action -> keys."""


@dataclass
class Keymap:
    """Key bindings by section; see :meth:`action_for`."""

    bindings: Bindings
    problems: list[Message] = field(default_factory=list)
    """What was wrong in the player's file, as messages to say."""

    def action_for(self, key: str, question_pending: bool = False) -> str | None:
        """The action bound to ``key`` now, or None if the key does nothing."""
        sections = ("question", "keys") if question_pending else ("keys",)
        for section in sections:
            for action, keys in self.bindings.get(section, {}).items():
                if key in keys:
                    return action
        return None

    def keys_for(self, action: str, section: str = "keys") -> list[str]:
        """The keys bound to ``action`` in ``section``."""
        return list(self.bindings.get(section, {}).get(action, []))

    def label_for(self, action: str, section: str = "keys", default: str = "") -> str:
        """The spoken label of the first key bound to ``action``, or ``default``."""
        keys = self.keys_for(action, section)
        return key_label(keys[0]) if keys else default


def default_keymap_text() -> str:
    """The packaged default keymap (the project's keymap.toml)."""
    return resources.files("voice_spades.keys").joinpath("default_keymap.toml") \
        .read_text(encoding="utf-8")


def load_keymap(user_path: Path | None = None) -> Keymap:
    """The default keymap, overridden by ``user_path`` if it is given and exists.

    A file Python cannot take (too deep, a number too long, no ordinary file, too big)
    is moved aside as a damaged save is (a device named outright stays where it is), and
    the default keys are used; a file with mistakes is left for the player to mend."""
    defaults, problems = parse_keymap(default_keymap_text(), Message("keymap.default_source"))
    if problems:  # a broken packaged file is a bug; say so rather than hide it
        return Keymap(defaults, problems)
    if user_path is None or not user_path.exists():
        return Keymap(defaults)
    name = user_path.name
    try:
        text = read_capped_text(user_path, SETTINGS_FILE_LIMIT)
        user, problems = parse_keymap(text, name)
    except (OSError, UnicodeDecodeError) as exc:
        return Keymap(defaults, [Message("keymap.unreadable", name=name,
                                         error=exc.__class__.__name__)])
    except (InvalidStateError, RecursionError, ValueError) as exc:
        reason = unusable(exc)
        moved = set_aside(user_path, reason)
        if moved.moved_to is None:  # a device named outright: left alone
            return Keymap(defaults, [Message("keymap.refused", name=name, reason=reason)])
        return Keymap(defaults, [Message("keymap.moved_aside", name=name, reason=reason,
                                         moved=moved.where)])
    merged = merge(defaults, user)
    for action, keys in defaults["keys"].items():
        if keys and not merged["keys"][action]:
            taken = tuple(key_message(k) for k in keys)
            problems.append(Message("keymap.no_key_left", source=name, action=action,
                                    keys=taken))
    return Keymap(merged, problems)


def parse_keymap(text: str, source: str | Message) -> tuple[Bindings, list[Message]]:
    """Read a keymap file's text into bindings and a list of problems; ``source`` (a
    file name, or a message naming the file) starts each problem.

    Entries with a problem are left out (so the defaults stay in force for them).
    Text Python cannot take raises as :mod:`tomllib` does: RecursionError when nested
    too deeply, ValueError for a whole number of more than 4,300 digits.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return {}, [Message("keymap.not_toml", source=source, error=_toml_problem(str(exc)))]
    lines = _entry_lines(text)
    bindings: Bindings = {}
    problems: list[Message] = []
    for section, table in data.items():
        if section not in SECTIONS or not isinstance(table, dict):
            problems.append(Message("keymap.section", source=source, section=section,
                                    line=lines.get((section, None), "?")))
            continue
        taken: dict[str, tuple[str, int | str]] = {}
        for action, value in table.items():
            line = lines.get((section, action), "?")
            allowed = _QUESTION_ACTIONS if section == "question" else ACTIONS
            if action not in allowed:
                problems.append(Message("keymap.entry", source=source, line=line,
                                        problem=Message("keymap.not_an_action", action=action),
                                        fallback=Message("keymap.ignored")))
                continue
            problem = _entry_problem(value, taken)
            if problem is not None:
                problems.append(Message("keymap.entry", source=source, line=line,
                                        problem=problem,
                                        fallback=Message("keymap.default_kept", action=action)))
                continue
            keys = [parse_key(str(v)) for v in _as_list(value)]
            for key in keys:
                taken[key] = (action, line)
            bindings.setdefault(section, {})[action] = keys
    return bindings, problems


def _entry_problem(value: object, taken: dict[str, tuple[str, int | str]]) -> Message | None:
    """What is wrong with an action's keys, if anything (``taken``: keys bound above)."""
    values = _as_list(value)
    if not values or not all(isinstance(v, str) for v in values):
        return Message("keymap.bad_value")
    keys: list[str] = []
    for raw in values:
        assert isinstance(raw, str)
        try:
            key = parse_key(raw)
        except InvalidInputError as exc:
            return exc.message
        if key in taken:
            other, other_line = taken[key]
            return Message("keymap.bound_twice", key=key_message(key), other=other,
                           line=other_line)
        if key in keys:
            return Message("keymap.listed_twice", key=key_message(key))
        keys.append(key)
    return None


def merge(defaults: Bindings, user: Bindings) -> Bindings:
    """``defaults`` with each of ``user``'s entries replacing that action's keys; a key
    the player took for one action is removed from the default keys of the others."""
    merged: Bindings = {}
    for section in SECTIONS:
        base = {a: list(k) for a, k in defaults.get(section, {}).items()}
        mine = user.get(section, {})
        claimed = {key for keys in mine.values() for key in keys}
        for action in base:
            if action not in mine:
                base[action] = [k for k in base[action] if k not in claimed]
        base.update({a: list(k) for a, k in mine.items()})
        merged[section] = base
    return merged


def _as_list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else [value]


def _entry_lines(text: str) -> dict[tuple[str, str | None], int]:
    """Line number of each ``[section]`` header and each ``action =`` entry."""
    found: dict[tuple[str, str | None], int] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            section = header.group(1)
            found.setdefault((section, None), number)
            continue
        entry = _ENTRY.match(line)
        if entry:
            found.setdefault((section, entry.group(1) or entry.group(2)), number)
    return found


def _toml_problem(message: str) -> str | Message:
    """tomllib's message with its position put first: "line 3: Invalid value"."""
    match = re.search(r"\(at line (\d+), column \d+\)", message)
    if not match:
        return message
    return Message("keymap.toml_line", line=match.group(1),
                   error=message[:match.start()].strip())
