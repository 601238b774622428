"""Speech output: the narrator's voice and text lines.

:class:`Announcer` is what the game talks to; it writes every message as a plain
text line and hands it to a :class:`Speaker` (:func:`make_speaker` builds the
default one, pyttsx3 with espeak-ng through ALSA).
"""

from voice_spades.speech.announcer import Announcer
from voice_spades.speech.base import Speaker, SpeakingCallback
from voice_spades.speech.message import Priority, Utterance
from voice_spades.speech.pyttsx3_speaker import Pyttsx3Speaker, make_speaker
from voice_spades.speech.text_speaker import TextSpeaker
from voice_spades.speech.wav_speaker import WavSpeaker

__all__ = [
    "Announcer",
    "Priority",
    "Pyttsx3Speaker",
    "Speaker",
    "SpeakingCallback",
    "TextSpeaker",
    "Utterance",
    "WavSpeaker",
    "make_speaker",
]
