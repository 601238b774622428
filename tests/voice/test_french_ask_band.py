"""French heard through PocketSphinx's English model: a right action that fitted under a
table-talk floor, but over the ask floor beneath it, is asked about rather than answered
"say again"; table talk under the ask floor is still "say again"; slow French in a
reverberant room is heard."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from voice_spades.commands import (
    Act,
    Ask,
    Command,
    Control,
    NotUnderstood,
    Propose,
)
from voice_spades.engine import Bid, Card, Match, Phase, mask_of, profile
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.recognizers.base import Recognition, load_phrases
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.recognizers.pocketsphinx_tuning import tuning_for
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.manifest import Clip, render
from voice_spades.voice.testing.prompts import chatter_table, prompt_table
from voice_spades.voice.testing.testspeech import SpeechParams
from voice_spades.voice.understanding.ask_band import ASK_ALONE_FLOORS
from voice_spades.voice.understanding.confirmation import (
    ALONE_FLOORS,
    ConfirmationPolicy,
    decide,
    fits_like_table_talk,
    reading_kind,
    understand,
)
from voice_spades.voice.understanding.grammar import PhraseTable, build_phrases
from voice_spades.voice.understanding.meaning import Reading, read

FR = lexicon_for("fr")
needs_speech = pytest.mark.skipif(not testspeech.tools_available(),
                                  reason="needs espeak-ng and sox")


def heard(text: str, fit: float, alone: float | None) -> Recognition:
    return Recognition(text, fit, ((text, 1.0),), 1.0, 0.01, alone_fit=alone)


def bid_table() -> PhraseTable:
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    return build_phrases(match.view(match.to_act), confirming=False, cursor=None, lexicon=FR)


def test_every_french_ask_floor_lies_under_the_table_talk_floor_of_its_kind() -> None:
    floors = ALONE_FLOORS["fr"]
    for kind, ask_floor in ASK_ALONE_FLOORS["fr"].items():
        assert 0 < ask_floor < floors.get(kind, floors.get("card", 1.0)) / 10, kind
    assert set(ASK_ALONE_FLOORS) == {"fr"}  # Italian and English decide as before


def test_a_french_bid_between_the_ask_floor_and_the_floor_is_asked_even_unasked_bids(
) -> None:
    """MBROLA fr5's right "demande treize" fitted 0.0081 searched alone, under the bid
    floor (0.05), and was answered "say again"."""
    table = bid_table()
    quiet = ConfirmationPolicy(confirm_bids=False)
    in_band = heard("demande treize", 0.94, 0.0081)
    for policy in (ConfirmationPolicy(), quiet):
        decided = understand(in_band, table, policy, FR)
        assert isinstance(decided, Propose)
        assert decided.intent == table.intent("demande treize")
    under = dataclasses.replace(in_band, alone_fit=ASK_ALONE_FLOORS["fr"]["bid"] / 2)
    assert isinstance(understand(under, table, quiet, FR), NotUnderstood)


def test_in_the_band_a_forbidden_card_is_refused_and_save_and_quit_asked() -> None:
    """A place the rules forbid now is answered with the reason, as any other: nothing
    is done. A command but "save and quit", and a query (which would be carried out at
    once), have no band."""
    match = Match(profile("pagat"), seed=3)
    while match.view(0).phase == Phase.BID:
        match.apply(Bid(3))
    assert match.to_act is not None
    held = tuple(Card.parse(code) for code in ("8C", "6H", "2D"))
    place = heard("la plus forte à trèfle", 0.9,
                  (ALONE_FLOORS["fr"]["place"] + ASK_ALONE_FLOORS["fr"]["place"]) / 2)
    for legal, said in ((held, Propose), (held[1:], Act)):
        view = dataclasses.replace(match.view(match.to_act), hand=mask_of(held), legal=legal)
        table = build_phrases(view, confirming=False, cursor=None, lexicon=FR)
        assert isinstance(understand(place, table, lexicon=FR), said)
    table = bid_table()
    alone = (ALONE_FLOORS["fr"]["other"] + ASK_ALONE_FLOORS["fr"]["other"]) / 2
    quit_ = understand(heard("enregistre et quitte", 0.83, alone), table, lexicon=FR)
    assert isinstance(quit_, Propose) and quit_.intent == Command(Control.SAVE_AND_QUIT)
    assert isinstance(understand(heard("répète", 0.9, alone), table, lexicon=FR),
                      NotUnderstood)
    query = heard("la table", 0.94, ALONE_FLOORS["fr"]["query"] / 2)
    assert isinstance(understand(query, table, lexicon=FR), NotUnderstood)
    assert isinstance(understand(dataclasses.replace(query, alone_fit=0.5), table,
                                 lexicon=FR), Ask)


@pytest.fixture(scope="module")
def recognizer() -> Iterator[PocketSphinxRecognizer]:
    recognizer = PocketSphinxRecognizer(lexicon=FR)
    yield recognizer
    recognizer.close()


def reading_of(recognizer: PocketSphinxRecognizer, clip: Clip, table: PhraseTable) -> Reading:
    load_phrases(recognizer, table.phrases, [table.meanings[p] for p in table.phrases])
    return read(recognizer.decode(render(clip)), table, FR)


@pytest.mark.audio
@needs_speech
@pytest.mark.parametrize(("text", "speech", "number"), [
    ("nil", SpeechParams("fr+f3", 170, 65, noise=0.0005, pad_seconds=0.3, seed=85), 86),
    ("joue cinq de carreau",
     SpeechParams("fr", 200, 65, noise=0.0005, pad_seconds=0.3, seed=111), 112)])
def test_a_right_french_action_fitting_in_the_band_is_asked_not_said_again(
        recognizer: PocketSphinxRecognizer, text: str, speech: SpeechParams,
        number: int) -> None:
    """espeak-ng in brown noise, as in the set the ask floors were set on: "nil" fitted
    0.005 searched alone, "joue cinq de carreau" 0.27 and 0.0097, both under a table-talk
    floor of their kind."""
    _, table = prompt_table(text, number, FR)
    reading = reading_of(recognizer, Clip(text, speech, "brown"), table)
    assert reading.phrase == text
    kind = reading_kind(reading)
    assert fits_like_table_talk(reading, kind, FR)
    assert reading.alone_fit is not None
    assert reading.alone_fit >= ASK_ALONE_FLOORS["fr"][kind]
    decided = decide(reading, table, lexicon=FR)
    assert isinstance(decided, Propose) and decided.intent == table.intent(text)


@pytest.mark.audio
@needs_speech
def test_french_table_talk_under_the_ask_floor_is_still_said_again(
        recognizer: PocketSphinxRecognizer) -> None:
    """ "c'est toi qui mélanges la prochaine fois" (espeak-ng fr+f3, noisy) was heard at
    the play prompt as "la plus forte à trèfle", 0.000003 searched alone."""
    table = chatter_table("play", 15, FR)
    speech = SpeechParams("fr+f3", 170, 35, noise=0.03, pad_seconds=0.3, seed=10014)
    reading = reading_of(recognizer,
                         Clip("c'est toi qui mélanges la prochaine fois", speech), table)
    assert isinstance(reading.intent, Act) and isinstance(reading.intent.action, Card)
    kind = reading_kind(reading)
    assert reading.alone_fit is not None
    assert reading.alone_fit < ASK_ALONE_FLOORS["fr"][kind]
    assert isinstance(decide(reading, table, lexicon=FR), NotUnderstood)


@pytest.mark.audio
@needs_speech
def test_slow_french_in_a_reverberant_room_is_heard(
        recognizer: PocketSphinxRecognizer) -> None:
    """espeak-ng's "demande treize" said slowly with sox's reverberation of 60 lasts
    longer than English's limits allow (1.2 s, 0.18 s a phone): it was answered "say
    again" as "much longer than the phrase it resembles"."""
    table = bid_table()
    clip = Clip("demande treize", SpeechParams("fr", 100, 50, noise=0.003, pad_seconds=0.6,
                                                seed=3), reverb=60)
    assert reading_of(recognizer, clip, table).phrase == "demande treize"
    english = PocketSphinxRecognizer(
        tuning=dataclasses.replace(tuning_for("fr"), max_seconds_per_phone=0.18,
                                   always_allowed_seconds=1.2), lexicon=FR)
    try:
        english.set_phrases(list(table.phrases))
        rejected = english.decode(render(clip))
    finally:
        english.close()
    assert rejected.text is None and rejected.reason is not None
    assert "longer" in rejected.reason
