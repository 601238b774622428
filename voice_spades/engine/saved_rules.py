"""Rule options as JSON values, and reading them back with real checks.

A saved match carries its :class:`~voice_spades.engine.profiles.RuleOptions`. Reading
them checks every value's type and range explicitly (never with ``assert``, which
``python -O`` removes): a flag must be true or false, not 1; a number a whole number,
not 500.5 or "100"; and each refusal names the option.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum

from voice_spades.engine.profiles import MAX_HAND_LIMIT, MatchEnd, RuleOptions
from voice_spades.engine.seats import SEAT_NAMES
from voice_spades.errors import InvalidInputError

MIN_PLAYERS = min(SEAT_NAMES)
MAX_PLAYERS = max(SEAT_NAMES)
POINTS_LIMIT = 1000
"""No rule awards or takes away more points than this at once."""

INT_RANGES: dict[str, tuple[int, int | None]] = {
    "players": (MIN_PLAYERS, MAX_PLAYERS),
    "target": (1, None),
    "nil_points": (0, POINTS_LIMIT),
    "blind_nil_points": (0, POINTS_LIMIT),
    "blind_nil_exchange": (0, 13),
    "exact_bid_bonus": (0, POINTS_LIMIT),
    "big_contract_bonus": (0, POINTS_LIMIT),
    "bag_limit": (1, 100),
    "bag_penalty": (0, POINTS_LIMIT),
    "hand_limit": (1, MAX_HAND_LIMIT),
}
"""Allowed values of each whole-number option, lowest and highest (None: no limit)."""
OPTIONAL_INTS = frozenset({"hand_limit"})
"""Whole-number options that may also be null (JSON ``null``: none)."""

_DEFAULTS = RuleOptions()
BEFORE_OPTION: dict[str, object] = {"ending": MatchEnd.TARGET, "hand_limit": None}
"""Options added after matches were first saved: a saved match without the key was
played under this value (matches ended only at the target, with no hand limit), so it
replays the same."""
_FIELDS = frozenset(field.name for field in dataclasses.fields(RuleOptions))


def options_to_dict(options: RuleOptions) -> dict[str, object]:
    """Options as plain JSON values."""
    out: dict[str, object] = {}
    for field in dataclasses.fields(options):
        value = getattr(options, field.name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


def options_from_dict(data: dict[str, object]) -> RuleOptions:
    """Inverse of :func:`options_to_dict`. Raises InvalidInputError, naming the option,
    for an unknown option or a value of the wrong type or out of range.

    >>> options_from_dict({"players": 5, "player_range": [3, 6]}).hand_size
    10
    >>> try:
    ...     options_from_dict({"no_hell": 1})
    ... except InvalidInputError as error:
    ...     print(error.message)
    Message('rules.option_not_bool', name='no_hell', value='1')

    An option the data leaves out takes its default, except those of
    :data:`BEFORE_OPTION`, which take the value they had before they existed:

    >>> options_from_dict({}).ending
    <MatchEnd.TARGET: 'target'>
    >>> options_from_dict({}).hand_limit is None
    True
    """
    kwargs = {key: value for key, value in BEFORE_OPTION.items() if key not in data}
    kwargs.update((key, option_value(key, value)) for key, value in data.items())
    return RuleOptions(**kwargs)  # type: ignore[arg-type]


def option_value(key: str, value: object) -> object:
    """The checked value of option ``key`` read from JSON (enums from their text,
    the player range as a tuple); raises InvalidInputError naming the option."""
    if key not in _FIELDS:
        raise InvalidInputError("rules.unknown_option", name=key)
    default = getattr(_DEFAULTS, key)
    if key in OPTIONAL_INTS and value is None:
        return None
    if isinstance(default, Enum):
        choices = {member.value: member for member in type(default)}
        if not isinstance(value, str) or value not in choices:
            raise _bad("rules.bad_option", key, value)
        return choices[value]
    if key == "player_range":
        return _player_range(key, value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise _bad("rules.option_not_bool", key, value)
        return value
    if isinstance(default, int):
        return _whole_number(key, value)
    if isinstance(default, str):
        if not isinstance(value, str) or not value:
            raise _bad("rules.option_not_text", key, value)
        return value
    raise AssertionError(f"unreachable: option {key} has no reader")


def _whole_number(key: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad("rules.option_not_int", key, value)
    low, high = INT_RANGES[key]
    if high is None and value < low:
        raise _bad("rules.option_too_low", key, value, low=low)
    if high is not None and not low <= value <= high:
        raise _bad("rules.option_out_of_range", key, value, low=low, high=high)
    return value


def _player_range(key: str, value: object) -> tuple[int, int]:
    if isinstance(value, list) and len(value) == 2 and all(
            isinstance(n, int) and not isinstance(n, bool) for n in value):
        low, high = value
        if MIN_PLAYERS <= low <= high <= MAX_PLAYERS:
            return (low, high)
    raise _bad("rules.option_not_player_range", key, value, low=MIN_PLAYERS,
               high=MAX_PLAYERS)


def _bad(message_id: str, key: str, value: object, **limits: int) -> InvalidInputError:
    """The refusal of option ``key``; the value is quoted as the file has it."""
    try:
        shown = json.dumps(value)
    except (TypeError, ValueError):
        shown = repr(value)
    return InvalidInputError(message_id, name=key, value=shown, **limits)
