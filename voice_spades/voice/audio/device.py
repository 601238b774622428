"""The capture device: loading PortAudio, naming a device, and the rate it can record at.

Everything that can go wrong here is a :class:`~voice_spades.errors.SetupError`
whose catalog id tells the player, in one sentence, why voice is off.
"""

from __future__ import annotations

from types import ModuleType

from voice_spades.errors import SetupError
from voice_spades.speech.audio_stream import load_sounddevice as load_stream_library
from voice_spades.speech.audio_stream import quiet_stderr
from voice_spades.voice.audio.vad import SAMPLE_RATE

NO_MICROPHONE = "voice.no_microphone"
NO_PORTAUDIO = "voice.no_portaudio"
NO_16K = "voice.no_16k"
MIC_FAILED = "voice.mic_failed"
"""Catalog ids of what the player is told when the microphone cannot be used."""

Device = int | str | None
"""A PortAudio device index, part of a device name, or None for the default input."""


def load_sounddevice() -> ModuleType:
    """The ``sounddevice`` module, or SetupError when PortAudio cannot be loaded (or
    cannot start: then no microphone can be used)."""
    return load_stream_library(NO_PORTAUDIO, NO_MICROPHONE)


def parse_device(text: str | None) -> Device:
    """``--mic-device`` as sounddevice takes it: a number is an index, else a name part."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    return int(text) if text.isdigit() else text


def probe_with(sd: ModuleType, device: Device = None) -> int:
    """Check with ``sd`` (the ``sounddevice`` module) that ``device`` (default: the
    default input) can record mono int16, and return the rate to open it at: 16 kHz
    when it can, else its own default rate (the audio is then resampled). SetupError
    saying why it cannot be used."""
    try:
        with quiet_stderr():
            info = sd.query_devices(device, kind="input")
    except (sd.PortAudioError, ValueError) as exc:
        if device is not None:
            raise SetupError("voice.no_microphone_named", device=device) from exc
        raise SetupError(NO_MICROPHONE) from exc
    if int(info.get("max_input_channels", 0)) < 1:
        raise SetupError(NO_MICROPHONE)
    rates = [SAMPLE_RATE]
    native = round(float(info.get("default_samplerate") or 0))
    rates += [rate for rate in (native, 48000, 44100) if rate > 0 and rate not in rates]
    for rate in rates:
        try:
            with quiet_stderr():
                sd.check_input_settings(device, channels=1, dtype="int16", samplerate=rate)
        except (sd.PortAudioError, ValueError):
            continue
        return rate
    raise SetupError(NO_16K)
