"""While voice sleeps: the wake phrases wake it, and the sleep word said again (or a
wake phrase heard as it) is answered with how to wake voice, never with waking."""

from __future__ import annotations

import pytest

from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.recognizers.base import Recognition, Recognizer, load_phrases
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.prompts import asleep_table
from voice_spades.voice.understanding.confirmation import (
    REMIND_CONFIDENCE,
    SWITCH_CONFIDENCE,
    asleep_reminder,
    switch,
    wake_confidence,
)
from voice_spades.voice.understanding.grammar import Listening, full_grammar
from voice_spades.voice.understanding.meaning import read


def heard(text: str, confidence: float, *alternatives: tuple[str, float]) -> Recognition:
    return Recognition(text, confidence, alternatives or ((text, confidence),), 1.0, 0.01)


@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_the_sleep_word_while_asleep_reminds_and_does_not_wake(language: str) -> None:
    lex = lexicon_for(language)
    table = asleep_table(3, lex)
    sleep, wake = lex.listening["sleep"][0], lex.listening["wake"][0]
    # as "start listening" said by an espeak-ng voice was heard: the sleep word first,
    # the wake phrase a close runner-up
    reading = read(heard(sleep, 0.45, (sleep, 0.55), (wake, 0.45)), table, lex)
    assert switch(reading) is None and asleep_reminder(reading, lex)
    unsure = read(heard(sleep, REMIND_CONFIDENCE - 0.05), table, lex)
    assert not asleep_reminder(unsure, lex)
    woke = read(heard(wake, 0.9), table, lex)
    assert switch(woke) == Listening(True) and not asleep_reminder(woke, lex)


@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_a_wake_phrase_wakes_from_a_lower_confidence_than_the_sleep_word(
        language: str) -> None:
    lex = lexicon_for(language)
    table = asleep_table(4, lex)
    wake = lex.listening["wake"][1]
    bar = wake_confidence(lex)
    assert REMIND_CONFIDENCE < bar < SWITCH_CONFIDENCE
    # right French wake phrases were heard at 0.21-0.42 (the sleep word needs 0.5)
    assert switch(read(heard(wake, bar + 0.01), table, lex), lex) == Listening(True)
    assert switch(read(heard(wake, 0.45), full_grammar(lex), lex), lex) == Listening(True)
    assert switch(read(heard(lex.listening["sleep"][1], 0.45), full_grammar(lex), lex),
                  lex) is None
    # too unsure to wake: the player hears how to wake rather than nothing
    unsure = read(heard(wake, bar - 0.05), table, lex)
    assert switch(unsure, lex) is None and asleep_reminder(unsure, lex)
    table_talk = read(heard(wake, REMIND_CONFIDENCE - 0.05), table, lex)
    assert switch(table_talk, lex) is None and not asleep_reminder(table_talk, lex)


def test_english_table_talk_heard_as_the_wake_phrase_does_not_wake() -> None:
    lex = lexicon_for("en")
    table = asleep_table(5, lex)
    # "how is your mother doing", said by an MBROLA voice, was heard so
    mother = read(heard("resume listening", 0.36, ("resume listening", 0.97),
                        ("pause listening", 0.03)), table, lex)
    assert switch(mother, lex) is None
    assert asleep_reminder(mother, lex)
    # the worst right English wake phrase measured (espeak-ng "start listening")
    assert switch(read(heard("start listening", 0.49), table, lex), lex) == Listening(True)


def test_other_decoys_while_asleep_say_nothing() -> None:
    lex = lexicon_for("en")
    table = asleep_table(3, lex)
    for text in ("what's on the table", "what can i say"):
        reading = read(heard(text, 1.0), table, lex)
        assert switch(reading) is None and not asleep_reminder(reading, lex), text
    # near the sleep word but not it: the tolerant match is not enough to answer
    reading = read(heard("stop listening now", 1.0), table, lex)
    assert not asleep_reminder(reading, lex)


@pytest.mark.audio
@pytest.mark.skipif(not testspeech.tools_available(), reason="needs espeak-ng and sox")
def test_spoken_sleep_word_while_asleep_reminds_and_resume_wakes() -> None:
    backend = pytest.importorskip("voice_spades.voice.recognizers.pocketsphinx_recognizer")
    recognizer: Recognizer = backend.PocketSphinxRecognizer()
    lex = lexicon_for("en")
    table = asleep_table(5, lex)
    load_phrases(recognizer, table.phrases, [table.meanings[p] for p in table.phrases])
    said = testspeech.synthesize("pause listening") + testspeech.silence(0.3)
    reading = read(recognizer.decode(said), table, lex)
    assert switch(reading) is None and asleep_reminder(reading, lex)
    said = testspeech.synthesize("resume listening") + testspeech.silence(0.3)
    reading = read(recognizer.decode(said), table, lex)
    assert switch(reading) == Listening(True) and not asleep_reminder(reading, lex)
