"""Where speech models live, which are installed, and which Vosk model to use.

PocketSphinx's English model ships inside the pocketsphinx package, so voice
always works. Vosk models are looked for in:

1. a folder given by option (``model_path``) or by ``$VOICE_SPADES_VOSK_MODEL``;
2. ``models/`` in the project folder, when running from a checkout;
3. ``models/`` in the game's data folder (``$VOICE_SPADES_HOME/models``, else
   the platform's user data folder).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from voice_spades.errors import InvalidStateError, SetupError
from voice_spades.messages import Message
from voice_spades.storage.bounded import SETTINGS_FILE_LIMIT, read_capped_text
from voice_spades.storage.paths import data_paths
from voice_spades.voice.models.folder import check_model_folder, problem_list

VOSK_EN_NAME = "vosk-model-small-en-us-0.15"
"""The small US English Vosk model: the one ``models download vosk-en`` installs."""
MODEL_ENV = "VOICE_SPADES_VOSK_MODEL"
"""Environment variable naming a Vosk model folder to use."""
VOSK_SITE = "https://alphacephei.com/vosk/models"
"""Where the Vosk models are published."""
RECORD_FILE = "voice-spades-download.toml"
"""Written into a model folder after a download: the archive's SHA-256, size and URL."""


@dataclass(frozen=True, slots=True)
class VoskDownload:
    """A Vosk model ``models download`` knows: its key ("vosk-it"), folder name,
    language, about how many MB it is, and its exact size and SHA-256 where published
    (only the English model's are; the others are checked by size, the zip's own CRCs
    and the folder layout, and the SHA-256 seen is recorded)."""

    key: str
    name: str
    language: str
    megabytes: int
    size: int | None = None
    sha256: str | None = None

    @property
    def url(self) -> str:
        """The archive's address on the Vosk site."""
        return f"{VOSK_SITE}/{self.name}.zip"

    def size_range(self) -> tuple[int, int]:
        """The archive sizes accepted: the exact size, else within 15% of the size given."""
        if self.size is not None:
            return self.size, self.size
        return int(self.megabytes * 0.85e6), int(self.megabytes * 1.15e6)


VOSK_DOWNLOADS = {d.key: d for d in (
    VoskDownload("vosk-en", VOSK_EN_NAME, "en", 41, 41_205_931,
                 "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"),
    VoskDownload("vosk-it", "vosk-model-small-it-0.22", "it", 48),
    VoskDownload("vosk-fr", "vosk-model-small-fr-0.22", "fr", 41),
)}
"""The models ``voice-spades models download`` fetches, by key."""


def download_for(language: str) -> VoskDownload:
    """The downloadable model of ``language`` (English for a language without one)."""
    for known in VOSK_DOWNLOADS.values():
        if known.language == language:
            return known
    return VOSK_DOWNLOADS["vosk-en"]


def model_language(name: str) -> str | None:
    """The language a Vosk model folder's name gives ("vosk-model-small-it-0.22" -> "it",
    "vosk-model-en-us-0.22" -> "en"), or None."""
    for part in re.split(r"[-_.]", name.lower()):
        if part in ("en", "it", "fr", "de", "es", "pt", "ru", "cn", "ja", "nl", "uk"):
            return part
    return None


def download_record(folder: Path) -> dict[str, object]:
    """What was recorded when the model in ``folder`` was downloaded (empty if nothing
    was, or the record cannot be read)."""
    try:
        return tomllib.loads(read_capped_text(folder / RECORD_FILE, SETTINGS_FILE_LIMIT))
    except (OSError, InvalidStateError, ValueError, RecursionError):  # also not UTF-8, not TOML
        return {}


def project_models_dir() -> Path | None:
    """Return ``models/`` of the project checkout this package runs from, if it does."""
    root = Path(__file__).resolve().parents[3]
    if (root / "pyproject.toml").is_file() and (root / "voice_spades").is_dir():
        return root / "models"
    return None


def data_models_dir() -> Path:
    """Return ``models/`` in the game's data folder (``$VOICE_SPADES_HOME`` honoured)."""
    return data_paths().data_dir / "models"


def default_models_dir() -> Path:
    """Return where downloads go: the checkout's ``models/``, else the data folder's."""
    return project_models_dir() or data_models_dir()


def models_dirs() -> list[Path]:
    """Return the folders searched for Vosk models, in order."""
    dirs = [d for d in (project_models_dir(), data_models_dir()) if d is not None]
    return list(dict.fromkeys(dirs))


@dataclass(frozen=True)
class ModelEntry:
    """One speech model found on this machine.

    ``kind`` is "vosk" or "pocketsphinx"; ``problem`` says why an unusable
    model cannot be used.
    """

    name: str
    path: Path
    kind: str
    usable: bool
    problem: Message | None = None
    sha256: str | None = None
    """The archive's SHA-256 recorded at download, if it was downloaded here."""


def vosk_entry(path: str | Path) -> ModelEntry:
    """Describe the Vosk model folder ``path``."""
    folder = Path(path).expanduser()
    problems = check_model_folder(folder)
    digest = download_record(folder).get("sha256")
    return ModelEntry(folder.name, folder, "vosk", not problems,
                      problem_list(problems) if problems else None,
                      digest if isinstance(digest, str) else None)


def pocketsphinx_entry() -> ModelEntry:
    """Describe the English model built into the pocketsphinx package."""
    try:
        import pocketsphinx
    except ImportError as error:
        return ModelEntry("en-us", Path("pocketsphinx"), "pocketsphinx", False,
                          Message("voice.model.pocketsphinx_missing", error=str(error)))
    folder = Path(pocketsphinx.get_model_path()) / "en-us"
    needed = ("en-us/mdef", "en-us/means", "cmudict-en-us.dict", "en-us-phone.lm.bin")
    missing = [Message("voice.model.missing", file=name) for name in needed
               if not (folder / name).is_file()]
    return ModelEntry("en-us", folder, "pocketsphinx", not missing,
                      problem_list(missing) if missing else None)


def list_models(model_path: str | Path | None = None,
                dirs: Sequence[Path] | None = None) -> list[ModelEntry]:
    """Return every speech model found: Vosk ones first, PocketSphinx's built-in last.

    ``model_path`` (and ``$VOICE_SPADES_VOSK_MODEL``) are listed whether or
    not they work; every visible folder inside the model folders (``dirs``,
    by default :func:`models_dirs`) is taken for a Vosk model.
    """
    explicit = [Path(p).expanduser() for p in (model_path, os.environ.get(MODEL_ENV)) if p]
    found: list[Path] = []
    for folder in models_dirs() if dirs is None else dirs:
        if folder.is_dir():
            found += sorted((p for p in folder.iterdir()
                             if p.is_dir() and not p.name.startswith(".")),
                            key=lambda p: (p.name != VOSK_EN_NAME, p.name))
    paths = list(dict.fromkeys(p.resolve() for p in [*explicit, *found]))
    return [*(vosk_entry(p) for p in paths), pocketsphinx_entry()]


def find_vosk_model(model_path: str | Path | None = None,
                    dirs: Sequence[Path] | None = None, language: str | None = None) -> Path:
    """Return the Vosk model folder to use, or raise SetupError saying why there is none.

    A folder given by ``model_path`` or ``$VOICE_SPADES_VOSK_MODEL`` must be
    usable (whatever its language: the player chose it); otherwise the first usable
    model in the model folders wins. With ``language`` only a model of that language
    counts (its folder's name says it, as Vosk names them; a model whose name says no
    language counts for English).
    """
    given = model_path or os.environ.get(MODEL_ENV) or None
    if given is not None:
        entry = vosk_entry(given)
        if not entry.usable:
            raise SetupError("voice.model.unusable", path=entry.path, problems=entry.problem)
        return entry.path
    entries = [e for e in list_models(dirs=dirs) if e.kind == "vosk"
               and (language is None or (model_language(e.name) or "en") == language)]
    for entry in entries:
        if entry.usable:
            return entry.path
    wanted = download_for(language or "en")
    if entries:
        broken = entries[0]
        if wanted.language == "en":
            raise SetupError("voice.model.unusable_get_one", path=broken.path,
                             problems=broken.problem)
        raise SetupError("voice.language.model.unusable_get_one", path=broken.path,
                         problems=broken.problem, key=wanted.key)
    if wanted.language == "en" or language is None:
        raise SetupError("voice.model.none")
    raise SetupError("voice.language.model.none", key=wanted.key)
