"""Where the game keeps its files: saves, statistics, the player's keymap and
preferences."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from voice_spades.storage.problems import checked_folder, checked_name_length

APP_NAME = "voice-spades"
HOME_ENV = "VOICE_SPADES_HOME"
"""Environment variable naming one folder for everything (like ``--data-dir``)."""


@dataclass(frozen=True, slots=True)
class DataPaths:
    """The game's files. With a data folder override, all of them live in it."""

    data_dir: Path
    config_dir: Path
    voice_dir: Path | None = None
    """Where the voice training is kept, when not in :attr:`data_dir`: a second copy
    of the game saves its game in a folder of its own, but the voice is the player's in
    every game."""

    @property
    def save_file(self) -> Path:
        """The match in progress."""
        return self.data_dir / "savegame.json"

    @property
    def stats_file(self) -> Path:
        """Wins and losses per rule profile."""
        return self.data_dir / "stats.json"

    def voice_training_file(self, language: str) -> Path:
        """The model's means trained on the player's voice for ``language``
        (``voice-spades train-voice``), in PocketSphinx's means format."""
        return (self.voice_dir or self.data_dir) / f"voice-training-{language}.means"

    @property
    def keymap_file(self) -> Path:
        """The player's own keymap, if they wrote one."""
        return self.config_dir / "keymap.toml"

    @property
    def preferences_file(self) -> Path:
        """The player's preferences (see :mod:`.preferences`)."""
        return self.config_dir / "preferences.toml"


def data_paths(data_dir: str | os.PathLike[str] | None = None) -> DataPaths:
    """The folders to use: ``data_dir`` if given, else ``$VOICE_SPADES_HOME``, else the
    platform's user data and config folders. An empty ``data_dir`` is refused
    (InvalidInputError): it would mean the current folder; so is one too long for the
    system."""
    if data_dir is not None:
        data_dir = checked_folder(os.fspath(data_dir))
    override = data_dir if data_dir is not None else os.environ.get(HOME_ENV) or None
    if override is not None:
        folder = Path(override).expanduser()
        if data_dir is not None:
            checked_name_length("--data-dir", folder)
        return DataPaths(folder, folder)
    return DataPaths(Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
                     Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)))
