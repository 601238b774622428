"""The Vosk backend: grammar, result parsing, model folder checks and the recognizer.

Parsing and model checks need no model. The recognizer logic runs against a
stand-in for vosk's KaldiRecognizer that replays scripted results. Decoding
real speech runs only when a Vosk model is installed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
import vosk

from tests.voice.wording import raises_saying, said
from voice_spades.errors import SetupError
from voice_spades.voice.models import locations
from voice_spades.voice.models.folder import (
    IVECTOR_FILES,
    check_model_folder,
    require_model_folder,
)
from voice_spades.voice.recognizers.base import Recognizer
from voice_spades.voice.recognizers.vosk_recognizer import VoskRecognizer, load_model
from voice_spades.voice.recognizers.vosk_results import (
    UNKNOWN,
    Heard,
    combine_segments,
    grammar_json,
    parse_result,
)
from voice_spades.voice.testing.testspeech import synthesize, tools_available, white_noise

PHRASES = {"queen of hearts", "queen of spades", "pass", "what's on the table"}

# What Vosk 0.3.45 prints for one utterance, in the shapes its C++ code writes.
WORDS_RESULT = """{
  "result" : [{
      "conf" : 0.912345,
      "end" : 1.110000,
      "start" : 0.870000,
      "word" : "queen"
    }, {
      "conf" : 1.000000,
      "end" : 1.230000,
      "start" : 1.110000,
      "word" : "of"
    }, {
      "conf" : 0.830000,
      "end" : 1.740000,
      "start" : 1.230000,
      "word" : "hearts"
    }],
  "text" : "queen of hearts"
}"""

NBEST_RESULT = """{
  "alternatives" : [{
      "confidence" : 229.345581,
      "result" : [{"end" : 1.11, "start" : 0.87, "word" : "queen"},
                  {"end" : 1.23, "start" : 1.11, "word" : "of"},
                  {"end" : 1.74, "start" : 1.23, "word" : "hearts"}],
      "text" : "queen of hearts"
    }, {
      "confidence" : 227.052917,
      "result" : [{"end" : 1.11, "start" : 0.87, "word" : "queen"},
                  {"end" : 1.23, "start" : 1.11, "word" : "of"},
                  {"end" : 1.74, "start" : 1.23, "word" : "spades"}],
      "text" : "queen of spades"
    }, {
      "confidence" : 221.5,
      "result" : [{"end" : 1.74, "start" : 0.87, "word" : "[unk]"}],
      "text" : "[unk]"
    }]
}"""

EMPTY_PLAIN = '{"text": ""}'
EMPTY_NBEST = '{"alternatives" : [{"text": "", "confidence" : 1.0}] }'


def write_model(folder: Path, *, graph: str = "dynamic", ivectors: bool = True) -> Path:
    """Lay out the files of a Vosk model (contents are placeholders)."""
    names = ["am/final.mdl", "conf/mfcc.conf", "conf/model.conf"]
    if graph == "dynamic":
        names += ["graph/HCLr.fst", "graph/Gr.fst", "graph/disambig_tid.int",
                  "graph/phones/word_boundary.int"]
    else:
        names += ["graph/HCLG.fst", "graph/words.txt"]
    if ivectors:
        names += list(IVECTOR_FILES)
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(f"placeholder {name}\n")
    return folder


def problems_of(folder: Path) -> list[str]:
    """What keeps ``folder`` from being a usable model, as the player reads it."""
    return [said(problem) for problem in check_model_folder(folder)]


def tone(seconds: float = 0.6, pitch: float = 140.0) -> bytes:
    """A voiced-sounding 16 kHz clip (harmonics of ``pitch``) that passes the noise gate."""
    t = np.arange(int(seconds * 16000)) / 16000
    wave = sum(np.sin(2 * np.pi * pitch * k * t) / k for k in range(1, 6))
    # Quiet first and last fifth: the noise gate looks for speech rising above a floor.
    envelope = np.where((t > seconds / 5) & (t < seconds * 4 / 5), 1.0, 0.01)
    pcm: bytes = (wave * envelope / np.abs(wave).max() * 8000).astype("<i2").tobytes()
    return pcm


# -- grammar and parsing -------------------------------------------------------------


def test_grammar_is_the_phrases_then_unk() -> None:
    grammar = grammar_json(["queen of hearts", "pass", "what's on the table"])
    assert json.loads(grammar) == ["queen of hearts", "pass", "what's on the table", "[unk]"]
    assert json.loads(grammar_json([])) == [UNKNOWN]
    # Vosk reads "\\u00f9" as six letters, no word of any model.
    assert grammar_json(["più", "trèfle"], unknown=False) == '["più", "trèfle"]'


def test_plain_result_confidence_is_the_mean_word_conf() -> None:
    heard = parse_result(WORDS_RESULT, PHRASES)
    assert heard.text == "queen of hearts"
    assert heard.confidence == pytest.approx((0.912345 + 1.0 + 0.83) / 3)
    assert heard.alternatives == (("queen of hearts", heard.confidence),)
    assert heard.reason is None


def test_plain_result_accepts_a_decoded_object_and_missing_words() -> None:
    assert parse_result({"text": "pass"}, PHRASES) == Heard("pass", 1.0, (("pass", 1.0),),
                                                            "pass")


def test_nbest_scores_become_probabilities() -> None:
    heard = parse_result(NBEST_RESULT, PHRASES)
    scores = [229.345581, 227.052917, 221.5]
    total = sum(math.exp(s - scores[0]) for s in scores)
    assert heard.text == "queen of hearts"
    assert heard.confidence == pytest.approx(1 / total)
    texts = [text for text, _ in heard.alternatives]
    assert texts == ["queen of hearts", "queen of spades"]  # "[unk]" is no phrase
    assert heard.alternatives[1][1] == pytest.approx(math.exp(scores[1] - scores[0]) / total)
    # "[unk]" keeps its share, so the phrases' probabilities sum to less than 1.
    assert sum(p for _, p in heard.alternatives) < 1.0


def test_score_scale_flattens_the_probabilities() -> None:
    sharp = parse_result(NBEST_RESULT, PHRASES).confidence
    flat = parse_result(NBEST_RESULT, PHRASES, score_scale=0.1).confidence
    assert 0.3 < flat < sharp


@pytest.mark.parametrize("result", [
    '{"text": "[unk]"}',
    '{"result": [{"conf": 1.0, "end": 0.9, "start": 0.3, "word": "[unk]"}], "text": "[unk]"}',
    '{"alternatives": [{"confidence": 230.1, "text": "[unk]"},'
    ' {"confidence": 228.0, "text": "pass"}]}',
])
def test_unk_is_a_rejection(result: str) -> None:
    heard = parse_result(result, PHRASES)
    assert heard.text is None
    assert heard.confidence == 0.0
    assert heard.reason == "speech outside the allowed phrases"
    assert heard.raw_text == "[unk]"


def test_a_runner_up_phrase_survives_an_unk_rejection() -> None:
    heard = parse_result('{"alternatives": [{"confidence": 230.1, "text": "[unk]"},'
                         ' {"confidence": 228.0, "text": "pass"}]}', PHRASES)
    assert [text for text, _ in heard.alternatives] == ["pass"]


@pytest.mark.parametrize("result", [EMPTY_PLAIN, EMPTY_NBEST, '{"alternatives": []}', "{}"])
def test_empty_text_is_a_rejection(result: str) -> None:
    heard = parse_result(result, PHRASES)
    assert heard.text is None
    assert heard.reason == "heard nothing"


@pytest.mark.parametrize("text", ["queen [unk]", "queen of clubs", "hearts"])
def test_text_outside_the_phrases_is_a_rejection(text: str) -> None:
    heard = parse_result({"text": text, "result": []}, PHRASES)
    assert heard.text is None
    assert heard.raw_text == text
    assert heard.reason is not None


def test_segments_of_one_utterance_are_combined() -> None:
    cough = parse_result('{"text": "[unk]"}', PHRASES)
    silence = parse_result(EMPTY_PLAIN, PHRASES)
    card = parse_result(WORDS_RESULT, PHRASES)
    assert combine_segments([silence, cough, card, silence]).text == "queen of hearts"
    assert combine_segments([silence, silence]).reason == "heard nothing"
    assert combine_segments([cough, silence]).reason == "speech outside the allowed phrases"
    both = combine_segments([card, parse_result('{"text": "pass"}', PHRASES)])
    assert both.text is None
    assert both.reason == "heard more than one phrase"
    assert [text for text, _ in both.alternatives] == ["queen of hearts", "pass"]


# -- model folders ------------------------------------------------------------------


def test_a_complete_model_folder_passes(tmp_path: Path) -> None:
    assert check_model_folder(write_model(tmp_path / "m")) == []
    assert check_model_folder(write_model(tmp_path / "n", ivectors=False)) == []
    assert require_model_folder(tmp_path / "m") == tmp_path / "m"


def test_missing_files_are_named(tmp_path: Path) -> None:
    model = write_model(tmp_path / "m")
    for name in ("am/final.mdl", "conf/mfcc.conf", "graph/Gr.fst", "ivector/final.ie"):
        (model / name).unlink()
    assert problems_of(model) == [
        "am/final.mdl is missing", "conf/mfcc.conf is missing",
        "graph/Gr.fst is missing", "ivector/final.ie is missing"]
    with raises_saying(SetupError, r"am/final\.mdl is missing; conf/mfcc\.conf is missing"):
        require_model_folder(model)


def test_an_empty_folder_lists_every_required_file(tmp_path: Path) -> None:
    problems = problems_of(tmp_path)
    for name in ("am/final.mdl", "conf/mfcc.conf", "conf/model.conf", "graph/HCLr.fst",
                 "graph/Gr.fst"):
        assert f"{name} is missing" in problems
    assert problems_of(tmp_path / "nowhere") == [
        f"the folder {tmp_path / 'nowhere'} does not exist"]


def test_ivector_files_are_required_when_the_config_uses_them(tmp_path: Path) -> None:
    model = write_model(tmp_path / "m", ivectors=False)
    (model / "conf/model.conf").write_text("--ivector-extraction-config=conf/ivector.conf\n")
    assert "ivector/final.ie is missing" in problems_of(model)


def test_a_static_graph_model_is_refused(tmp_path: Path) -> None:
    problems = problems_of(write_model(tmp_path / "big", graph="static"))
    assert len(problems) == 1
    assert "graph/HCLG.fst" in problems[0]
    assert "ignores grammars" in problems[0]
    assert "graph/HCLr.fst and graph/Gr.fst" in problems[0]


def test_a_model_with_damaged_files_cannot_load(tmp_path: Path) -> None:
    with raises_saying(SetupError, "could not be loaded"):
        load_model(write_model(tmp_path / "m"))


def test_loading_a_folder_with_missing_files_names_them(tmp_path: Path) -> None:
    with raises_saying(SetupError, r"am/final\.mdl is missing"):
        VoskRecognizer(tmp_path)


def test_no_installed_model_is_a_setup_error(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(locations.MODEL_ENV, raising=False)
    monkeypatch.setattr(locations, "models_dirs", lambda: [tmp_path])
    with raises_saying(SetupError, "No Vosk model installed"):
        VoskRecognizer()


# -- the recognizer, against a scripted KaldiRecognizer -------------------------------


class FakeModel:
    """Stands in for vosk.Model: knows a fixed vocabulary, and "[unk]" as the
    downloaded English, Italian and French models do unless ``unknown`` is False."""

    def __init__(self, words: set[str], unknown: bool = True) -> None:
        self.words = words | {UNKNOWN} if unknown else words

    def vosk_model_find_word(self, word: str) -> int:
        return sorted(self.words).index(word) if word in self.words else -1


class FakeKaldi:
    """Stands in for vosk.KaldiRecognizer, replaying scripted result JSON."""

    made: ClassVar[list[FakeKaldi]] = []

    def __init__(self, model: Any, rate: int, grammar: str) -> None:
        self.model, self.rate, self.grammar = model, rate, json.loads(grammar)
        self.words = False
        self.max_alternatives = 0
        self.fed = 0
        self.finals = 0
        self.endpoints: list[str] = []  # results closed by endpointing, one per feed
        self.final = EMPTY_NBEST
        FakeKaldi.made.append(self)

    def SetWords(self, words: bool) -> None:
        self.words = words

    def SetMaxAlternatives(self, n: int) -> None:
        self.max_alternatives = n

    def AcceptWaveform(self, data: bytes) -> bool:
        self.fed += len(data)
        return bool(self.endpoints)

    def Result(self) -> str:
        return self.endpoints.pop(0)

    def FinalResult(self) -> str:
        self.finals += 1
        return self.final


@pytest.fixture
def fake_kaldi(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakeKaldi]]:
    FakeKaldi.made = []
    monkeypatch.setattr(vosk, "KaldiRecognizer", FakeKaldi)
    yield FakeKaldi


VOCABULARY = {"queen", "of", "hearts", "spades", "pass", "what's", "on", "the", "table"}


def test_the_recognizer_meets_the_protocol(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY))
    assert isinstance(recognizer, Recognizer)
    assert recognizer.name == "vosk"


def test_phrases_become_a_cached_grammar(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY), max_alternatives=4)
    recognizer.set_phrases(["Queen of Hearts", "pass"])
    (kaldi,) = fake_kaldi.made
    assert kaldi.grammar == ["queen of hearts", "pass", "[unk]"]
    assert kaldi.rate == 16000
    assert kaldi.words is True
    assert kaldi.max_alternatives == 4
    recognizer.set_phrases(["What’s on the table?"])
    recognizer.set_phrases(["queen of hearts", "PASS"])  # same set, other spelling
    assert [k.grammar for k in fake_kaldi.made] == [
        ["queen of hearts", "pass", "[unk]"], ["what's on the table", "[unk]"]]


def test_a_model_without_unk_gets_the_phrases_alone(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY, unknown=False))
    recognizer.set_phrases(["pass"])
    assert not recognizer.catches_other_speech
    assert fake_kaldi.made[0].grammar == ["pass"]


def test_the_grammar_cache_is_bounded(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY), cached_grammars=2)
    for phrases in (["pass"], ["queen of hearts"], ["queen of spades"], ["pass"]):
        recognizer.set_phrases(phrases)
    assert len(fake_kaldi.made) == 4  # "pass" was evicted, then built again


def test_phrases_with_unknown_words_are_left_out(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY))
    recognizer.set_phrases(["queen of hearts", "nil bid", "pass"])
    assert recognizer.unknown_words == ("bid", "nil")
    assert recognizer.dropped_phrases == ("nil bid",)
    assert fake_kaldi.made[-1].grammar == ["queen of hearts", "pass", "[unk]"]


def test_decode_answers_in_the_callers_spelling(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY))
    recognizer.set_phrases(["Queen of Hearts", "Queen of Spades", "pass"])
    fake_kaldi.made[-1].final = NBEST_RESULT
    audio = tone()
    result = recognizer.decode(audio)
    assert result.text == "Queen of Hearts"
    assert result.alternatives[0][0] == "Queen of Hearts"
    assert result.alternatives[1][0] == "Queen of Spades"
    assert result.confidence == pytest.approx(result.alternatives[0][1])
    assert result.audio_seconds == pytest.approx(0.6)
    assert result.decode_seconds >= 0.0
    assert fake_kaldi.made[-1].fed == len(audio)


def test_unk_and_noise_are_rejected(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY))
    recognizer.set_phrases(["pass"])
    fake_kaldi.made[-1].final = '{"alternatives": [{"confidence": 1.0, "text": "[unk]"}]}'
    assert recognizer.decode(tone()).reason == "speech outside the allowed phrases"
    fake_kaldi.made[-1].final = '{"alternatives": [{"confidence": 1.0, "text": "pass"}]}'
    assert recognizer.decode(white_noise(0.8, 0.05)).reason == "no speech, only noise or silence"
    assert recognizer.decode(tone(0.05)).reason == "too short to be a phrase"
    assert recognizer.decode(tone()).text == "pass"


def test_without_phrases_everything_is_rejected(fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY))
    assert recognizer.decode(tone()).reason == "no phrases are allowed now"
    recognizer.set_phrases(["blorp"])
    assert recognizer.decode(tone()).reason == "no phrases are allowed now"


def test_streaming_collects_segments_closed_by_endpointing(
        fake_kaldi: type[FakeKaldi]) -> None:
    recognizer = VoskRecognizer(model=FakeModel(VOCABULARY))
    recognizer.set_phrases(["queen of hearts", "pass"])
    kaldi = fake_kaldi.made[-1]
    kaldi.endpoints = ['{"alternatives": [{"confidence": 5.0, "text": "[unk]"}]}']
    kaldi.final = '{"alternatives": [{"confidence": 9.0, "text": "pass"}]}'
    recognizer.start()
    recognizer.feed(tone(0.3))  # abandoned: never finished
    recognizer.start()
    assert kaldi.finals == 1  # the abandoned utterance was closed and thrown away
    kaldi.fed = 0
    audio = tone(0.9)
    for offset in range(0, len(audio), 3200):
        recognizer.feed(audio[offset:offset + 3200])
    result = recognizer.finish()
    assert result.text == "pass"
    assert result.audio_seconds == pytest.approx(0.9)
    assert kaldi.fed == len(audio)
    assert kaldi.finals == 2


# -- real decoding ------------------------------------------------------------------


@pytest.fixture(scope="module")
def installed_model() -> Path:
    try:
        return locations.find_vosk_model()
    except SetupError as error:
        why = said(error)
        if why.startswith("No Vosk model installed"):
            why = (f"none in {', '.join(map(str, locations.models_dirs()))} and "
                   f"${locations.MODEL_ENV} is not set")
        pytest.skip(f"No Vosk model installed: {why}")


@pytest.mark.slow
@pytest.mark.audio
def test_a_real_model_hears_the_allowed_phrase(installed_model: Path) -> None:
    if not tools_available():
        pytest.skip("espeak-ng and sox are needed to synthesize test speech")
    recognizer = VoskRecognizer(installed_model)
    recognizer.set_phrases(["queen of hearts", "ten of clubs", "pass", "what's on the table"])
    assert recognizer.decode(synthesize("queen of hearts")).text == "queen of hearts"
    assert recognizer.decode(synthesize("pass")).text == "pass"
    assert recognizer.decode(white_noise(1.0, 0.05)).rejected
