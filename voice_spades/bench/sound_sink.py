"""What a virtual sound card played, as chunks that hold sound, and how to read them.

The bench and the speech tests play into a private PulseAudio null sink, a virtual
sound card with a clock (:mod:`.pulse_sink`): Speech Dispatcher plays there directly,
and the game's own output (PortAudio through ``sounddevice``) reaches it through ALSA's
``pulse`` plugin, set as the default device by :func:`write_asoundrc`. ALSA's ``file``
device over ``null`` (FIELD-NOTES) cannot serve for timing: it has no clock, takes a
sentence written in one call at once, and so never shows a stop cutting it.

A recording is cut into :data:`CHUNK_SECONDS` chunks stamped with the system's
monotonic clock (:func:`time.monotonic` in every process); a chunk "holds sound" when
its peak reaches :data:`THRESHOLD` (about -36 dBFS). Synthesizers write exact digital
silence around speech, so the first chunk holding sound after a request is its first
audio.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CHUNK_SECONDS = 0.005
THRESHOLD = 500
"""Peak (of 32767) from which a chunk counts as sound."""


def write_asoundrc(home: Path, pulse_server: str) -> dict[str, str]:
    """Write ``home/.asoundrc`` making ALSA's default device the PulseAudio server
    ``pulse_server`` (Debian package libasound2-plugins); return the environment
    variables a program must run with to play there."""
    home.mkdir(parents=True, exist_ok=True)
    server = pulse_server.removeprefix("unix:")
    (home / ".asoundrc").write_text(
        f"pcm.!default {{\n  type pulse\n  server \"unix:{server}\"\n}}\n"
        f"ctl.!default {{\n  type pulse\n  server \"unix:{server}\"\n}}\n")
    # Without a runtime folder of its own, every PulseAudio client leaves one in /tmp.
    runtime = home / "run"
    runtime.mkdir(mode=0o700, exist_ok=True)
    return {"HOME": str(home), "PULSE_SERVER": pulse_server, "XDG_RUNTIME_DIR": str(runtime)}


def alsa_pulse_missing() -> str | None:
    """Why ALSA cannot play into PulseAudio here (a sentence), or None."""
    for folder in (Path("/usr/lib/x86_64-linux-gnu/alsa-lib"), Path("/usr/lib/alsa-lib"),
                   Path("/usr/lib64/alsa-lib"), Path("/usr/lib/aarch64-linux-gnu/alsa-lib")):
        if (folder / "libasound_module_pcm_pulse.so").exists():
            return None
    return "ALSA's pulse plugin is not installed (Debian package libasound2-plugins)"


@dataclass(frozen=True, slots=True)
class Sound:
    """One chunk that held sound: when it played (monotonic seconds) and its peak."""

    start: float
    end: float
    peak: int


def first_sound(played: list[Sound], after: float) -> Sound | None:
    """The first chunk holding sound that started at or after ``after``."""
    return next((s for s in played if s.start >= after), None)


def last_sound_end(played: list[Sound], after: float) -> float | None:
    """When the last chunk holding sound that started at or after ``after`` ended."""
    ends = [s.end for s in played if s.start >= after]
    return max(ends) if ends else None


def sound_seconds(played: list[Sound], start: float, end: float) -> float:
    """Seconds from the first chunk holding sound in ``[start, end)`` to the end of the
    last one; 0 if none."""
    inside = [s for s in played if start <= s.start < end]
    return inside[-1].end - inside[0].start if inside else 0.0


def peak(data: bytes) -> int:
    """The largest magnitude among 16-bit samples ``data``."""
    usable = len(data) // 2 * 2
    return max((abs(v) for v in memoryview(data[:usable]).cast("h")), default=0)
