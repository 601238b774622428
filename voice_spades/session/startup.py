"""Opening the game: resume the saved match, or start the one asked for."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from voice_spades.engine import Match
from voice_spades.errors import InvalidStateError
from voice_spades.messages import Message
from voice_spades.session.settings import GameSettings
from voice_spades.storage import CorruptFileError, SaveStore


@dataclass
class Opening:
    """The match to play, its settings, and what to tell the player about it."""

    match: Match
    settings: GameSettings
    resumed: bool
    notices: list[Message] = field(default_factory=list)
    """Said once the game starts (a save that could not be read, options not used)."""


def open_game(store: SaveStore, requested: GameSettings, given: set[str],
              fresh: bool = False) -> Opening:
    """Resume the saved match unless ``fresh``; otherwise (or if there is none, or it
    is unreadable) start ``requested``. ``given`` names the settings the player typed,
    so they can be told which ones a resumed game did not use.

    ``requested`` must already be valid (its :meth:`GameSettings.rule_options` works).
    """
    notices: list[Message] = []
    if not fresh:
        try:
            saved = store.load()
        except CorruptFileError as exc:
            notices.append(corrupt_notice("setup.save_corrupt", exc))
            saved = None
        if saved is not None:
            try:
                # The match's own rules say how it ends (a save from before the options
                # has none in its settings, and ends at the target only, no hand limit).
                rules = saved.match.rules
                settings = dataclasses.replace(GameSettings.from_dict(saved.settings),
                                               ending=rules.ending.value,
                                               hands=rules.hand_limit or 0)
            except InvalidStateError as exc:
                notices.append(corrupt_notice("setup.save_corrupt", store.discard(exc)))
            else:
                ignored = sorted(name for name in given
                                 if getattr(requested, name) != getattr(settings, name))
                if ignored:
                    options = ", ".join(f"--{n.replace('_', '-')}" for n in ignored)
                    notices.append(Message("setup.options_ignored", options=options))
                return Opening(saved.match, settings, True, notices)
    settings = requested
    if "seed" not in given:
        settings = dataclasses.replace(settings, seed=random.randrange(2**31))
    return Opening(Match(settings.rule_options(), settings.seed), settings, False, notices)


def corrupt_notice(message_id: str, exc: CorruptFileError) -> Message:
    """The notice that a file was unreadable (why) and where it went."""
    return Message(message_id, reason=exc.reason, name=exc.where)
