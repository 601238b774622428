"""The options a match was started with, saved with it and restored on resume."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from voice_spades.bots import LEVELS
from voice_spades.engine.profiles import RuleOptions, profile
from voice_spades.errors import InvalidStateError
from voice_spades.narration.catalog import render


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

    def rule_options(self) -> RuleOptions:
        """The engine rules; raises InvalidInputError with a speakable reason."""
        return profile(self.rules, players=self.players, target=self.target,
                       no_hell=self.no_hell, quicksand=self.quicksand, suicide=self.suicide)

    def to_dict(self) -> dict[str, object]:
        """As JSON values."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> GameSettings:
        """Inverse of :meth:`to_dict`; raises InvalidStateError on a bad field."""
        kwargs: dict[str, object] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            default = getattr(cls(), f.name)
            ok = (isinstance(value, bool) if isinstance(default, bool)
                  else isinstance(value, str) if isinstance(default, str)
                  else value is None or (isinstance(value, int)
                                         and not isinstance(value, bool)))
            if not ok:
                raise InvalidStateError(render("storage.bad_setting", name=f.name))
            kwargs[f.name] = value
        settings = cls(**kwargs)  # type: ignore[arg-type]
        if settings.level not in LEVELS:
            raise InvalidStateError(render("storage.bad_level", level=settings.level))
        return settings
