"""The Italian and French Vosk models: downloaded like the English one, checked without
a published checksum (the size announced, the zip's own CRCs, the folder layout), the
SHA-256 seen recorded and listed, and only a model of the game's language used.

The real archives (alphacephei.com) cannot be reached from the test machines: a zip
laid out like them is served by a local HTTP server.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path

import pytest

from tests.voice.test_models import (  # noqa: F401 - the fixtures
    MODEL_FILES,
    Server,
    leftovers,
    model_zip,
    no_models,
    server,
    write_model,
)
from tests.voice.wording import raises_saying, said
from voice_spades.errors import SetupError
from voice_spades.voice.models import download, locations
from voice_spades.voice.models.command import models_main
from voice_spades.voice.models.locations import (
    VOSK_DOWNLOADS,
    find_vosk_model,
    list_models,
    model_language,
)
from voice_spades.voice.recognizers.choice import choose_recognizer
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

ITALIAN = VOSK_DOWNLOADS["vosk-it"]
BIG = 800_000
"""The test archive's size, about 1 MB (the real ones are about 48 and 41 MB)."""


def italian_zip() -> bytes:
    """An archive laid out like vosk-model-small-it-0.22, about 1 MB."""
    return model_zip(top=ITALIAN.name, extra={f"{ITALIAN.name}/am/extra.bin": os.urandom(BIG)})


@pytest.fixture
def italian(server: Server, monkeypatch: pytest.MonkeyPatch) -> Server:  # noqa: F811
    """The server serving an Italian model of about 1 MB, announced as 1 MB."""
    server.payload = italian_zip()
    monkeypatch.setitem(VOSK_DOWNLOADS, "vosk-it", dataclasses.replace(ITALIAN, megabytes=1))
    monkeypatch.setenv(download.URL_ENV, server.url)
    return server


def test_the_languages_models_are_known() -> None:
    assert {(d.key, d.name, d.language) for d in VOSK_DOWNLOADS.values()} == {
        ("vosk-en", "vosk-model-small-en-us-0.15", "en"),
        ("vosk-it", "vosk-model-small-it-0.22", "it"),
        ("vosk-fr", "vosk-model-small-fr-0.22", "fr")}
    assert VOSK_DOWNLOADS["vosk-it"].size_range() == (40_800_000, 55_200_000)
    assert VOSK_DOWNLOADS["vosk-en"].size_range() == (41_205_931, 41_205_931)
    assert VOSK_DOWNLOADS["vosk-fr"].url == \
        "https://alphacephei.com/vosk/models/vosk-model-small-fr-0.22.zip"
    assert [model_language(n) for n in ("vosk-model-small-it-0.22", "vosk-model-en-us-0.22",
                                         "vosk-model-small-fr-pguyot-0.3", "my-model")] == \
        ["it", "en", "fr", None]


def test_an_italian_model_is_downloaded_checked_and_its_checksum_recorded(
        italian: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert models_main(["download", "vosk-it", "--dest", str(tmp_path)]) == 0
    target = tmp_path / ITALIAN.name
    assert (target / "am" / "final.mdl").is_file()
    record = locations.download_record(target)
    assert record["sha256"] == hashlib.sha256(italian.payload).hexdigest()
    assert record["size"] == len(italian.payload)
    assert "100% downloaded" in capsys.readouterr().err
    (entry,) = [e for e in list_models(dirs=[tmp_path]) if e.kind == "vosk"]
    assert entry.sha256 == record["sha256"]


def test_models_list_shows_the_checksum_seen_at_download(
        italian: Server, no_models: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    assert models_main(["download", "vosk-it", "--dest", str(no_models)]) == 0
    capsys.readouterr()
    assert models_main(["list"]) == 0
    out = capsys.readouterr().out
    digest = hashlib.sha256(italian.payload).hexdigest()
    assert f"{ITALIAN.name} (Vosk): ready." in out
    assert f"SHA-256 of its archive at download: {digest}." in out


def test_a_broken_italian_download_resumes(italian: Server, tmp_path: Path) -> None:
    italian.drops = 1
    path = download.download_model(VOSK_DOWNLOADS["vosk-it"], tmp_path, italian.url,
                                   timeout=5)
    assert path == tmp_path / ITALIAN.name
    assert italian.ranges[0] is None and italian.ranges[1] is not None
    assert italian.ranges[1].startswith("bytes=")


def test_an_archive_of_the_wrong_size_is_not_downloaded(italian: Server, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(VOSK_DOWNLOADS, "vosk-it", dataclasses.replace(ITALIAN, megabytes=48))
    with raises_saying(SetupError, r"offers \d+ bytes for an archive of about 48 MB"):
        download.download_model(VOSK_DOWNLOADS["vosk-it"], tmp_path, italian.url, timeout=5)
    assert leftovers(tmp_path) == []


def test_a_member_failing_its_crc_is_refused_and_deleted(italian: Server,
                                                          tmp_path: Path) -> None:
    payload = bytearray(italian.payload)
    payload[len(payload) // 2] ^= 0xFF  # inside the big stored member's data

    italian.payload = bytes(payload)
    with raises_saying(SetupError, r"corrupt .*`voice-spades models download vosk-it`"):
        download.download_model(VOSK_DOWNLOADS["vosk-it"], tmp_path, italian.url, timeout=5)
    assert leftovers(tmp_path) == []


def test_an_archive_without_the_model_layout_installs_nothing(italian: Server,
                                                               tmp_path: Path) -> None:
    files = tuple(f for f in MODEL_FILES if f != "am/final.mdl")
    italian.payload = model_zip(files, top=ITALIAN.name,
                                extra={f"{ITALIAN.name}/x.bin": os.urandom(BIG + 200_000)})
    with raises_saying(SetupError, r"am/final\.mdl is missing"):
        download.download_model(VOSK_DOWNLOADS["vosk-it"], tmp_path, italian.url, timeout=5)
    assert leftovers(tmp_path) == []


def test_only_a_model_of_the_games_language_is_used(no_models: Path) -> None:  # noqa: F811
    write_model(no_models / "vosk-model-small-en-us-0.15")
    with raises_saying(SetupError, "No Vosk model for this language.*download vosk-it"):
        find_vosk_model(language="it")
    italian = write_model(no_models / ITALIAN.name)
    assert find_vosk_model(language="it") == italian.resolve()
    assert find_vosk_model(language="en").name == "vosk-model-small-en-us-0.15"
    assert find_vosk_model().name == "vosk-model-small-en-us-0.15"


def test_an_italian_game_without_a_model_uses_pocketsphinx_in_italian(
        no_models: Path) -> None:  # noqa: F811
    recognizer, message = choose_recognizer(language="it")
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert recognizer.lexicon.language == "it"
    assert said(message) == ("Using PocketSphinx: no Vosk model for this language is "
                             "installed. `voice-spades models download vosk-it` gets one.")


def test_voice_training_knows_when_games_hear_with_vosk_instead(
        no_models: Path) -> None:  # noqa: F811
    """Voice training adapts PocketSphinx: train-voice says so when a Vosk model of the
    language is installed (games then hear with it), in the player's words."""
    from voice_spades.narration.catalog import catalog
    from voice_spades.voice.recognizers.choice import vosk_in_use

    assert vosk_in_use("it") is None
    write_model(no_models / "vosk-model-small-en-us-0.15")
    assert vosk_in_use("it") is None
    italian = write_model(no_models / ITALIAN.name)
    assert vosk_in_use("it") == italian.resolve()
    for language in ("en", "it", "fr"):
        said = catalog(language).render("voice.training.vosk_installed")
        assert "Vosk" in said and "`--recognizer pocketsphinx`" in said
