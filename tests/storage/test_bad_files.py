"""Files that crashed every start (too deep, numbers too long) and folders that cannot
be written: each is reported with its reason, never a traceback."""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path

import pytest

from voice_spades.engine import Match, profile
from voice_spades.errors import InvalidInputError
from voice_spades.messages import Message
from voice_spades.narration import render_message
from voice_spades.storage import CorruptFileError, SaveStore, Stats, data_paths, write_problem

DEEP = "[" * 100_000 + "]" * 100_000
LONG = "7" * 5_000


def load_save(path: Path) -> object:
    return SaveStore(path).load()


def load_stats(path: Path) -> object:
    stats = Stats(path)
    stats.load()
    return stats.records


@pytest.mark.parametrize(("load", "name", "kind"), [
    (load_save, "savegame.json", "voice-spades-save/1"),
    (load_stats, "stats.json", "voice-spades-stats/1"),
])
@pytest.mark.parametrize(("text", "reason"), [
    (lambda kind: DEEP, "storage.too_deep"),
    (lambda kind: f'{{"format": "{kind}", "settings": {{}}, "match": {DEEP}, '
                  f'"profiles": {DEEP}}}', "storage.too_deep"),
    (lambda kind: LONG, "storage.number_too_long"),
    (lambda kind: f'{{"format": "{kind}", "settings": {{"seed": {LONG}}}, '
                  f'"profiles": {{"pagat": {{"wins": {LONG}, "losses": 0}}}}}}',
     "storage.number_too_long"),
])
def test_a_file_too_deep_or_with_a_huge_number_is_moved_aside(
        tmp_path: Path, load: Callable[[Path], object], name: str, kind: str,
        text: Callable[[str], str], reason: str) -> None:
    path = tmp_path / name
    path.write_text(text(kind))
    with pytest.raises(CorruptFileError) as caught:
        load(path)
    assert caught.value.reason == Message(reason)
    assert caught.value.moved_to is not None and caught.value.moved_to.exists()
    assert caught.value.moved_to.name.startswith(f"{name}.corrupt-")
    assert not path.exists()
    assert load(path) in (None, {})  # the next start is a fresh one


def test_the_reasons_are_sentences() -> None:
    assert render_message(Message("storage.too_deep")) == \
        "the file is nested too deeply to be read."
    assert render_message(Message("storage.number_too_long")) == \
        "the file holds a number too long to be read."


def test_a_folder_that_cannot_be_looked_into_is_reported_not_raised(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Path) -> bool:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "exists", refuse)
    with pytest.raises(CorruptFileError) as caught:
        SaveStore(tmp_path / "savegame.json").load()
    assert caught.value.reason == Message("storage.unreadable", error="PermissionError")
    assert caught.value.moved_to is None


@pytest.mark.parametrize(("error", "message_id"), [
    (PermissionError(errno.EACCES, "Permission denied"), "storage.no_permission"),
    (PermissionError(errno.EPERM, "Operation not permitted"), "storage.no_permission"),
    (OSError(errno.EROFS, "Read-only file system"), "storage.read_only"),
    (OSError(errno.ENOSPC, "No space left on device"), "storage.disk_full"),
])
def test_why_a_write_failed_names_the_folder(tmp_path: Path, error: OSError,
                                             message_id: str) -> None:
    assert write_problem(error, tmp_path) == Message(message_id, folder=str(tmp_path))


def test_another_failure_says_what_the_system_said(tmp_path: Path) -> None:
    problem = write_problem(OSError(errno.EIO, "Input/output error"), tmp_path)
    assert render_message(problem) == f"writing in {tmp_path} failed (Input/output error)"


@pytest.mark.parametrize("folder", ["afile", "afile/deeper"])
def test_a_file_where_the_data_folder_should_be_is_named(tmp_path: Path, folder: str) -> None:
    """Like --data-dir /etc/hostname: saving fails, and the reason names the file."""
    (tmp_path / "afile").write_text("not a folder")
    store = SaveStore(tmp_path / folder / "savegame.json")
    with pytest.raises(OSError) as caught:
        store.save(Match(profile("pagat"), 1), {})
    problem = write_problem(caught.value, store.path.parent)
    assert render_message(problem) == f"{tmp_path / 'afile'} is a file, not a folder"


@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_data_folder_name_is_refused(name: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        data_paths(name)
    assert caught.value.message == Message("storage.empty_folder_name")
    assert "current folder" in render_message(caught.value.message)
