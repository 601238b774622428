"""What a usable Vosk model folder holds, and what keeps one from working.

Only models with a dynamic graph (``graph/HCLr.fst`` + ``graph/Gr.fst``, such as
vosk-model-small-en-us-0.15) honour a grammar; a model with a static
``graph/HCLG.fst`` silently ignores it and would answer with any words at all, so
:func:`check_model_folder` refuses such models. Problems are :class:`Message`
values (the catalog words them): listings, downloads and the Vosk recognizer all
report them to the player.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from voice_spades.errors import InvalidStateError, SetupError
from voice_spades.messages import Message
from voice_spades.storage.bounded import SETTINGS_FILE_LIMIT, read_capped
from voice_spades.voice.lists import chain

REQUIRED_FILES = ("am/final.mdl", "conf/mfcc.conf", "conf/model.conf")
DYNAMIC_GRAPH_FILES = ("graph/HCLr.fst", "graph/Gr.fst", "graph/disambig_tid.int")
STATIC_GRAPH_FILE = "graph/HCLG.fst"
IVECTOR_FILES = ("ivector/final.ie", "ivector/final.dubm", "ivector/final.mat",
                 "ivector/global_cmvn.stats", "ivector/online_cmvn.conf",
                 "ivector/splice.conf")


def check_model_folder(path: str | Path) -> list[Message]:
    """Return what keeps the Vosk model folder ``path`` from working; empty when usable.

    Each missing file is named by its path inside the folder
    (``Message("voice.model.missing", file="am/final.mdl")``). A model whose graph
    is a static ``graph/HCLG.fst`` is refused: Vosk ignores grammars with it.
    The i-vector files are required when the folder has an ``ivector/``
    folder or ``conf/model.conf`` mentions i-vectors.
    """
    folder = Path(path)
    if not folder.is_dir():
        return [Message("voice.model.no_folder", path=folder)]

    def missing(names: Sequence[str]) -> list[Message]:
        return [Message("voice.model.missing", file=name) for name in names
                if not (folder / name).is_file()]

    problems = missing(REQUIRED_FILES)
    if (folder / STATIC_GRAPH_FILE).is_file():
        problems.append(Message("voice.model.static_graph", file=STATIC_GRAPH_FILE))
    else:
        problems += missing(DYNAMIC_GRAPH_FILES)
    if _uses_ivectors(folder):
        problems += missing(IVECTOR_FILES)
    return problems


def _uses_ivectors(folder: Path) -> bool:
    if (folder / "ivector").is_dir():
        return True
    try:
        config = read_capped(folder / "conf" / "model.conf", SETTINGS_FILE_LIMIT) \
            .decode("utf-8", errors="replace")
    except (OSError, InvalidStateError):  # also a pipe or device in its place
        return False
    return "ivector" in config.lower()


def problem_list(problems: Sequence[Message]) -> Message:
    """One message listing ``problems`` (at least one): "a is missing; b is missing"."""
    return chain("voice.problems", problems)


def require_model_folder(path: str | Path) -> Path:
    """Return ``path`` as a Path if it holds a usable Vosk model, else raise SetupError."""
    problems = check_model_folder(path)
    if problems:
        raise SetupError("voice.model.unusable", path=path, problems=problem_list(problems))
    return Path(path)
