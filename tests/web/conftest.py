"""The web tests' browser: one headless Chromium for the whole run (each worker process's).

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


def _run_folder(base: Path) -> Path:
    """The run's screenshot folder under pytest's base temporary folder ``base``; a
    worker process's base is a folder of the run's own (pytest-xdist), so its parent."""
    given = os.environ.get("VOICE_SPADES_SCREENSHOTS")
    if given:
        return Path(given)
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "screenshots"


@pytest.fixture(scope="session")
def shots_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the run's screenshots go: one folder, whichever worker takes them."""
    return _run_folder(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="session")
def browser(shots_folder: Path) -> Iterator[Browser]:
    """A headless Chromium (about 2 s to start), shared by the web tests of a process."""
    chromium = Browser(shots_folder)
    try:
        yield chromium
    finally:
        chromium.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    factory = getattr(config, "_tmp_path_factory", None)  # the run's, as xdist uses it
    if factory is None:
        return
    folder = _run_folder(factory.getbasetemp())
    if folder.is_dir() and any(folder.iterdir()):
        terminalreporter.write_line(f"the page's screenshots: {folder}")
