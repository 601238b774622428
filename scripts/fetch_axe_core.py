#!/usr/bin/env python3
"""Fetch the pinned axe-core from npm for the page's accessibility tests.

Usage: scripts/fetch_axe_core.py DEST_FOLDER   (scripts/bootstrap.sh --test gives
the virtual environment's share/ folder). Writes DEST_FOLDER/axe-core-VERSION/axe.min.js
once: the tarball's SHA-512 must match the pinned integrity, which must also be the
one the registry's metadata gives. The file stays out of the repository and the page
never loads it while playing: the tests inject it into the page they serve locally.
Exits 0 when the file is there, 1 (with a message) when it could not be fetched.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
REGISTRY = "https://registry.npmjs.org/axe-core"


def target(folder: Path) -> Path:
    """Where the script leaves axe.min.js under ``folder``."""
    return folder / f"axe-core-{VERSION}" / "axe.min.js"


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        data: bytes = response.read()
    return data


def fetch(folder: Path) -> Path:
    """Download, check and unpack axe.min.js; raises ValueError on a wrong checksum."""
    metadata = json.loads(_get(f"{REGISTRY}/{VERSION}"))
    published = metadata["dist"]["integrity"]
    if published != INTEGRITY:
        raise ValueError(f"the registry gives {published} for axe-core {VERSION}")
    tarball = _get(f"{REGISTRY}/-/axe-core-{VERSION}.tgz")
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
    if digest != INTEGRITY:
        raise ValueError(f"axe-core {VERSION} tarball is {digest}, expected {INTEGRITY}")
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        member = archive.extractfile("package/axe.min.js")
        if member is None:
            raise ValueError("the tarball has no package/axe.min.js")
        script = member.read()
    path = target(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_bytes(script)
    partial.replace(path)
    return path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(argv[1])
    if target(folder).is_file():
        return 0
    try:
        fetch(folder)
    except (OSError, ValueError, KeyError, tarfile.TarError) as error:
        print(f"could not fetch axe-core {VERSION}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
