"""The verified, resumable download of the small Vosk models (English, Italian, French).

``$VOICE_SPADES_VOSK_URL`` makes ``models download`` fetch the same archive from a
mirror; it is checked all the same. The English model's size and SHA-256 are
published and checked; the Italian and French ones' are not, so their archive must
be about the size announced (within 15%), every member must pass the zip's own CRC
check, and the folder must be laid out as a Vosk model; the SHA-256 seen is then
recorded in the model folder (``voice-spades-download.toml``), and ``models list``
shows it, so two machines can compare what they got. The archive is unpacked by
:mod:`.unpack`, so a failure never leaves half a model.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import urllib.error
import urllib.request
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.voice.models.folder import check_model_folder
from voice_spades.voice.models.locations import (
    RECORD_FILE,
    VOSK_DOWNLOADS,
    VOSK_EN_NAME,
    VoskDownload,
    default_models_dir,
)
from voice_spades.voice.models.unpack import unpack_model

VOSK_EN_URL = VOSK_DOWNLOADS["vosk-en"].url
VOSK_EN_SIZE = 41_205_931
VOSK_EN_SHA256 = "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"

URL_ENV = "VOICE_SPADES_VOSK_URL"
"""Environment variable naming a mirror of the Vosk model archive."""

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
    spec = VoskDownload("vosk-en", VOSK_EN_NAME, "en", size // 1_000_000, size, sha256)
    return download_model(spec, dest_dir, url, progress, timeout=timeout, attempts=attempts)


def download_model(spec: VoskDownload, dest_dir: str | Path | None = None,
                   url: str | None = None, progress: Progress | None = None, *,
                   timeout: float = DOWNLOAD_TIMEOUT,
                   attempts: int = DOWNLOAD_ATTEMPTS) -> Path:
    """Download, check and unpack the model ``spec`` (from ``url``, by default its own);
    return its folder. Resumable and all-or-nothing like :func:`download_vosk_en`; the
    checks are those of the module's text."""
    dest = Path(dest_dir).expanduser() if dest_dir is not None else default_models_dir()
    target = dest / spec.name
    if not check_model_folder(target):
        return target
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SetupError("voice.download.no_folder", path=dest, error=str(error)) from error
    part = dest / f".{spec.name}.zip.part"
    address = url or spec.url
    size = _fetch(address, part, spec, progress, timeout, max(1, attempts))
    digest = _verify(part, size, spec)
    try:
        unpack_model(part, dest, spec.name)
    finally:
        part.unlink(missing_ok=True)
    _record(target, digest, size, address)
    return target


def _fetch(url: str, part: Path, spec: VoskDownload, progress: Progress | None,
           timeout: float, attempts: int) -> int:
    """Bring ``part`` to the archive's whole size, resuming from what it already holds;
    return that size (the published one, else the server's, if plausible)."""
    problem: Message | str = Message("voice.download.no_answer")
    size = spec.size
    for _ in range(attempts):
        have = part.stat().st_size if part.exists() else 0
        if size is not None and have > size:
            part.unlink()
            have = 0
        if size is not None and have == size:
            return size
        headers = {"User-Agent": "voice-spades", "Accept-Encoding": "identity"}
        if have:
            headers["Range"] = f"bytes={have}-"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                        timeout=timeout) as response:
                start = _resume_offset(response, have)
                if size is None:
                    size = _announced_size(response, start, spec)
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
        if size is not None and part.exists() and part.stat().st_size < size:
            problem = Message("voice.download.closed_early")
    have = part.stat().st_size if part.exists() else 0
    if size is not None and have >= size:
        return size
    if have == 0 or size is None:
        raise SetupError("voice.download.unreachable", reason=problem)
    if spec.key == "vosk-en":
        raise SetupError("voice.download.stopped", percent=have * 100 // size, problem=problem)
    raise SetupError("voice.language.download.stopped", percent=have * 100 // size,
                     problem=problem, key=spec.key)


def _announced_size(response: http.client.HTTPResponse, start: int, spec: VoskDownload) -> int:
    """The whole archive's size as the server gives it, refused (SetupError) when it is
    missing or far from the size the model is known to have."""
    total: int | None = None
    content_range = response.headers.get("Content-Range", "")
    if content_range.rpartition("/")[2].isdigit():
        total = int(content_range.rpartition("/")[2])
    elif (length := response.headers.get("Content-Length", "")).isdigit():
        total = start + int(length)
    low, high = spec.size_range()
    if total is None or not low <= total <= high:
        raise SetupError("voice.language.download.unexpected_size",
                         size="?" if total is None else total, megabytes=spec.megabytes)
    return total


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


def _verify(part: Path, size: int, spec: VoskDownload) -> str:
    """Check the archive's size, its SHA-256 when one is published, and its members'
    CRCs; return the SHA-256 seen. A bad archive is deleted (SetupError)."""
    actual = part.stat().st_size
    digest = hashlib.sha256()
    with part.open("rb") as handle:
        while block := handle.read(1024 * 1024):
            digest.update(block)
    what: Message | None = None
    if actual != size:
        what = Message("voice.download.wrong_size", actual=actual, size=size)
    elif spec.sha256 is not None:
        if digest.hexdigest() != spec.sha256.lower():
            what = Message("voice.download.wrong_checksum")
    else:  # nothing published to compare with: the zip's own CRCs at least
        what = _bad_member(part)
    if what is not None:
        part.unlink(missing_ok=True)
        if spec.key == "vosk-en":
            raise SetupError("voice.download.corrupt", what=what)
        raise SetupError("voice.language.download.corrupt", what=what, key=spec.key)
    return digest.hexdigest()


def _bad_member(part: Path) -> Message | None:
    """Why the zip's own check fails (a member whose CRC does not match, or no zip at
    all), or None when every member reads back intact."""
    try:
        with zipfile.ZipFile(part) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as error:
        return Message("voice.language.download.not_a_zip", error=str(error))
    return None if bad is None else Message("voice.language.download.bad_crc", member=bad)


def _record(target: Path, digest: str, size: int, url: str) -> None:
    """Write down what was downloaded, for ``models list``; a failure only loses that."""
    text = f"sha256 = {json.dumps(digest)}\nsize = {size}\nurl = {json.dumps(url)}\n"
    with contextlib.suppress(OSError):
        (target / RECORD_FILE).write_text(text, encoding="utf-8")
