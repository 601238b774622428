"""Speech output: the narrator's voice and text lines.

:class:`AnnouncerOutput` is the session's output (it implements
:class:`~voice_spades.session.Output`): the speech layer is an adapter around the
session. It hands each line to the :class:`Announcer`, which writes every message as a
plain text line and hands it to a :class:`Speaker`: the player's screen reader
(:class:`ScreenReaderSpeaker`, through prism), the game's own voice
(:func:`make_speaker`: pyttsx3 with espeak-ng, played through ``sounddevice``), or none
(text lines only); :func:`choose_speech` picks one for ``--speech`` and says which and
why (:mod:`.choice`). A speaker that cannot start or
stops working raises :class:`~voice_spades.errors.SetupError` with a catalog id
(``speech.*``); its sentence comes from the catalog.

A key cuts the sentence playing and is answered at once; game events still waiting
are said after the answer, never dropped unheard (:mod:`.queue_policy`); the
announcer's :meth:`~Announcer.record` says what became of each line (:class:`Said`,
:class:`Outcome`).
"""

from voice_spades.speech.announcer import Announcer
from voice_spades.speech.base import Interruptible, Speaker, SpeakingCallback
from voice_spades.speech.choice import Choice, choose_speech
from voice_spades.speech.message import Priority, Utterance
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.pyttsx3_speaker import Pyttsx3Speaker, make_speaker
from voice_spades.speech.record import Outcome, Said
from voice_spades.speech.screen_reader import ScreenReaderSpeaker
from voice_spades.speech.text_speaker import TextSpeaker
from voice_spades.speech.wav_speaker import WavSpeaker

__all__ = [
    "Announcer",
    "AnnouncerOutput",
    "Choice",
    "Interruptible",
    "Outcome",
    "Priority",
    "Pyttsx3Speaker",
    "Said",
    "ScreenReaderSpeaker",
    "Speaker",
    "SpeakingCallback",
    "TextSpeaker",
    "Utterance",
    "WavSpeaker",
    "choose_speech",
    "make_speaker",
]
