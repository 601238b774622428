"""Vosk in Italian and French: a word the model spells otherwise ("coeur" for "cœur")
is sent in the model's spelling and answered in the game's. No Vosk model of these
languages can be downloaded here: the recognizer runs against a scripted Kaldi."""

from __future__ import annotations

import json

from tests.voice.test_vosk_backend import FakeKaldi, FakeModel, fake_kaldi, tone  # noqa: F401
from voice_spades.commands import Act
from voice_spades.engine import Card
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.recognizers.vosk_recognizer import VoskRecognizer
from voice_spades.voice.understanding.grammar import full_grammar
from voice_spades.voice.understanding.meaning import read


def nbest(*texts: str) -> str:
    return json.dumps({"alternatives": [{"text": t, "confidence": 200.0 - 10 * i}
                                        for i, t in enumerate(texts)]})


def test_a_french_word_the_model_spells_otherwise_is_sent_its_way(
        fake_kaldi: type[FakeKaldi]) -> None:  # noqa: F811
    lex = lexicon_for("fr")
    model = FakeModel({"dame", "de", "coeur", "pique", "as", "joue", "l'as"})
    recognizer = VoskRecognizer(model=model, lexicon=lex)
    recognizer.set_phrases(["dame de cœur", "joue l'as de pique"])
    assert fake_kaldi.made[-1].grammar == ["dame de coeur", "joue l'as de pique", "[unk]"]
    assert recognizer.unknown_words == ()
    fake_kaldi.made[-1].final = nbest("dame de coeur", "joue l'as de pique")
    heard = recognizer.decode(tone())
    assert heard.text == "dame de cœur"
    table = full_grammar(lex)
    assert read(heard, table, lex).intent == Act(Card.parse("QH"))


def test_a_word_no_spelling_of_which_the_model_knows_drops_its_phrases(
        fake_kaldi: type[FakeKaldi]) -> None:  # noqa: F811
    recognizer = VoskRecognizer(model=FakeModel({"asso", "di", "picche"}),
                                lexicon=lexicon_for("it"))
    recognizer.set_phrases(["asso di picche", "l'asso di picche"])
    assert recognizer.unknown_words == ("l'asso",)
    assert recognizer.dropped_phrases == ("l'asso di picche",)
    assert fake_kaldi.made[-1].grammar == ["asso di picche", "[unk]"]
