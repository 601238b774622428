"""What every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.background import Scenario, close_run, open_run
from tests.web.shots import run_folder

_OPENED_RUN = False


@pytest.fixture(autouse=True, scope="session")
def _runtime_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Give PulseAudio clients a runtime folder of the run's own.

    PortAudio looks for PulseAudio through ALSA's plugin when a test opens a sound
    device; in a test's own HOME, without ``XDG_RUNTIME_DIR``, each such client made
    a folder in /tmp that outlived the run."""
    folder = tmp_path_factory.mktemp("runtime")
    folder.chmod(0o700)
    saved = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = str(folder)
    yield
    if saved is None:
        os.environ.pop("XDG_RUNTIME_DIR", None)
    else:
        os.environ["XDG_RUNTIME_DIR"] = saved


def _scenarios(items: list[pytest.Item]) -> list[Scenario]:
    """The background scenarios of the modules of ``items``, each once."""
    found: dict[int, Scenario] = {}
    for item in items:
        scenario = getattr(getattr(item, "module", None), "BACKGROUND", None)
        if isinstance(scenario, Scenario) and scenario.fixture in getattr(
                item, "fixturenames", ()):
            found[id(scenario)] = scenario
    return list(found.values())


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the real-time scenarios the selected tests read (:mod:`tests.background`)."""
    for scenario in _scenarios(session.items):
        scenario.start()


def pytest_configure(config: pytest.Config) -> None:
    """Open the run's scenario folder, shared with the worker processes."""
    global _OPENED_RUN
    _OPENED_RUN = open_run()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The process that opened the run stops its scenarios once every worker is done."""
    if _OPENED_RUN:
        close_run()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    """Name the folder of the page's screenshots (taken by whichever worker ran them)."""
    factory = getattr(config, "_tmp_path_factory", None)  # the run's, as xdist uses it
    if factory is None:
        return
    folder = run_folder(factory.getbasetemp())
    if folder.is_dir() and any(folder.iterdir()):
        terminalreporter.write_line(f"the page's screenshots: {folder}")
