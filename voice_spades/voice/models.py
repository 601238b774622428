"""Speech models: where they live, which recognizer to use, and the Vosk download.

PocketSphinx's English model ships inside the pocketsphinx package, so voice
always works. A Vosk model is optional and downloaded on request
(``voice-spades models download vosk-en``). Vosk models are looked for in:

1. a folder given by option (``model_path``) or by ``$VOICE_SPADES_VOSK_MODEL``;
2. ``models/`` in the project folder, when running from a checkout;
3. ``models/`` in the game's data folder (``$VOICE_SPADES_HOME/models``, else
   the platform's user data folder).

``$VOICE_SPADES_VOSK_URL`` makes ``models download`` fetch the same archive
from a mirror; its size and SHA-256 are still checked.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import os
import shutil
import stat
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from voice_spades.errors import InvalidInputError, SetupError, SpadesError
from voice_spades.storage.paths import data_paths
from voice_spades.voice.recognizer import Recognizer
from voice_spades.voice.vosk_backend import check_model_folder

VOSK_EN_NAME = "vosk-model-small-en-us-0.15"
VOSK_EN_URL = f"https://alphacephei.com/vosk/models/{VOSK_EN_NAME}.zip"
VOSK_EN_SIZE = 41_205_931
VOSK_EN_SHA256 = "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"

MODEL_ENV = "VOICE_SPADES_VOSK_MODEL"
"""Environment variable naming a Vosk model folder to use."""
URL_ENV = "VOICE_SPADES_VOSK_URL"
"""Environment variable naming a mirror of the Vosk English model archive."""

DOWNLOAD_TIMEOUT = 30.0
DOWNLOAD_ATTEMPTS = 3
MAX_UNPACKED_BYTES = 2 * 1024**3

Progress = Callable[[int, int], None]
"""Called with (bytes downloaded, total bytes) as a download goes on."""

_NO_DOWNLOAD_NEEDED = "Voice keeps using PocketSphinx, which needs no download."
_GET_ONE = "`voice-spades models download vosk-en` gets one."


# -- locations ---------------------------------------------------------------------


def project_models_dir() -> Path | None:
    """Return ``models/`` of the project checkout this package runs from, if it does."""
    root = Path(__file__).resolve().parents[2]
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


# -- listing -----------------------------------------------------------------------


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
    problem: str | None = None


def vosk_entry(path: str | Path) -> ModelEntry:
    """Describe the Vosk model folder ``path``."""
    folder = Path(path).expanduser()
    problems = check_model_folder(folder)
    return ModelEntry(folder.name, folder, "vosk", not problems,
                      "; ".join(problems) if problems else None)


def pocketsphinx_entry() -> ModelEntry:
    """Describe the English model built into the pocketsphinx package."""
    try:
        import pocketsphinx
    except ImportError as error:
        return ModelEntry("en-us", Path("pocketsphinx"), "pocketsphinx", False,
                          f"pocketsphinx is not installed ({error})")
    folder = Path(pocketsphinx.get_model_path()) / "en-us"
    needed = ("en-us/mdef", "en-us/means", "cmudict-en-us.dict", "en-us-phone.lm.bin")
    missing = [f"{name} is missing" for name in needed if not (folder / name).is_file()]
    return ModelEntry("en-us", folder, "pocketsphinx", not missing,
                      "; ".join(missing) if missing else None)


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
                    dirs: Sequence[Path] | None = None) -> Path:
    """Return the Vosk model folder to use, or raise SetupError saying why there is none.

    A folder given by ``model_path`` or ``$VOICE_SPADES_VOSK_MODEL`` must be
    usable; otherwise the first usable model in the model folders wins.
    """
    given = model_path or os.environ.get(MODEL_ENV) or None
    if given is not None:
        entry = vosk_entry(given)
        if not entry.usable:
            raise SetupError(f"The Vosk model at {entry.path} cannot be used: {entry.problem}.")
        return entry.path
    entries = [e for e in list_models(dirs=dirs) if e.kind == "vosk"]
    for entry in entries:
        if entry.usable:
            return entry.path
    if entries:
        broken = entries[0]
        raise SetupError(f"The Vosk model at {broken.path} cannot be used: {broken.problem}. "
                         f"{_GET_ONE}")
    raise SetupError(f"No Vosk model installed. {_GET_ONE}")


# -- choosing a recognizer ---------------------------------------------------------


def choose_recognizer(preferred: str | None = None,
                      model_path: str | None = None) -> tuple[Recognizer, str]:
    """Return the recognizer to use and a sentence saying which one and why.

    ``preferred`` is "vosk", "pocketsphinx" or None/"auto". Vosk is used
    when a usable Vosk model is found (unless PocketSphinx was asked for);
    otherwise PocketSphinx, which always works, and the message says what
    Vosk lacked.
    """
    choice = (preferred or "auto").strip().lower()
    if choice not in ("auto", "vosk", "pocketsphinx"):
        raise InvalidInputError(f"Unknown recognizer {preferred!r}: "
                                "choose vosk, pocketsphinx or auto.")
    if choice == "pocketsphinx":
        return _pocketsphinx(), "Using PocketSphinx, as asked."
    try:
        path = find_vosk_model(model_path)
        from voice_spades.voice.vosk_backend import VoskRecognizer

        return VoskRecognizer(path), f"Using Vosk with the model {path.name} ({path})."
    except SetupError as error:
        why = str(error)
    why = why[:1].lower() + why[1:]
    prefix = "Using PocketSphinx instead of Vosk" if choice == "vosk" else "Using PocketSphinx"
    return _pocketsphinx(), f"{prefix}: {why}"


def _pocketsphinx() -> Recognizer:
    try:
        from voice_spades.voice.pocketsphinx_backend import PocketSphinxRecognizer
    except ImportError as error:
        raise SetupError(f"No speech recognizer can run here: PocketSphinx is missing "
                         f"({error}). The keyboard still plays everything.") from error
    return PocketSphinxRecognizer()


# -- downloading -------------------------------------------------------------------


class PercentProgress:
    """Prints download progress as plain lines every ``step`` percent.

    Whole lines (no carriage-return animation) read well in screen readers
    and in logs alike.
    """

    def __init__(self, stream: TextIO | None = None, step: int = 5) -> None:
        self.stream = stream
        self.step = step
        self._last: int | None = None

    def __call__(self, done: int, total: int) -> None:
        """Report that ``done`` of ``total`` bytes have arrived."""
        if total <= 0:
            return
        percent = min(100, done * 100 // total)
        mark = percent - percent % self.step
        if self._last is None:
            self._last = mark
            if done:
                self._print(f"Resuming at {percent}%.")
            return
        if mark > self._last:
            self._last = mark
            self._print(f"{mark}% downloaded ({done / 1e6:.1f} of {total / 1e6:.1f} MB).")

    def _print(self, line: str) -> None:
        print(line, file=self.stream or sys.stderr, flush=True)


def download_vosk_en(dest_dir: str | Path | None = None, url: str = VOSK_EN_URL,
                     sha256: str = VOSK_EN_SHA256, size: int = VOSK_EN_SIZE,
                     progress: Progress | None = None, *, timeout: float = DOWNLOAD_TIMEOUT,
                     attempts: int = DOWNLOAD_ATTEMPTS) -> Path:
    """Download, check and unpack the small English Vosk model; return its folder.

    The archive goes to ``<dest>/.vosk-model-small-en-us-0.15.zip.part``; a
    broken download is resumed with an HTTP Range request (within this call
    up to ``attempts`` times, and on the next call). Size and SHA-256 are
    checked, then the archive is unpacked beside the target and moved into
    place in one step, so a failure never leaves half a model. An installed,
    usable model is returned without downloading. Every failure raises
    SetupError with a message that can be spoken.
    """
    dest = Path(dest_dir).expanduser() if dest_dir is not None else default_models_dir()
    target = dest / VOSK_EN_NAME
    if not check_model_folder(target):
        return target
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SetupError(f"Cannot create the model folder {dest} ({error}).") from error
    part = dest / f".{VOSK_EN_NAME}.zip.part"
    _fetch(url, part, size, progress, timeout, max(1, attempts))
    _verify(part, size, sha256)
    try:
        _unpack(part, dest, VOSK_EN_NAME)
    finally:
        part.unlink(missing_ok=True)
    return target


def _fetch(url: str, part: Path, size: int, progress: Progress | None, timeout: float,
           attempts: int) -> None:
    """Bring ``part`` to ``size`` bytes, resuming from what it already holds."""
    problem = "no answer"
    for _ in range(attempts):
        have = part.stat().st_size if part.exists() else 0
        if have > size:
            part.unlink()
            have = 0
        if have == size:
            return
        headers = {"User-Agent": "voice-spades", "Accept-Encoding": "identity"}
        if have:
            headers["Range"] = f"bytes={have}-"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                        timeout=timeout) as response:
                start = _resume_offset(response, have)
                _receive(response, part, start, size, progress)
        except urllib.error.HTTPError as error:
            if error.code == 416 and have:  # the part file no longer matches the server's
                part.unlink(missing_ok=True)
                problem = "the server refused to resume"
                continue
            raise SetupError(f"The model server answered {error.code} {error.reason} for "
                             f"{url}. {_NO_DOWNLOAD_NEEDED}") from error
        except urllib.error.URLError as error:
            raise SetupError(f"Could not reach the model server ({error.reason}). "
                             f"{_NO_DOWNLOAD_NEEDED}") from error
        except (OSError, http.client.HTTPException) as error:
            problem = str(error) or type(error).__name__
            continue
        if part.exists() and part.stat().st_size < size:
            problem = "the connection closed early"
    have = part.stat().st_size if part.exists() else 0
    if have >= size:
        return
    if have == 0:
        raise SetupError(f"Could not reach the model server ({problem}). {_NO_DOWNLOAD_NEEDED}")
    raise SetupError(f"The download stopped at {have * 100 // size}% ({problem}). Run "
                     "`voice-spades models download vosk-en` again to resume where it "
                     f"stopped. {_NO_DOWNLOAD_NEEDED}")


def _resume_offset(response: http.client.HTTPResponse, have: int) -> int:
    """Return where the body starts: ``have`` if the server resumed, else 0."""
    if have and response.status == 206:
        content_range = response.headers.get("Content-Range", "")
        if content_range.startswith(f"bytes {have}-"):
            return have
        raise http.client.HTTPException(f"unexpected Content-Range {content_range!r}")
    return 0  # a 200 answer is the whole file: start over


def _receive(response: http.client.HTTPResponse, part: Path, start: int, size: int,
             progress: Progress | None) -> None:
    done = start
    with part.open("r+b" if start else "wb") as out:
        out.seek(start)
        out.truncate()
        if progress:
            progress(done, size)
        while chunk := response.read(64 * 1024):
            out.write(chunk)
            done += len(chunk)
            if progress:
                progress(done, size)
            if done > size:
                break


def _verify(part: Path, size: int, sha256: str) -> None:
    actual = part.stat().st_size
    digest = hashlib.sha256()
    with part.open("rb") as handle:
        while block := handle.read(1024 * 1024):
            digest.update(block)
    if actual != size or digest.hexdigest() != sha256.lower():
        part.unlink(missing_ok=True)
        what = (f"{actual} bytes instead of {size}" if actual != size
                else "its SHA-256 checksum did not match")
        raise SetupError(f"The download was corrupt ({what}), so it was deleted. Please try "
                         "again: `voice-spades models download vosk-en`.")


def _unpack(archive_path: Path, dest: Path, name: str) -> None:
    """Unpack ``archive_path`` into ``dest / name`` atomically, or leave nothing."""
    work = Path(tempfile.mkdtemp(prefix=f".{name}.unpack-", dir=dest))
    try:
        files = work / "files"
        try:
            with zipfile.ZipFile(archive_path) as archive:
                _refuse_unsafe(archive.infolist())
                archive.extractall(files)
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise SetupError(f"The model archive is damaged ({error}); nothing was "
                             "installed. Please try again.") from error
        root = _model_root(files)
        problems = check_model_folder(root)
        if problems:
            raise SetupError("The model archive does not hold a usable Vosk model ("
                             f"{'; '.join(problems)}); nothing was installed.")
        target = dest / name
        if target.exists() or target.is_symlink():
            os.replace(target, work / "old")
        os.replace(root, target)
    except OSError as error:
        raise SetupError(f"Could not unpack the model into {dest} ({error}); "
                         "nothing was installed.") from error
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _refuse_unsafe(members: Sequence[zipfile.ZipInfo]) -> None:
    total = 0
    for member in members:
        name = member.filename
        parts = name.replace("\\", "/").split("/")
        mode = member.external_attr >> 16
        if (name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":")
                or stat.S_ISLNK(mode)):
            raise SetupError(f"The model archive holds an unsafe path ({name}); "
                             "nothing was unpacked.")
        total += member.file_size
    if total > MAX_UNPACKED_BYTES:
        raise SetupError("The model archive would unpack to more than "
                         f"{MAX_UNPACKED_BYTES // 1024**3} GB; nothing was unpacked.")


def _model_root(folder: Path) -> Path:
    """The model folder inside an unpacked archive: its only top folder, or itself."""
    entries = [p for p in folder.iterdir() if p.name != "__MACOSX"] if folder.is_dir() else []
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return folder


# -- the command -------------------------------------------------------------------


def models_main(argv: list[str]) -> int:
    """``voice-spades models list | download vosk-en [--dest DIR]``; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="voice-spades models",
        description="List speech models or download the English Vosk model.",
        epilog=f"${MODEL_ENV} names a Vosk model folder to use; ${URL_ENV} a mirror of "
               "the model archive.")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="list the speech models found")
    listing.add_argument("--model", metavar="DIR", help="also check this Vosk model folder")
    download = commands.add_parser("download", help="download a model")
    download.add_argument("model", choices=["vosk-en"], help="vosk-en: small US English model")
    download.add_argument("--dest", metavar="DIR",
                          help=f"folder to put it in (default: {default_models_dir()})")
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    try:
        if args.command == "list":
            return _print_list(args.model)
        return _download(args.dest)
    except KeyboardInterrupt:
        print("Download interrupted. Run the same command again to resume.", file=sys.stderr)
        return 130
    except (SpadesError, OSError) as error:
        print(str(error), file=sys.stderr)
        return 1


def _print_list(model_path: str | None) -> int:
    entries = list_models(model_path)
    print("Speech models:")
    for entry in entries:
        kind = "PocketSphinx, built in" if entry.kind == "pocketsphinx" else "Vosk"
        state = "ready" if entry.usable else f"not usable: {entry.problem}"
        print(f"{entry.name} ({kind}): {state}. {entry.path}")
    if not any(e.usable for e in entries if e.kind == "vosk"):
        print(f"No Vosk model installed. {_GET_ONE}")
    print("Vosk models are looked for in: "
          + ", ".join(str(d) for d in models_dirs()) + f", or ${MODEL_ENV}.")
    return 0


def _download(dest: str | None) -> int:
    url = os.environ.get(URL_ENV) or VOSK_EN_URL
    folder = Path(dest).expanduser() if dest else default_models_dir()
    if not check_model_folder(folder / VOSK_EN_NAME):
        print(f"The Vosk model is already installed in {folder / VOSK_EN_NAME}.")
        return 0
    print(f"Downloading {VOSK_EN_NAME} ({VOSK_EN_SIZE / 1e6:.0f} MB) from {url} "
          f"into {folder}.", file=sys.stderr, flush=True)
    path = download_vosk_en(folder, url=url, sha256=VOSK_EN_SHA256, size=VOSK_EN_SIZE,
                            progress=PercentProgress())
    print(f"The Vosk model is ready in {path}.")
    return 0
