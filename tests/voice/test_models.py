"""The model manager: locations, listing, choosing a recognizer and the Vosk download.

Downloads run against a real HTTP server on 127.0.0.1 serving a zip with the
layout of a Vosk model; it honours Range requests and can drop the connection
half-way, like a flaky mobile link.
"""

from __future__ import annotations

import hashlib
import io
import os
import socket
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.voice.wording import raises_saying, said
from voice_spades.errors import InvalidInputError, SetupError
from voice_spades.voice.models import download, locations
from voice_spades.voice.models.command import PercentProgress, models_main
from voice_spades.voice.models.download import download_vosk_en
from voice_spades.voice.models.folder import IVECTOR_FILES, check_model_folder
from voice_spades.voice.models.locations import VOSK_EN_NAME, find_vosk_model, list_models
from voice_spades.voice.recognizers import vosk_recognizer
from voice_spades.voice.recognizers.choice import choose_recognizer
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.recognizers.vosk_recognizer import VoskRecognizer

MODEL_FILES = ("am/final.mdl", "conf/mfcc.conf", "conf/model.conf", "graph/HCLr.fst",
               "graph/Gr.fst", "graph/disambig_tid.int", "graph/phones/word_boundary.int",
               *IVECTOR_FILES)


def model_zip(files: tuple[str, ...] = MODEL_FILES, top: str = VOSK_EN_NAME,
              extra: dict[str, bytes] | None = None) -> bytes:
    """A zip laid out like the Vosk download; final.mdl is big enough to cut in half."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name in files:
            body = os.urandom(200_000) if name.endswith("final.mdl") else name.encode()
            archive.writestr(f"{top}/{name}" if top else name, body)
        for name, body in (extra or {}).items():
            archive.writestr(name, body)
    return buffer.getvalue()


def write_model(folder: Path, files: tuple[str, ...] = MODEL_FILES) -> Path:
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(name)
    return folder


@dataclass
class Server:
    """What the test server serves and what it was asked."""

    payload: bytes
    url: str = ""
    drops: int = 0  # how many coming requests are cut off half-way
    ignore_range: bool = False
    ranges: list[str | None] = field(default_factory=list)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.payload).hexdigest()

    @property
    def size(self) -> int:
        return len(self.payload)

    def download(self, dest: Path, **kwargs: Any) -> Path:
        return download_vosk_en(dest, url=self.url, sha256=kwargs.pop("sha256", self.sha256),
                                size=kwargs.pop("size", self.size), timeout=5, **kwargs)


@pytest.fixture
def server() -> Iterator[Server]:
    state = Server(model_zip())

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked = self.headers.get("Range")
            state.ranges.append(asked)
            body, start = state.payload, 0
            if asked and not state.ignore_range:
                start = int(asked.removeprefix("bytes=").split("-")[0])
                self.send_response(206)
                self.send_header("Content-Range",
                                 f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            rest = body[start:]
            self.send_header("Content-Length", str(len(rest)))
            self.end_headers()
            if state.drops:
                state.drops -= 1
                self.wfile.write(rest[: len(rest) // 2])
                self.close_connection = True
                return
            self.wfile.write(rest)

        def log_message(self, *args: Any) -> None:
            pass

    class QuietServer(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a download the test cut off leaves a broken pipe behind it

    httpd = QuietServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/{VOSK_EN_NAME}.zip"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield state
    httpd.shutdown()
    httpd.server_close()


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/{VOSK_EN_NAME}.zip"


def leftovers(dest: Path) -> list[str]:
    return sorted(p.name for p in dest.iterdir()) if dest.exists() else []


# -- downloading --------------------------------------------------------------------


def test_a_full_download_installs_the_model(server: Server, tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    path = server.download(tmp_path, progress=lambda done, total: calls.append((done, total)))
    assert path == tmp_path / VOSK_EN_NAME
    assert check_model_folder(path) == []
    assert leftovers(tmp_path) == [VOSK_EN_NAME]  # no .part, no unpack folder
    assert server.ranges == [None]
    assert calls[0] == (0, server.size)
    assert calls[-1] == (server.size, server.size)


def test_an_installed_model_is_not_downloaded_again(server: Server, tmp_path: Path) -> None:
    server.download(tmp_path)
    assert server.download(tmp_path) == tmp_path / VOSK_EN_NAME
    assert len(server.ranges) == 1


def test_a_dropped_connection_is_resumed_with_a_range(server: Server, tmp_path: Path) -> None:
    server.drops = 1
    path = server.download(tmp_path)
    assert server.ranges == [None, f"bytes={server.size // 2}-"]
    assert (path / "am/final.mdl").stat().st_size == 200_000
    assert leftovers(tmp_path) == [VOSK_EN_NAME]


def test_a_broken_download_resumes_on_the_next_run(server: Server, tmp_path: Path) -> None:
    server.drops = 1
    with raises_saying(SetupError, r"stopped at [0-9]+%.*again to resume"):
        server.download(tmp_path, attempts=1)
    part = tmp_path / f".{VOSK_EN_NAME}.zip.part"
    assert part.stat().st_size == server.size // 2
    server.download(tmp_path)
    assert server.ranges == [None, f"bytes={server.size // 2}-"]
    assert leftovers(tmp_path) == [VOSK_EN_NAME]


def test_a_server_ignoring_range_restarts_cleanly(server: Server, tmp_path: Path) -> None:
    server.drops, server.ignore_range = 1, True
    path = server.download(tmp_path)
    assert server.ranges == [None, f"bytes={server.size // 2}-"]
    assert check_model_folder(path) == []
    with zipfile.ZipFile(io.BytesIO(server.payload)) as archive:
        assert (path / "am/final.mdl").read_bytes() == archive.read(
            f"{VOSK_EN_NAME}/am/final.mdl")


def test_a_checksum_mismatch_is_refused(server: Server, tmp_path: Path) -> None:
    with raises_saying(SetupError, r"The download was corrupt .*try again"):
        server.download(tmp_path, sha256="0" * 64)
    assert leftovers(tmp_path) == []  # the .part file was deleted


def test_a_size_mismatch_is_refused(server: Server, tmp_path: Path) -> None:
    with raises_saying(SetupError, "corrupt"):
        server.download(tmp_path, size=server.size - 10)
    assert leftovers(tmp_path) == []


def test_a_corrupt_zip_leaves_nothing(server: Server, tmp_path: Path) -> None:
    server.payload = b"PK\x03\x04 this is not really a zip" * 1000
    with raises_saying(SetupError, r"damaged.*nothing was installed"):
        server.download(tmp_path)
    assert leftovers(tmp_path) == []


def test_a_zip_without_model_files_is_refused(server: Server, tmp_path: Path) -> None:
    files = tuple(f for f in MODEL_FILES if f not in ("am/final.mdl", "graph/Gr.fst"))
    server.payload = model_zip(files)
    with raises_saying(SetupError, r"am/final\.mdl is missing; graph/Gr\.fst is missing"):
        server.download(tmp_path)
    assert leftovers(tmp_path) == []


def test_a_static_graph_model_is_refused(server: Server, tmp_path: Path) -> None:
    files = (*(f for f in MODEL_FILES if not f.startswith("graph/")), "graph/HCLG.fst")
    server.payload = model_zip(files)
    with raises_saying(SetupError, "ignores grammars"):
        server.download(tmp_path)
    assert leftovers(tmp_path) == []


def test_a_zip_slip_path_is_refused(server: Server, tmp_path: Path) -> None:
    dest = tmp_path / "models"
    server.payload = model_zip(extra={"../escaped.txt": b"gotcha"})
    with raises_saying(SetupError, r"unsafe path \(\.\./escaped\.txt\)"):
        server.download(dest)
    assert not (tmp_path / "escaped.txt").exists()
    assert leftovers(dest) == []


def test_a_zip_with_files_at_the_top_is_unpacked(server: Server, tmp_path: Path) -> None:
    server.payload = model_zip(top="")
    path = server.download(tmp_path)
    assert check_model_folder(path) == []


def test_a_broken_installed_model_is_replaced(server: Server, tmp_path: Path) -> None:
    broken = write_model(tmp_path / VOSK_EN_NAME, ("conf/model.conf",))
    path = server.download(tmp_path)
    assert path == broken
    assert check_model_folder(path) == []
    assert leftovers(tmp_path) == [VOSK_EN_NAME]


def test_no_server_means_pocketsphinx_carries_on(tmp_path: Path) -> None:
    with pytest.raises(SetupError) as caught:
        download_vosk_en(tmp_path, url=closed_port_url(), timeout=2)
    message = said(caught.value)
    assert message.startswith("Could not reach the model server (")
    assert message.endswith("Voice keeps using PocketSphinx, which needs no download.")


def test_progress_is_plain_lines_every_five_percent() -> None:
    out = io.StringIO()
    progress = PercentProgress(out)
    for done in range(0, 1001, 7):
        progress(done, 1000)
    progress(1000, 1000)
    lines = out.getvalue().splitlines()
    assert lines[0] == "5% downloaded (0.0 of 0.0 MB)."
    assert [line.split("%")[0] for line in lines] == [str(p) for p in range(5, 101, 5)]
    assert "\r" not in out.getvalue()
    resumed = io.StringIO()
    PercentProgress(resumed)(420, 1000)
    assert resumed.getvalue() == "Resuming at 42%.\n"


# -- locations, listing and choosing --------------------------------------------------


@pytest.fixture
def no_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No model anywhere: the model folders are an empty temporary one."""
    folder = tmp_path / "models"
    folder.mkdir()
    monkeypatch.delenv(locations.MODEL_ENV, raising=False)
    monkeypatch.setattr(locations, "models_dirs", lambda: [folder])
    return folder


def test_the_project_models_folder_is_used_in_a_checkout() -> None:
    root = Path(locations.__file__).resolve().parents[3]
    assert locations.project_models_dir() == root / "models"
    assert locations.default_models_dir() == root / "models"
    assert locations.models_dirs()[0] == root / "models"


def test_the_data_folder_honours_voice_spades_home(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICE_SPADES_HOME", str(tmp_path))
    assert locations.data_models_dir() == tmp_path / "models"
    assert tmp_path / "models" in locations.models_dirs()


def test_list_always_has_the_builtin_pocketsphinx_model(no_models: Path) -> None:
    (entry,) = list_models()
    assert (entry.name, entry.kind, entry.usable, entry.problem) == (
        "en-us", "pocketsphinx", True, None)
    assert entry.path.parts[-2:] == ("model", "en-us")


def test_list_shows_vosk_models_and_their_problems(no_models: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    write_model(no_models / VOSK_EN_NAME)
    write_model(no_models / "half-model", ("conf/model.conf",))
    (no_models / ".hidden-unpack").mkdir()
    elsewhere = write_model(tmp_path / "elsewhere")
    monkeypatch.setenv(locations.MODEL_ENV, str(elsewhere))
    entries = list_models()
    assert [(e.name, e.kind, e.usable) for e in entries] == [
        ("elsewhere", "vosk", True), (VOSK_EN_NAME, "vosk", True),
        ("half-model", "vosk", False), ("en-us", "pocketsphinx", True)]
    assert entries[2].problem is not None
    assert said(entries[2].problem).startswith("am/final.mdl is missing")


def test_find_prefers_a_named_folder_and_refuses_a_broken_one(
        no_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with raises_saying(SetupError, "No Vosk model installed"):
        find_vosk_model()
    installed = write_model(no_models / VOSK_EN_NAME)
    assert find_vosk_model() == installed.resolve()
    monkeypatch.setenv(locations.MODEL_ENV, str(tmp_path / "missing"))
    with raises_saying(SetupError, r"cannot be used: the folder .* does not exist"):
        find_vosk_model()
    assert find_vosk_model(installed) == installed


def test_pocketsphinx_is_chosen_without_a_vosk_model(no_models: Path) -> None:
    recognizer, message = choose_recognizer()
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert said(message) == ("Using PocketSphinx: no Vosk model installed. "
                       "`voice-spades models download vosk-en` gets one.")
    _, message = choose_recognizer("vosk")
    assert said(message).startswith("Using PocketSphinx instead of Vosk: no Vosk model installed.")
    recognizer, message = choose_recognizer("pocketsphinx")
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert said(message) == "Using PocketSphinx, as asked."


def test_vosk_is_chosen_when_its_model_loads(no_models: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    installed = write_model(no_models / VOSK_EN_NAME)
    monkeypatch.setattr(vosk_recognizer, "load_model", lambda path: object())
    recognizer, message = choose_recognizer()
    assert isinstance(recognizer, VoskRecognizer)
    assert said(message) == f"Using Vosk with the model {VOSK_EN_NAME} ({installed.resolve()})."
    recognizer, _ = choose_recognizer("pocketsphinx")
    assert isinstance(recognizer, PocketSphinxRecognizer)


def test_a_model_that_fails_to_load_falls_back(no_models: Path) -> None:
    write_model(no_models / VOSK_EN_NAME)  # right files, but placeholders
    recognizer, message = choose_recognizer(model_path=None)
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert said(message).startswith("Using PocketSphinx: the Vosk model at ")
    assert "could not be loaded" in said(message)


def test_an_unknown_recognizer_name_is_refused() -> None:
    with raises_saying(InvalidInputError, "choose vosk, pocketsphinx or auto"):
        choose_recognizer("whisper")


# -- the command --------------------------------------------------------------------


def test_models_list_prints_plain_lines(no_models: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    write_model(no_models / "half-model", ("conf/model.conf",))
    assert models_main(["list"]) == 0
    out = capsys.readouterr().out
    assert "en-us (PocketSphinx, built in): ready." in out
    assert "half-model (Vosk): not usable: am/final.mdl is missing" in out
    assert "No Vosk model installed. `voice-spades models download vosk-en` gets one." in out


def test_models_download_uses_the_mirror_variable(server: Server, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(download.URL_ENV, server.url)
    monkeypatch.setattr(download, "VOSK_EN_SHA256", server.sha256)
    monkeypatch.setattr(download, "VOSK_EN_SIZE", server.size)
    assert models_main(["download", "vosk-en", "--dest", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"The Vosk model is ready in {tmp_path / VOSK_EN_NAME}.\n"
    assert "100% downloaded" in captured.err
    assert "\r" not in captured.err
    assert models_main(["download", "vosk-en", "--dest", str(tmp_path)]) == 0
    assert "already installed" in capsys.readouterr().out


def test_models_download_failure_is_one_message(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(download.URL_ENV, closed_port_url())
    assert models_main(["download", "vosk-en", "--dest", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith("Could not reach the model server")
    assert "keeps using PocketSphinx" in err


def test_models_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert models_main([]) == 2
    assert models_main(["download", "vosk-xx"]) == 2
    assert "usage: voice-spades models" in capsys.readouterr().err


@pytest.mark.skipif(os.name != "posix", reason="named pipes are POSIX")
def test_a_pipe_in_a_model_folder_is_not_waited_on(tmp_path: Path) -> None:
    folder = write_model(tmp_path / "model", tuple(f for f in MODEL_FILES
                                                   if f not in IVECTOR_FILES))
    (folder / "conf" / "model.conf").unlink()
    os.mkfifo(folder / "conf" / "model.conf")  # read before: no writer, so for ever
    os.mkfifo(folder / locations.RECORD_FILE)
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.extend(
        [check_model_folder(folder), locations.download_record(folder)]), daemon=True)
    worker.start()
    worker.join(5)
    assert len(answers) == 2, "still reading after 5 s"
    problems = answers[0]
    assert isinstance(problems, list) and [said(p) for p in problems] == \
        ["conf/model.conf is missing"]  # no ordinary file: as if it were not there
    assert answers[1] == {}
