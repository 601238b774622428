"""The options a match was started with, saved with it and restored on resume.

Saved settings are checked field by field with plain ``if`` tests (they hold under
``python -O``); each failure is an :class:`~voice_spades.errors.InvalidStateError`
whose message names the field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from voice_spades.bots import LEVELS
from voice_spades.engine import (
    DEFAULT_HAND_LIMIT,
    MAX_HAND_LIMIT,
    PROFILE_NAMES,
    MatchEnd,
    RuleOptions,
    profile,
)
from voice_spades.errors import InvalidInputError, InvalidStateError

ENDINGS = tuple(ending.value for ending in MatchEnd)
"""The match endings by name (``MatchEnd`` values), default first."""
TARGETS: dict[str, tuple[int, int]] = {"playroom": (500, 2000)}
"""Targets a new match may choose, per profile: playroom offers 500 to 2000 (its text:
"500 points, sometimes 1000, 1500 or 2000 for longer games")."""
MAX_TARGET = 2000
"""No rule text plays to more than this; a bigger target never ends the match."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What defines a match: rules, table, opponents and seed."""

    rules: str = "pagat"
    players: int | None = None
    level: str = "medium"
    target: int | None = None
    seed: int = 0
    no_hell: bool = False
    quicksand: bool = False
    suicide: bool = False
    ending: str = MatchEnd.MINUS_TARGET.value
    """What else ends the match (a :class:`~voice_spades.engine.MatchEnd` value)."""
    hands: int = DEFAULT_HAND_LIMIT
    """The hand limit (``RuleOptions.hand_limit``); 0: no limit."""
    seat: int = 0
    """The player's seat (0 is South); the bots play the others."""

    def rule_options(self) -> RuleOptions:
        """The engine rules; raises InvalidInputError with a speakable reason."""
        return profile(self.rules, players=self.players, target=self.target,
                       no_hell=self.no_hell, quicksand=self.quicksand, suicide=self.suicide,
                       ending=MatchEnd(self.ending), hand_limit=self.hands or None)

    def check_new(self) -> RuleOptions:
        """The rules of a new match with these settings, which must also keep to the
        targets a player may choose (a saved match keeps the target it had); raises
        InvalidInputError with a speakable reason.

        >>> GameSettings(rules="playroom", target=499).check_new()
        Traceback (most recent call last):
        ...
        voice_spades.errors.InvalidInputError: Message('options.target_range', \
rules='playroom', low=500, high=2000, target=499)
        """
        if not 0 <= self.hands <= MAX_HAND_LIMIT:
            raise InvalidInputError("options.hands_range", high=MAX_HAND_LIMIT,
                                    hands=self.hands)
        rules = self.rule_options()
        target = rules.target
        if self.rules in TARGETS:
            low, high = TARGETS[self.rules]
            if not low <= target <= high:
                raise InvalidInputError("options.target_range", rules=self.rules, low=low,
                                        high=high, target=target)
        elif target > MAX_TARGET:
            raise InvalidInputError("options.target_too_high", high=MAX_TARGET, target=target)
        return rules

    def to_dict(self) -> dict[str, object]:
        """As JSON values."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> GameSettings:
        """Inverse of :meth:`to_dict`; raises InvalidStateError naming the bad field.

        Fields left out take their defaults; unknown keys are ignored (a newer save).

        >>> GameSettings.from_dict({"rules": "playroom", "players": 3}).players
        3
        >>> GameSettings.from_dict({"no_hell": 1})
        Traceback (most recent call last):
        ...
        voice_spades.errors.InvalidStateError: Message('settings.bad_field', name='no_hell')
        """
        if not isinstance(data, dict):
            raise InvalidStateError("settings.not_a_table")
        kwargs: dict[str, object] = {}
        for f in dataclasses.fields(cls):
            if f.name in data:
                kwargs[f.name] = _checked(f.name, data[f.name], getattr(_DEFAULTS, f.name))
        settings = cls(**kwargs)  # type: ignore[arg-type]
        if settings.rules not in PROFILE_NAMES:
            raise InvalidStateError("settings.unknown_rules", name="rules", rules=settings.rules)
        if settings.level not in LEVELS:
            raise InvalidStateError("settings.unknown_level", name="level", level=settings.level)
        if settings.ending not in ENDINGS:
            raise InvalidStateError("settings.bad_field", name="ending")
        try:
            rules = settings.rule_options()
        except InvalidInputError as exc:
            raise InvalidStateError("settings.bad_rules", reason=exc) from exc
        if not 0 <= settings.seat < rules.players:
            raise InvalidStateError("settings.bad_field", name="seat")
        return settings


_DEFAULTS = GameSettings()


def _checked(name: str, value: object, default: object) -> object:
    """``value`` if it has the type of the field ``name`` (whose default is ``default``)."""
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, str):
        ok = isinstance(value, str)
    else:  # a number, or None for "the profile's own"
        ok = (isinstance(value, int) and not isinstance(value, bool)) or (
            value is None and default is None)
    if not ok:
        raise InvalidStateError("settings.bad_field", name=name)
    return value
