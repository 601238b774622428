"""Opening the PortAudio output stream for :class:`~voice_spades.speech.audio_out.AudioOut`,
with ALSA's chatter kept off the player's terminal."""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from voice_spades.errors import SetupError

_log = logging.getLogger(__name__)

CHANNELS = 2
DTYPE = "float32"
"""The sample format sent to the device (an ALSA ``file`` device records it as is)."""
NO_DEVICE = "speech.no_device"
NO_PORTAUDIO = "sound.no_portaudio"
PROBE_SECONDS = 15.0
"""How long PortAudio may take to start in the child process that tries it first."""
_started_apart: bool | None = None


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Keep what ALSA prints while PortAudio looks for devices (every device it could not
    open) off the player's terminal."""
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def skip_portaudio_exit() -> None:
    """sounddevice closes PortAudio when Python exits, which would wait for ever on the
    hung stream too: leave that to the operating system, so the game can still quit."""
    with contextlib.suppress(Exception):
        import atexit

        import sounddevice as sd

        atexit.unregister(sd._exit_handler)


def load_sounddevice(missing: str = NO_PORTAUDIO, failed: str = NO_DEVICE) -> ModuleType:
    """The ``sounddevice`` module with PortAudio started. :class:`SetupError` ``missing``
    when the PortAudio library is not installed, ``failed`` when it cannot start (a
    broken ALSA configuration such as a mistyped ``~/.asoundrc`` makes PortAudio's
    start-up fail inside the import)."""
    if "sounddevice" not in sys.modules and not portaudio_starts_apart():
        raise SetupError(failed)
    try:
        with quiet_stderr():
            import sounddevice
    except (OSError, ImportError) as error:  # OSError: the PortAudio library is missing
        raise SetupError(missing) from error
    except Exception as error:  # sounddevice.PortAudioError from Pa_Initialize
        _log.info("PortAudio could not start: %s", error)
        raise SetupError(failed) from error
    module: ModuleType = sounddevice
    return module


def portaudio_starts_apart() -> bool:
    """Whether PortAudio starts in a child process (asked once per process; True off
    Linux). Some broken ALSA set-ups, such as ``ALSA_CONFIG_PATH`` naming a missing file,
    abort the whole process inside libasound while PortAudio starts, before Python can
    answer; tried apart first, the game only loses its sound. A child that cannot import
    sounddevice at all says nothing here: the import in this process reports it."""
    global _started_apart
    if _started_apart is None:
        _started_apart = True
        if sys.platform.startswith("linux"):
            try:
                child = subprocess.run(
                    [sys.executable, "-c", "import sounddevice"], stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    timeout=PROBE_SECONDS, check=False)
                _started_apart = child.returncode >= 0
            except subprocess.TimeoutExpired:
                _started_apart = False  # it would hang this process too
            except OSError as error:  # no child process: try it here, as before
                _log.info("PortAudio could not be tried apart: %s", error)
            if not _started_apart:
                _log.info("PortAudio's start-up ended its process: sound is off")
    return _started_apart


def open_stream(device: int | str | None, samplerate: int, blocksize: int,
                latency: float | str, callback: Callable[..., None],
                finished: Callable[[], None]) -> Any:
    """A started-ready ``sounddevice.OutputStream`` (stereo float32) calling ``callback``;
    at the device's own rate if it refuses ``samplerate``. :class:`SetupError` if none."""
    sd = load_sounddevice()
    last: Exception | None = None
    for rate in (samplerate, None):  # the device's own rate if it refuses ours
        try:
            if rate is None:
                with quiet_stderr():
                    rate = int(sd.query_devices(device, "output")["default_samplerate"])
            with quiet_stderr():
                return sd.OutputStream(
                    samplerate=rate, blocksize=blocksize, device=device, channels=CHANNELS,
                    dtype=DTYPE, latency=latency, callback=callback,
                    finished_callback=finished,
                    prime_output_buffers_using_stream_callback=True)
        except Exception as error:  # PortAudioError, ValueError: no such device
            last = error
    _log.info("no audio output device: %s", last)
    raise SetupError(NO_DEVICE) from last
