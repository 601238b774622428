"""Italian heard through PocketSphinx's English model, set on several voices: slow speech
in a reverberant room is still a command, and table talk heard as a command that fitted
like table talk searched alone is answered "say again"."""

from __future__ import annotations

import dataclasses

import pytest

from voice_spades.commands import NotUnderstood
from voice_spades.engine import Match, profile
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.recognizers.pocketsphinx_tuning import PocketSphinxTuning, tuning_for
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.manifest import Clip, render
from voice_spades.voice.testing.testspeech import SpeechParams
from voice_spades.voice.understanding.confirmation import ALONE_FLOORS, understand
from voice_spades.voice.understanding.grammar import build_phrases

IT = lexicon_for("it")
DRAW_PHRASES = ["tengo", "scarto", "la tengo", "la scarto", "tengo questa carta",
                "scarto questa carta", "sì", "no"]


def slow_in_a_room(text: str, voice: str) -> bytes:
    """``text`` said slowly (100 words a minute) by espeak-ng, with sox's reverberation
    of 60: 1.4-1.7 s of speech where the English limits allow 1.2 s for these."""
    return render(Clip(text, SpeechParams(voice, 100, 50, noise=0.003, pad_seconds=0.6,
                                          seed=3), reverb=60))


def heard_by(tuning: PocketSphinxTuning, clips: dict[str, bytes]) -> list[str | None]:
    recognizer = PocketSphinxRecognizer(tuning=tuning, lexicon=IT)
    try:
        recognizer.set_phrases(DRAW_PHRASES)
        return [recognizer.decode(pcm).text for pcm in clips.values()]
    finally:
        recognizer.close()


@pytest.mark.audio
@pytest.mark.skipif(not testspeech.tools_available(), reason="needs espeak-ng and sox")
def test_slow_italian_in_a_reverberant_room_is_heard() -> None:
    """Festival, Pico and MBROLA voices said "scarto", "tengo", "la tengo" so and were
    answered "say again" as "much longer than the phrase it resembles"; Italian's
    limits are now set on espeak-ng and MBROLA voices with reverberation."""
    clips = {text: slow_in_a_room(text, "it") for text in ("scarto", "tengo", "la tengo")}
    said = list(clips)
    assert heard_by(tuning_for("it"), clips) == said
    english_limits = dataclasses.replace(tuning_for("it"), max_seconds_per_phone=0.18,
                                         always_allowed_seconds=1.2)
    assert heard_by(english_limits, clips) == [None] * len(clips)


def test_italian_table_talk_heard_as_a_command_that_fitted_badly_alone_is_said_again(
) -> None:
    """ "suonano alla porta" was answered as "puoi ripetere" at 0.0001 searched alone;
    the lowest right command of the fitting voices fitted 0.0076 so."""
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    bids = build_phrases(match.view(match.to_act), confirming=False, cursor=None,
                         lexicon=IT)
    repeat = Recognition("puoi ripetere", 0.5, (("puoi ripetere", 1.0),), 1.0, 0.01)
    assert isinstance(understand(dataclasses.replace(repeat, alone_fit=0.0001), bids,
                                 lexicon=IT), NotUnderstood)
    assert not isinstance(understand(dataclasses.replace(repeat, alone_fit=0.0076), bids,
                                     lexicon=IT), NotUnderstood)
    assert ALONE_FLOORS["it"]["other"] < 0.0076
