"""The web tests' browser: one headless Chromium for the whole run (each worker process's).

Screenshots go to $VOICE_SPADES_SCREENSHOTS when it is set, otherwise to the
screenshots folder under pytest's base temporary folder (the run's output); the run's
summary names the folder. They are for a person to look at, never compared.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.browser import Browser
from tests.web.shots import run_folder


@pytest.fixture(scope="session")
def shots_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the run's screenshots go: one folder, whichever worker takes them."""
    return run_folder(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="session")
def browser(shots_folder: Path) -> Iterator[Browser]:
    """A headless Chromium (about 2 s to start), shared by the web tests of a process."""
    chromium = Browser(shots_folder)
    try:
        yield chromium
    finally:
        chromium.close()
