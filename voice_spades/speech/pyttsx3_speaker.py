"""The default speaker: pyttsx3 (espeak-ng) synthesis, played through ALSA.

Synthesis runs in a worker process (:mod:`voice_spades.speech.synth`) and each
utterance plays in its own ``aplay`` process (:mod:`voice_spades.speech.player`),
so stopping is killing a process, never asking pyttsx3 to stop.
"""

from __future__ import annotations

import threading
from pathlib import Path

from voice_spades.errors import InvalidInputError, SetupError
from voice_spades.speech.base import Speaker
from voice_spades.speech.message import Utterance
from voice_spades.speech.player import AplayPlayer, Pcm
from voice_spades.speech.queue_policy import DEFAULT_QUEUE_SIZE
from voice_spades.speech.synth_speaker import SynthSpeaker

RETRY_DELAY = 0.2
"""Seconds before playing again after the audio device failed once."""


class Pyttsx3Speaker(SynthSpeaker):
    """Speaks through the sound card; see :class:`~voice_spades.speech.base.Speaker`.

    ``device`` is an ALSA device name; None uses the default output. Creating
    one starts the synthesizer and raises :class:`SetupError` if it cannot;
    prefer :func:`make_speaker`, which also checks the audio device.
    """

    def __init__(self, rate: int | None = None, voice: str | None = None, *,
                 device: str | None = None, queue_size: int = DEFAULT_QUEUE_SIZE) -> None:
        self._player = AplayPlayer(device)
        super().__init__(rate, voice, queue_size=queue_size)

    def probe(self) -> None:
        """Play a moment of silence; raise :class:`SetupError` if no device takes it."""
        self._player.probe()

    def _deliver(self, u: Utterance, wav: Path, cancel: threading.Event) -> bool:
        try:
            pcm = Pcm.from_wav(wav)
        finally:
            wav.unlink(missing_ok=True)
        try:
            return self._player.play(pcm, cancel)
        except SetupError:
            # One more try: a device can be busy for a moment (another program opening it).
            if cancel.wait(RETRY_DELAY):
                return False
            return self._player.play(pcm, cancel)

    def _abort_delivery(self) -> None:
        self._player.abort()


def make_speaker(rate: int | None = None, voice: str | None = None, *,
                 device: str | None = None) -> Speaker:
    """A ready :class:`Pyttsx3Speaker`, or :class:`SetupError` saying why speech is off.

    Checks everything before the game starts: aplay, pyttsx3, espeak-ng, the
    audio device, and the voice name.
    """
    speaker = Pyttsx3Speaker(rate, device=device)
    try:
        speaker.probe()
        if voice is not None:
            speaker.set_voice(voice)
    except InvalidInputError as error:
        speaker.close()
        raise SetupError("speech.bad_voice", reason=error) from error
    except BaseException:
        speaker.close()
        raise
    return speaker
