"""Speech that cannot start says why in one sentence, and nothing crashes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.audio

ROOT = Path(__file__).resolve().parents[2]
TRY_SPEAKER = """
from voice_spades.errors import SetupError
from voice_spades.narration import render_message
from voice_spades.speech import make_speaker
try:
    make_speaker(rate=200).close()
    print("speaker ready")
except SetupError as error:
    print(render_message(error.message))
"""


TRY_MICROPHONE = """
from voice_spades.errors import SetupError
from voice_spades.narration import render_message
from voice_spades.voice.audio.microphone import probe
try:
    probe()
    print("microphone ready")
except SetupError as error:
    print(render_message(error.message))
"""
NO_SPEAKER = "Speech is off: no audio output device was found. The game continues in text."
NO_MICROPHONE = "No microphone was found, so voice is off; use the keyboard."


def try_speaker(home: Path, pythonpath: Path | None = None, *, script: str = TRY_SPEAKER,
                extra: dict[str, str] | None = None) -> str:
    env = {**os.environ, "HOME": str(home), **(extra or {})}
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(pythonpath), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_no_audio_device(tmp_path: Path) -> None:
    (tmp_path / ".asoundrc").write_text("pcm.!default { type hw card 29 }\n")
    assert try_speaker(tmp_path) == (
        "Speech is off: no audio output device was found. The game continues in text.")


def test_pyttsx3_missing(tmp_path: Path) -> None:
    # A pyttsx3 that cannot be imported comes first on the path, in the synthesizer
    # worker too (it inherits the environment).
    hidden = tmp_path / "hide" / "pyttsx3"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise ImportError(\"No module named 'pyttsx3'\")\n")
    assert try_speaker(tmp_path, pythonpath=hidden.parent) == (
        "Speech is off: the pyttsx3 package is not installed. The game continues in text.")


def test_portaudio_missing(tmp_path: Path) -> None:
    # A sounddevice that cannot find the PortAudio library (as on a Linux without
    # libportaudio2) comes first on the path.
    hidden = tmp_path / "hide" / "sounddevice"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise OSError('PortAudio library not found')\n")
    assert try_speaker(tmp_path, pythonpath=hidden.parent) == (
        "Speech is off: the sound library PortAudio is missing. The game continues in text.")


def test_a_broken_alsa_configuration(tmp_path: Path) -> None:
    # A mistyped ~/.asoundrc makes PortAudio's start-up fail inside "import sounddevice"
    (tmp_path / ".asoundrc").write_text("pcm.!default {\n type nonsense\n")
    assert try_speaker(tmp_path) == NO_SPEAKER
    assert try_speaker(tmp_path, script=TRY_MICROPHONE) == NO_MICROPHONE


def test_an_alsa_configuration_path_to_a_missing_file(tmp_path: Path) -> None:
    # libasound aborts the whole process when PortAudio starts with this set-up
    extra = {"ALSA_CONFIG_PATH": str(tmp_path / "missing.conf")}
    assert try_speaker(tmp_path, extra=extra) == NO_SPEAKER
    assert try_speaker(tmp_path, script=TRY_MICROPHONE, extra=extra) == NO_MICROPHONE
