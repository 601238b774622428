"""The voice speaker: pyttsx3 (espeak-ng) synthesis, played through the game's own
audio output.

Synthesis runs in a worker process (:mod:`voice_spades.speech.synth`) and each
utterance plays as one clip on :class:`~voice_spades.speech.audio_out.AudioOut`
(:mod:`voice_spades.speech.player`), so stopping is silencing a clip, never asking
pyttsx3 to stop; the same code runs on Windows, macOS and Linux.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path

from voice_spades.errors import InvalidInputError, SetupError
from voice_spades.speech.audio_clip import read_wav
from voice_spades.speech.audio_out import AudioOut, shared_audio
from voice_spades.speech.base import Speaker
from voice_spades.speech.message import Utterance
from voice_spades.speech.player import SpeechPlayer
from voice_spades.speech.queue_policy import DEFAULT_QUEUE_SIZE
from voice_spades.speech.synth_speaker import SynthSpeaker

RETRY_DELAY = 0.2
"""Seconds before playing again after the audio device failed once."""


class Pyttsx3Speaker(SynthSpeaker):
    """Speaks through the sound card; see :class:`~voice_spades.speech.base.Speaker`.

    ``audio`` is the output to play on; without one the speaker plays on the game's
    shared output (:func:`~voice_spades.speech.audio_out.shared_audio`, opened on
    ``device``, a PortAudio device index or name; None: the default output), where the
    sound cues play too. Creating one starts the synthesizer and raises
    :class:`SetupError` if it or the output cannot start; prefer :func:`make_speaker`,
    which also checks that the device plays. Closing the speaker leaves the output open.
    """

    def __init__(self, rate: int | None = None, voice: str | None = None, *,
                 audio: AudioOut | None = None, device: int | str | None = None,
                 queue_size: int = DEFAULT_QUEUE_SIZE) -> None:
        self._placement: dict[int, float] = {}
        self.gain = 1.0
        """The voice's level (1.0: as synthesized)."""
        super().__init__(rate, voice, queue_size=queue_size)
        try:
            self._player = SpeechPlayer(audio if audio is not None else shared_audio(device))
        except BaseException:
            super().close()
            raise

    @property
    def audio(self) -> AudioOut:
        """The output the voice plays on."""
        return self._player.audio

    def probe(self) -> None:
        """Play a moment of silence; raise :class:`SetupError` if the device does not take it."""
        self._player.probe()

    def set_placement(self, pans: Mapping[int, float] | None) -> None:
        """Place the voice by the seat a line is about: ``pans`` maps a seat to its pan
        (-1 left .. +1 right, :func:`~voice_spades.speech.placement.seat_pans`); None, or
        a seat not in it, keeps the voice in the centre."""
        self._placement = dict(pans or {})

    def _deliver(self, u: Utterance, wav: Path, cancel: threading.Event) -> bool:
        try:
            samples, rate = read_wav(wav)
        finally:
            wav.unlink(missing_ok=True)
        pan = self._placement.get(u.seat, 0.0) if u.seat is not None else 0.0
        try:
            return self._player.play(samples, rate, cancel, pan=pan, gain=self.gain)
        except SetupError:
            if self.audio.error is not None:
                raise  # the stream is gone: no second try can help
            # One more try: a device can stall for a moment (another program opening it).
            if cancel.wait(RETRY_DELAY):
                return False
            return self._player.play(samples, rate, cancel, pan=pan, gain=self.gain)

    def _abort_delivery(self) -> None:
        self._player.abort()


def make_speaker(rate: int | None = None, voice: str | None = None, *,
                 audio: AudioOut | None = None, device: int | str | None = None) -> Speaker:
    """A ready :class:`Pyttsx3Speaker`, or :class:`SetupError` saying why speech is off.

    Checks everything before the game starts: pyttsx3, espeak-ng, the audio output
    (``audio``; else the shared output, opened on ``device``) and the voice name.
    """
    speaker = Pyttsx3Speaker(rate, audio=audio, device=device)
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
