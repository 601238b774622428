"""Files the game keeps: the autosaved match, statistics, and where they live.

Storage sits below narration and builds no sentence: an unusable file is reported as a
:class:`CorruptFileError` carrying a catalog message (``storage.*``) and the place the
file was moved to.
"""

from voice_spades.storage.atomic import atomic_write_text, move_aside
from voice_spades.storage.envelope import CorruptFileError
from voice_spades.storage.paths import HOME_ENV, DataPaths, data_paths
from voice_spades.storage.problems import write_problem
from voice_spades.storage.saves import SavedGame, SaveStore
from voice_spades.storage.stats import Stats

__all__ = ["HOME_ENV", "CorruptFileError", "DataPaths", "SaveStore", "SavedGame", "Stats",
           "atomic_write_text", "data_paths", "move_aside", "write_problem"]
