"""The virtual stereo sound device the audio tests play through, and its recording.

A HOME whose ``.asoundrc`` makes ALSA's default PCM a ``file`` plugin over ``null``:
PortAudio (``sounddevice``) sees it as the default output, and every frame the
game's :class:`~voice_spades.speech.audio_out.AudioOut` sends lands in ``out.raw``
(float32, two channels interleaved, as the stream sends it). ``null`` has no clock;
AudioOut paces itself against the wall clock there, so clips take their real time.
PortAudio writes a few blocks of silence of its own before the first callback: the
recording's frame ``k + offset`` is the stream's frame ``k``
(:func:`recording_offset`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[2]
RATE = 48_000


def stereo_home(home: Path, out: Path) -> dict[str, str]:
    """Write ``home/.asoundrc`` (default PCM -> ``out/out.raw``); the environment to run in."""
    home.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    (home / ".asoundrc").write_text(
        "pcm.!default {\n  type file\n  slave.pcm \"null\"\n"
        f"  file \"{out}/out.raw\"\n  format \"raw\"\n  truncate false\n}}\n")
    return {**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)}


def no_device_home(home: Path) -> dict[str, str]:
    """A HOME whose default ALSA device is a sound card that does not exist."""
    home.mkdir(parents=True, exist_ok=True)
    (home / ".asoundrc").write_text("pcm.!default { type hw card 29 }\n")
    return {**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)}


def run_script(script: Path, env: dict[str, str], *args: str, timeout: float = 120) -> str:
    """Run ``script`` with ``args`` in ``env``; its standard output (it must succeed)."""
    done = subprocess.run([sys.executable, str(script), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


def recording(out: Path) -> npt.NDArray[np.float32]:
    """What the device received, ``(frames, 2)`` float32."""
    files = sorted(out.glob("out.raw*"))
    assert len(files) == 1, f"one stream expected, found {[f.name for f in files]}"
    data = np.fromfile(files[0], dtype=np.float32)
    return data[:len(data) // 2 * 2].reshape(-1, 2)


def recording_offset(rec: npt.NDArray[np.float32], frames_written: int) -> int:
    """Frames PortAudio wrote before the stream's first frame."""
    offset = len(rec) - frames_written
    assert 0 <= offset <= 8 * 480, offset
    return offset


def energy(segment: npt.NDArray[np.float32]) -> tuple[float, float]:
    """Mean square of the left and right channels."""
    if len(segment) == 0:
        return 0.0, 0.0
    square = segment.astype(np.float64) ** 2
    return float(square[:, 0].mean()), float(square[:, 1].mean())


def db_ratio(left: float, right: float) -> float:
    """Left over right energy in dB (large when right is silent)."""
    return float(10 * np.log10((left + 1e-12) / (right + 1e-12)))
