"""The offer to download the Vosk model of the game's language: said once, never
without a yes, its progress said at a bounded rate and low priority, the download the
checked and resumable one, served here by a local HTTP server."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.session.fakes import make_session
from tests.voice.test_models import (  # noqa: F401 - the fixtures
    Server,
    closed_port_url,
    no_models,
    server,
)
from voice_spades.commands import Confirm
from voice_spades.narration import Priority
from voice_spades.storage import data_paths
from voice_spades.storage.paths import DataPaths
from voice_spades.storage.preferences import Preferences, load_preferences, save_preferences
from voice_spades.voice.model_offer import (
    PROGRESS_SECONDS,
    ModelDownload,
    maybe_offer,
    model_to_offer,
    offer_model,
)
from voice_spades.voice.models import download
from voice_spades.voice.models.command import voice_main
from voice_spades.voice.models.folder import check_model_folder
from voice_spades.voice.models.locations import VOSK_DOWNLOADS, VOSK_EN_NAME, VoskDownload


def served(web: Server) -> VoskDownload:
    """The English model as the test server has it (its size and checksum)."""
    return dataclasses.replace(VOSK_DOWNLOADS["vosk-en"], size=web.size,
                               sha256=web.sha256, megabytes=1)


def settle(session: object) -> None:
    while session.step():  # type: ignore[attr-defined]
        pass


@pytest.fixture
def paths(tmp_path: Path) -> DataPaths:
    return data_paths(tmp_path / "data")


@pytest.fixture
def web(server: Server) -> Server:  # noqa: F811
    """The local server, serving a model laid out like the English one."""
    return server


@pytest.fixture
def none_installed(no_models: Path) -> Path:  # noqa: F811
    """No Vosk model in any models folder."""
    return no_models


@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_the_model_is_offered_once_for_each_language(language: str, paths: DataPaths,
                                                     none_installed: Path) -> None:
    session, out = make_session()
    assert maybe_offer(session, language, paths, built_in=False) is None  # chosen
    offered = maybe_offer(session, language, paths, built_in=True)
    assert offered is not None and offered.spec.language == language
    settle(session)
    notice = out.last("voice.offer.notice").text
    assert "less well than a Vosk model" in notice and "voice-spades voice download" in notice
    if language != "en":
        assert "most things" in notice
    megabytes = VOSK_DOWNLOADS[f"vosk-{language}"].megabytes
    assert out.last("question.yes_no").text == \
        f"Download the Vosk model now, {megabytes} MB? Yes or no?"
    # Asked: never again, whatever the answer, until the player asks for it.
    assert load_preferences(paths.config_dir)[0].offer_voice_model is False
    assert model_to_offer(language, paths) is None
    save_preferences(paths.config_dir, Preferences(offer_voice_model=True))
    assert model_to_offer(language, paths) == VOSK_DOWNLOADS[f"vosk-{language}"]


def test_yes_downloads_checks_and_installs_while_the_game_goes_on(
        web: Server, paths: DataPaths, tmp_path: Path, none_installed: Path) -> None:
    session, out = make_session()
    web.drops = 1  # the line drops half-way: the download resumes with a Range
    fetch = offer_model(session, served(web), paths, dest=tmp_path / "models",
                        url=web.url)
    settle(session)
    session.handle(Confirm(True))
    assert fetch.thread is not None
    fetch.thread.join(timeout=10)
    assert not fetch.thread.is_alive()
    assert out.ids.count("voice.offer.starting") == 1
    assert out.last("voice.offer.done").text.endswith("Voice will use it from the next game.")
    assert fetch.folder == tmp_path / "models" / VOSK_EN_NAME
    assert check_model_folder(fetch.folder) == []
    assert web.ranges[-1] is not None and web.ranges[-1].startswith("bytes=")
    progress = [line for line in out.lines if line.message_id == "voice.offer.progress"]
    assert progress and all(line.priority is Priority.LOW for line in progress)


def test_no_downloads_nothing(web: Server, paths: DataPaths, tmp_path: Path,
                              none_installed: Path) -> None:
    session, out = make_session()
    fetch = offer_model(session, served(web), paths, dest=tmp_path / "dest",
                        url=web.url)
    settle(session)
    session.handle(Confirm(False))
    assert fetch.thread is None and web.ranges == []
    assert not (tmp_path / "dest").exists()
    assert "voice.offer.starting" not in out.ids


def test_a_failed_download_says_why_and_how_to_try_again(paths: DataPaths, tmp_path: Path,
                                                        none_installed: Path) -> None:
    session, out = make_session()
    spec = dataclasses.replace(VOSK_DOWNLOADS["vosk-en"], megabytes=1)
    fetch = offer_model(session, spec, paths, dest=tmp_path / "models",
                        url=closed_port_url())
    settle(session)
    session.handle(Confirm(True))
    assert fetch.thread is not None
    fetch.thread.join(timeout=10)
    assert out.last("voice.offer.failed").text.startswith("To try again, run")
    assert "voice.offer.done" not in out.ids


def test_progress_is_said_every_ten_percent_at_most_every_few_seconds() -> None:
    session, out = make_session()
    now = [0.0]
    fetch = ModelDownload(session, VOSK_DOWNLOADS["vosk-en"], clock=lambda: now[0])
    total = 1000
    for done in range(0, total + 1, 25):  # 2.5% a step, a second apart
        now[0] += 1.0
        fetch.progress(done, total)
    said = [line.text for line in out.lines if line.message_id == "voice.offer.progress"]
    assert said[0].startswith("Voice model: 10% downloaded")
    assert len(said) == int(40 / PROGRESS_SECONDS) + 1  # 40 s of download
    assert all(not text.startswith("Voice model: 100%") for text in said)


def test_voice_download_fetches_the_games_language(web: Server, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(download.URL_ENV, web.url)
    monkeypatch.setattr(download, "VOSK_EN_SHA256", web.sha256)
    monkeypatch.setattr(download, "VOSK_EN_SIZE", web.size)
    assert voice_main(["--language", "en", "download", "--dest", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"The Vosk model is ready in {tmp_path / VOSK_EN_NAME}.\n"
    assert voice_main(["download", "vosk-en"]) == 2  # no model name: the language's
