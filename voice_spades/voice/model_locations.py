"""Where speech models live.

A Vosk model is looked for, in order: the folder given by an option, the
folder in the environment variable ``VOICE_SPADES_VOSK_MODEL``, then every
model-looking folder inside ``models/`` at the project root (``--models-dir``
or ``VOICE_SPADES_MODELS_DIR`` move that folder).
"""

from __future__ import annotations

import os
from pathlib import Path

VOSK_MODEL_ENV = "VOICE_SPADES_VOSK_MODEL"
MODELS_DIR_ENV = "VOICE_SPADES_MODELS_DIR"
VOSK_EN_NAME = "vosk-model-small-en-us-0.15"
VOSK_EN_URL = f"https://alphacephei.com/vosk/models/{VOSK_EN_NAME}.zip"
VOSK_EN_SHA256 = "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"
VOSK_EN_SIZE = 41_205_931


def project_root() -> Path:
    """The folder holding the ``voice_spades`` package (the project checkout)."""
    return Path(__file__).resolve().parents[2]


def models_dir(override: str | Path | None = None) -> Path:
    """The folder where downloaded models go: option, environment, or ``models/``."""
    if override:
        return Path(override)
    env = os.environ.get(MODELS_DIR_ENV)
    return Path(env) if env else project_root() / "models"


def vosk_model_candidates(model_path: str | Path | None = None,
                          folder: str | Path | None = None) -> list[Path]:
    """Every place a Vosk model may be, in order of preference."""
    found: list[Path] = []
    if model_path:
        found.append(Path(model_path))
    env = os.environ.get(VOSK_MODEL_ENV)
    if env:
        found.append(Path(env))
    base = models_dir(folder)
    if base.is_dir():
        preferred = base / VOSK_EN_NAME
        others = sorted(p for p in base.iterdir()
                        if p.is_dir() and p != preferred and not p.name.startswith("."))
        found.extend([preferred, *others] if preferred.is_dir() else others)
    return found
