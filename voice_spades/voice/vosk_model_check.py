"""Is a folder a Vosk model this game can use?

Vosk loads ``graph/HCLG.fst`` when it exists and then ignores any phrase
grammar, so only "dynamic graph" models (``graph/HCLr.fst`` + ``graph/Gr.fst``,
as in the small models) can be restricted to the allowed phrases. The check
names every missing file, so a broken download can be explained in one
sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REQUIRED = ("am/final.mdl", "conf/mfcc.conf", "conf/model.conf")
DYNAMIC_GRAPH = ("graph/HCLr.fst", "graph/Gr.fst", "graph/disambig_tid.int")
STATIC_GRAPH = "graph/HCLG.fst"
IVECTOR = ("ivector/final.ie", "ivector/final.dubm", "ivector/final.mat",
           "ivector/global_cmvn.stats", "ivector/online_cmvn.conf", "ivector/splice.conf")
WORD_BOUNDARIES = "graph/phones/word_boundary.int"


@dataclass(frozen=True)
class VoskModelCheck:
    """The verdict on one model folder.

    ``missing`` lists required files that are absent (paths inside the
    folder); ``problems`` other reasons the model cannot serve; ``warnings``
    things that work but worse. The model is usable when both are empty.
    """

    path: Path
    missing: tuple[str, ...]
    problems: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def usable(self) -> bool:
        """True when the game can restrict this model to its phrases."""
        return not self.missing and not self.problems

    @property
    def message(self) -> str:
        """One plain sentence saying what is wrong (or that all is well)."""
        if not self.path.is_dir():
            return f"The Vosk model folder {self.path} does not exist."
        parts = []
        if self.missing:
            parts.append("is missing " + ", ".join(self.missing))
        parts.extend(self.problems)
        if not parts:
            return f"The Vosk model in {self.path} is complete."
        return f"The Vosk model in {self.path} " + "; it ".join(parts) + "."


def check_vosk_model(path: str | Path) -> VoskModelCheck:
    """Check the files of the Vosk model folder ``path`` (nothing is loaded)."""
    folder = Path(path)
    if not folder.is_dir():
        return VoskModelCheck(folder, (), ("does not exist",), ())
    missing = [name for name in REQUIRED if not (folder / name).is_file()]
    problems: list[str] = []
    warnings: list[str] = []
    if (folder / STATIC_GRAPH).is_file():
        problems.append(
            f"has {STATIC_GRAPH}, so Vosk would ignore the phrase list; use a small or "
            "-lgraph model (with graph/HCLr.fst and graph/Gr.fst)")
    else:
        missing.extend(name for name in DYNAMIC_GRAPH if not (folder / name).is_file())
    if _uses_ivectors(folder):
        missing.extend(name for name in IVECTOR if not (folder / name).is_file())
    if not (folder / WORD_BOUNDARIES).is_file():
        warnings.append(f"{WORD_BOUNDARIES} is missing, so words get no timings")
    return VoskModelCheck(folder, tuple(missing), tuple(problems), tuple(warnings))


def _uses_ivectors(folder: Path) -> bool:
    """True when the model has an i-vector folder or its configuration names one."""
    if (folder / "ivector").exists():
        return True
    conf = folder / "conf"
    if not conf.is_dir():
        return False
    return any("ivector" in item.read_text(errors="replace").lower()
               for item in conf.iterdir() if item.is_file() and item.suffix == ".conf")


def looks_like_vosk_model(path: Path) -> bool:
    """True for a folder that seems meant as a Vosk model, complete or not."""
    return path.is_dir() and any((path / part).exists() for part in ("am", "conf", "graph"))
