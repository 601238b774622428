"""The verified, resumable download of the small English Vosk model.

``$VOICE_SPADES_VOSK_URL`` makes ``models download`` fetch the same archive from a
mirror; its size and SHA-256 are still checked. The archive is unpacked by
:mod:`.unpack`, so a failure never leaves half a model.
"""

from __future__ import annotations

import hashlib
import http.client
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.voice.models.folder import check_model_folder
from voice_spades.voice.models.locations import VOSK_EN_NAME, default_models_dir
from voice_spades.voice.models.unpack import unpack_model

VOSK_EN_URL = f"https://alphacephei.com/vosk/models/{VOSK_EN_NAME}.zip"
VOSK_EN_SIZE = 41_205_931
VOSK_EN_SHA256 = "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"

URL_ENV = "VOICE_SPADES_VOSK_URL"
"""Environment variable naming a mirror of the Vosk English model archive."""

DOWNLOAD_TIMEOUT = 30.0
DOWNLOAD_ATTEMPTS = 3

Progress = Callable[[int, int], None]
"""Called with (bytes downloaded, total bytes) as a download goes on."""


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
    SetupError whose message can be spoken.
    """
    dest = Path(dest_dir).expanduser() if dest_dir is not None else default_models_dir()
    target = dest / VOSK_EN_NAME
    if not check_model_folder(target):
        return target
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SetupError("voice.download.no_folder", path=dest, error=str(error)) from error
    part = dest / f".{VOSK_EN_NAME}.zip.part"
    _fetch(url, part, size, progress, timeout, max(1, attempts))
    _verify(part, size, sha256)
    try:
        unpack_model(part, dest, VOSK_EN_NAME)
    finally:
        part.unlink(missing_ok=True)
    return target


def _fetch(url: str, part: Path, size: int, progress: Progress | None, timeout: float,
           attempts: int) -> None:
    """Bring ``part`` to ``size`` bytes, resuming from what it already holds."""
    problem: Message | str = Message("voice.download.no_answer")
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
                problem = Message("voice.download.resume_refused")
                continue
            raise SetupError("voice.download.http_error", code=error.code,
                             reason=str(error.reason), url=url) from error
        except urllib.error.URLError as error:
            raise SetupError("voice.download.unreachable", reason=str(error.reason)) from error
        except _BadResume as error:
            problem = Message("voice.download.bad_range", range=error.content_range)
            continue
        except (OSError, http.client.HTTPException) as error:
            problem = str(error) or type(error).__name__
            continue
        if part.exists() and part.stat().st_size < size:
            problem = Message("voice.download.closed_early")
    have = part.stat().st_size if part.exists() else 0
    if have >= size:
        return
    if have == 0:
        raise SetupError("voice.download.unreachable", reason=problem)
    raise SetupError("voice.download.stopped", percent=have * 100 // size, problem=problem)


def _resume_offset(response: http.client.HTTPResponse, have: int) -> int:
    """Return where the body starts: ``have`` if the server resumed, else 0."""
    if have and response.status == 206:
        content_range = response.headers.get("Content-Range", "")
        if content_range.startswith(f"bytes {have}-"):
            return have
        raise _BadResume(content_range)
    return 0  # a 200 answer is the whole file: start over


class _BadResume(http.client.HTTPException):
    """The server answered a Range request with another part of the file."""

    def __init__(self, content_range: str) -> None:
        super().__init__(f"unexpected Content-Range {content_range!r}")
        self.content_range = content_range


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
        what = (Message("voice.download.wrong_size", actual=actual, size=size)
                if actual != size else Message("voice.download.wrong_checksum"))
        raise SetupError("voice.download.corrupt", what=what)
