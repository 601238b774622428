"""Every module on the path of `voice-spades` imports on Windows and macOS too.

Windows and macOS cannot run here, so each check runs in a fresh interpreter that
pretends to be one: ``sys.platform`` says "win32" (and ``termios``, ``tty``, ``fcntl``,
``pty`` and the other POSIX-only modules cannot be imported) or "darwin" (and the
Linux-only modules cannot). Third-party packages are imported first, as the real
platform has them (their own platform code is theirs to test); then every module of
the game is imported, so a Linux-only import at module level in it fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

NOT_ON_THE_GAME_S_PATH = ("voice_spades.bench", "voice_spades.voice.testing",
                         "voice_spades.__main__")
"""Developer tools (benchmarks, test speech), never run by `voice-spades` play, settings
or models; and ``__main__``, which runs the game when imported."""

POSIX_ONLY = ("termios", "tty", "pty", "fcntl", "grp", "pwd", "resource", "syslog",
              "readline", "curses")
LINUX_ONLY = ("ossaudiodev", "spwd")
BLOCKED = {"win32": POSIX_ONLY + LINUX_ONLY, "darwin": LINUX_ONLY}

PLATFORM_MODULES = {"win32": {"voice_spades.keys.terminal_posix"}, "darwin": set()}
"""Modules written for one platform, which must fail to import on the other."""

THIRD_PARTY = ("numpy", "platformdirs", "babel", "babel.dates", "pocketsphinx", "soxr",
               "sounddevice", "pyttsx3", "vosk", "prism",
               # The table server's: asyncio (standard, but it loads its Windows event
               # loop on win32, through _overlapped), uvicorn, Starlette, websockets.
               "asyncio", "uvicorn", "uvicorn.config", "starlette.applications",
               "starlette.websockets", "websockets.sync.client")

_SCRIPT = r"""
import importlib, json, os, pkgutil, sys, tempfile, traceback

platform, blocked, skipped, third_party = json.loads(sys.argv[1])
for name in third_party:
    try:
        importlib.import_module(name)
    except Exception:
        pass  # not installed, or no device: not what this test is about

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ImportError(f"{name} does not exist on {platform}")
        return None

for name in list(sys.modules):
    if name.split(".")[0] in blocked:
        del sys.modules[name]
sys.meta_path.insert(0, Blocker())
sys.platform = platform

import voice_spades
results = {}
for info in pkgutil.walk_packages(voice_spades.__path__, "voice_spades."):
    if info.name.startswith(tuple(skipped)):
        continue
    try:
        importlib.import_module(info.name)
        results[info.name] = None
    except BaseException as exc:
        results[info.name] = "".join(traceback.format_exception_only(exc)).strip()

from voice_spades.cli import main
with tempfile.TemporaryDirectory() as folder:
    out = sys.stdout
    sys.stdout = open(os.devnull, "w")
    try:
        # --language: the system's language is asked of Windows itself (ctypes.windll)
        codes = [main(["settings", "--language", "en", "--data-dir", folder, "sounds", "off"]),
                 main(["settings", "--language", "en", "--data-dir", folder])]
    finally:
        sys.stdout = out
refused = []
for name in blocked:
    try:
        importlib.import_module(name)
    except ImportError:
        refused.append(name)
print(json.dumps({"modules": results, "settings": codes, "platform": sys.platform,
                  "refused": refused}))
"""


def imports_as(platform: str, home: Path) -> dict[str, object]:
    argument = json.dumps([platform, list(BLOCKED[platform]), list(NOT_ON_THE_GAME_S_PATH),
                           list(THIRD_PARTY)])
    done = subprocess.run([sys.executable, "-c", _SCRIPT, argument], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                               "HOME": str(home), "LANG": "C.UTF-8"})
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_every_module_of_the_game_imports_on(platform: str, tmp_path: Path) -> None:
    result = imports_as(platform, tmp_path)
    assert result["platform"] == platform
    modules = result["modules"]
    assert isinstance(modules, dict)
    assert len(modules) > 100  # every module was tried
    failed = {name: error for name, error in modules.items()
              if error is not None and name not in PLATFORM_MODULES[platform]}
    assert failed == {}
    for name in PLATFORM_MODULES[platform]:
        assert modules[name] is not None, f"{name} should not import on {platform}"
    assert result["refused"] == list(BLOCKED[platform])  # the fake platform has none of them
    assert result["settings"] == [0, 0]
