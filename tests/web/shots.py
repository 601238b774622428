"""Where the page tests' screenshots go: one folder for the run."""

from __future__ import annotations

import os
from pathlib import Path


def run_folder(base: Path) -> Path:
    """The run's screenshot folder under pytest's base temporary folder ``base``; a
    worker process's base is a folder of the run's own (pytest-xdist), so its parent."""
    given = os.environ.get("VOICE_SPADES_SCREENSHOTS")
    if given:
        return Path(given)
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "screenshots"
