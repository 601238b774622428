"""The web tests' browser: one headless Chromium for the whole run.

Screenshots go to $VOICE_SPADES_SCREENSHOTS when it is set, otherwise to the
screenshots folder under pytest's base temporary folder (the run's output); the run's
summary names the folder. They are for a person to look at, never compared.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.browser import Browser

_SHOTS: list[Path] = []


@pytest.fixture(scope="session")
def shots_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the run's screenshots go."""
    given = os.environ.get("VOICE_SPADES_SCREENSHOTS")
    folder = Path(given) if given else tmp_path_factory.getbasetemp() / "screenshots"
    _SHOTS.append(folder)
    return folder


@pytest.fixture(scope="session")
def browser(shots_folder: Path) -> Iterator[Browser]:
    """A headless Chromium (about 2 s to start), shared by every web test."""
    chromium = Browser(shots_folder)
    try:
        yield chromium
    finally:
        chromium.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for folder in _SHOTS:
        if folder.is_dir() and any(folder.iterdir()):
            terminalreporter.write_line(f"the page's screenshots: {folder}")
