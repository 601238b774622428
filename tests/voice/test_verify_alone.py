"""The winner verified searched alone: table talk forced into the grammar fits badly,
commands still fit (real PocketSphinx on espeak-ng speech), in English weighed into the
fit, in French and Italian as floors of their own (queries, commands, ...)."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from voice_spades.commands import NotUnderstood
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.testing.chatter import (
    SENTENCES,
    SENTENCES_FR,
    SENTENCES_IT,
)
from voice_spades.voice.testing.prompts import chatter_table
from voice_spades.voice.testing.testspeech import SpeechParams, synthesize, tools_available
from voice_spades.voice.understanding.confirmation import decide
from voice_spades.voice.understanding.meaning import (
    Reading,
    read,
)

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")]
ps = pytest.importorskip("voice_spades.voice.recognizers.pocketsphinx_recognizer")
tuning = pytest.importorskip("voice_spades.voice.recognizers.pocketsphinx_tuning")

BAR = 0.3
"""About the floors under which table talk is answered "say again"."""


@cache
def fits(verify_alone: bool, texts: tuple[str, ...]) -> tuple[float, ...]:
    """The fit of each text said by espeak-ng's RP voice at a play prompt (0 when
    rejected), nothing rejected for its verification."""
    recognizer = ps.PocketSphinxRecognizer(
        tuning.PocketSphinxTuning(verify_alone=verify_alone, accept_above=0.0))
    recognizer.set_phrases(chatter_table("play", 5).phrases)
    found = []
    for text in texts:
        pcm = synthesize(text, SpeechParams("en-gb-x-rp", 150, 50, noise=0.0005,
                                            pad_seconds=0.3))
        heard = recognizer.decode(pcm)
        found.append(heard.fit if heard.text is not None else 0.0)
    return tuple(found)


def test_table_talk_fits_badly_once_the_winner_is_verified_alone() -> None:
    # measured: 9 of these 40 sentences fitted their phrase at 0.41-0.95 by the search's
    # own verification ("how many points do we need" as "how many tricks"), none at
    # 0.3 or more (0.22 at most) weighed with the winner searched alone
    talk = tuple(SENTENCES[:40])
    loose = [text for text, fit in zip(talk, fits(False, talk), strict=True) if fit >= BAR]
    alone = [text for text, fit in zip(talk, fits(True, talk), strict=True) if fit >= BAR]
    assert len(loose) >= 5, loose
    assert len(alone) <= 1, alone


def test_commands_still_fit_when_the_winner_is_verified_alone() -> None:
    # measured: 0.37 ("game info") to 1.00, four of six at 0.5 and more
    said = ("how many tricks", "highest heart", "game info", "five of hearts",
            "cards on the table", "help me")
    found = fits(True, said)
    assert min(found) >= BAR and sum(fit >= 0.5 for fit in found) >= 4, found



@cache
def readings(language: str, texts: tuple[str, ...]) -> tuple[Reading, ...]:
    """Each text said by espeak-ng's voice of ``language`` while a question waits, read
    by that language's recognizer with its own tuning."""
    lexicon = lexicon_for(language)
    recognizer = ps.PocketSphinxRecognizer(lexicon=lexicon)
    table = chatter_table("question", 5, lexicon)
    recognizer.set_phrases(table.phrases)
    return tuple(read(recognizer.decode(synthesize(text, SpeechParams(
        language, 150, 50, noise=0.0005, pad_seconds=0.3))), table, lexicon) for text in texts)


def answered(language: str, reading: Reading, *, alone: bool) -> bool:
    """Whether the game answers ``reading`` (acts, asks or replies) rather than saying
    "say again", with or without the floors on the fit searched alone."""
    lexicon = lexicon_for(language)
    table = chatter_table("question", 5, lexicon)
    if not alone:
        reading = dataclasses.replace(reading, alone_fit=None)
    return not isinstance(decide(reading, table, lexicon=lexicon), NotUnderstood)


TALK = {"fr": SENTENCES_FR[:40], "it": SENTENCES_IT[:40]}
SAID = {"fr": ("à qui le tour", "les plis", "répète", "le score", "quelles cartes j'ai",
               "parle plus lentement"),
        "it": ("di chi è il turno", "quante prese", "ripeti", "il punteggio", "le mie carte",
               "parla più lento")}


@pytest.mark.parametrize(("language", "before_at_least", "after_at_most"),
                         [("fr", 5, 1), ("it", 5, 6)])
def test_table_talk_answered_as_a_query_fits_badly_searched_alone(
        language: str, before_at_least: int, after_at_most: int) -> None:
    # measured, 40 sentences each: French 10 answered by the search's fit alone ("c'est
    # toi qui mélanges la prochaine fois" as "qu'est ce qu'il y a sur la table"), none
    # with the floors on the fit searched alone (they fitted 0.0054 and less so);
    # Italian 7, then 3 ("bella partita a tutti" as "nuova partita" fitted 0.995 alone,
    # "che ore sono" as "che cuori ho" 0.47: they sound alike); 4 since the Italian
    # query floor was set on recorded voices too (0.002 -> 0.0008); 6 since every key's
    # query became a phrase ("quanti punti ci mancano", "dovevo dichiarare di più" now
    # sound like the target's and a bid's queries): an answer, never an action
    talk = tuple(TALK[language])
    found = readings(language, talk)
    assert all(reading.search_fit is None for reading in found)  # the fit is the search's
    before = [text for text, reading in zip(talk, found, strict=True)
              if answered(language, reading, alone=False)]
    after = [text for text, reading in zip(talk, found, strict=True)
             if answered(language, reading, alone=True)]
    assert len(before) >= before_at_least, before
    assert len(after) <= after_at_most, after


@pytest.mark.parametrize("language", ["fr", "it"])
def test_queries_and_commands_said_right_are_still_answered(language: str) -> None:
    # measured: searched alone these fitted 0.09 ("parle plus lentement") to 0.998, in
    # Italian 0.044-0.047 ("le mie carte") to 0.998. On one machine all six of each
    # language were answered; on another, Italian "le mie carte" fitted 0.293 by the
    # grammar search, under the Italian query floor (0.3, FIT_FLOORS), with or without
    # the floors searched alone: those must lose nothing the fit lets through.
    found = readings(language, SAID[language])
    assert all(reading.alone_fit is not None for reading in found)
    for reading in found:
        if answered(language, reading, alone=False):
            assert answered(language, reading, alone=True), reading
    assert sum(answered(language, reading, alone=True) for reading in found) >= 5, found
