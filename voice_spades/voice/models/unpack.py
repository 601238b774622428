"""Unpacking a downloaded model archive: safely, and all or nothing.

The archive is refused if a member would land outside the target (an absolute
path, ``..``, a drive letter, a symbolic link) or if it would unpack to more than
:data:`MAX_UNPACKED_BYTES`. It is unpacked beside the target and moved into place
in one step, after the folder check of :mod:`.folder` passed.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from voice_spades.errors import SetupError
from voice_spades.voice.models.folder import check_model_folder, problem_list

MAX_UNPACKED_BYTES = 2 * 1024**3


def unpack_model(archive_path: Path, dest: Path, name: str) -> None:
    """Unpack ``archive_path`` into ``dest / name`` atomically, or leave nothing.

    A model already at ``dest / name`` is replaced. SetupError says what failed.
    """
    work = Path(tempfile.mkdtemp(prefix=f".{name}.unpack-", dir=dest))
    try:
        files = work / "files"
        try:
            with zipfile.ZipFile(archive_path) as archive:
                _refuse_unsafe(archive.infolist())
                archive.extractall(files)
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise SetupError("voice.unpack.damaged", error=str(error)) from error
        root = _model_root(files)
        problems = check_model_folder(root)
        if problems:
            raise SetupError("voice.unpack.not_a_model", problems=problem_list(problems))
        target = dest / name
        if target.exists() or target.is_symlink():
            os.replace(target, work / "old")
        os.replace(root, target)
    except OSError as error:
        raise SetupError("voice.unpack.failed", path=dest, error=str(error)) from error
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
            raise SetupError("voice.unpack.unsafe_path", name=name)
        total += member.file_size
    if total > MAX_UNPACKED_BYTES:
        raise SetupError("voice.unpack.too_big", gigabytes=MAX_UNPACKED_BYTES // 1024**3)


def _model_root(folder: Path) -> Path:
    """The model folder inside an unpacked archive: its only top folder, or itself."""
    entries = [p for p in folder.iterdir() if p.name != "__MACOSX"] if folder.is_dir() else []
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return folder
