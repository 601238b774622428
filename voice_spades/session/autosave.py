"""Autosave after every action: a failure is told once and play goes on."""

from __future__ import annotations

from voice_spades.messages import Message
from voice_spades.session.settings import GameSettings
from voice_spades.storage import SaveStore, write_problem
from voice_spades.table import Table


class Autosave:
    """Saves the table after every action and remembers why the last save failed."""

    def __init__(self) -> None:
        self.problem: Message | None = None
        """Why the last save failed (None when it worked): said again at quit."""
        self._told = False

    def save(self, store: SaveStore | None, table: Table, settings: GameSettings) \
            -> Message | None:
        """Save (atomic); the reason to tell the player, the first time a save fails."""
        if store is None or table.is_over:
            return None
        try:
            table.save(store, settings.to_dict())
        except OSError as exc:
            self.problem = write_problem(exc, store.path.parent)
            if not self._told:
                self._told = True
                return self.problem
        else:
            self.problem = None
        return None
