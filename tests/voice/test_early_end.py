"""Ending an utterance at a short pause: the detector, the microphone, and the real
recognizer on espeak-ng speech with pauses spliced into commands."""

from __future__ import annotations

import numpy as np
import pytest

from tests.session.fakes import make_session
from tests.voice.synthetic import silence, voice
from tests.voice.test_listener import FakeRecognizer, NoDevice
from voice_spades.voice.audio.microphone import Microphone
from voice_spades.voice.audio.vad import SAMPLE_RATE, VadSettings, VoiceActivityDetector
from voice_spades.voice.early_end import (
    ASKED_MIN_FIT,
    MIN_FIT,
    EarlyEnd,
    continued,
    cut_short,
    is_whole,
)
from voice_spades.voice.listener import VoiceInput
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.prompts import prompt_table
from voice_spades.voice.testing.room import speech_span
from voice_spades.voice.testing.testspeech import SpeechParams


def heard(text: str | None, confidence: float = 0.95,
          *alternatives: tuple[str, float]) -> Recognition:
    return Recognition(text, confidence, ((text, confidence), *alternatives) if text else (),
                       1.0, 0.1)


def test_the_detector_offers_a_pause_and_ends_there_only_if_still_quiet() -> None:
    s = VadSettings()
    vad = VoiceActivityDetector(s)
    offered: list[tuple[bytes, int]] = []
    vad.on_pause = lambda pcm, number: offered.append((pcm, number))
    assert vad.feed(silence(0.5) + voice(0.6) + silence(s.early_quiet_seconds)) == []
    assert len(offered) == 1 and vad.in_speech
    pcm, number = offered[0]
    assert vad.feed(voice(0.3)) == []  # speech went on: that pause is gone
    assert vad.end_at_pause(number) is None and vad.in_speech
    vad.feed(silence(s.early_quiet_seconds))
    later, number = offered[1]
    assert later.startswith(pcm) and len(later) > len(pcm)
    assert vad.end_at_pause(number) == later and not vad.in_speech
    assert vad.end_at_pause(number) is None


def test_without_an_early_end_the_utterance_is_exactly_what_the_pause_offered() -> None:
    vad = VoiceActivityDetector()
    offered: list[bytes] = []
    vad.on_pause = lambda pcm, number: offered.append(pcm)
    done = vad.feed(silence(0.5) + voice(0.6) + silence(1.0))
    assert done == offered  # a recognizer that kept the pause's result decodes once


def test_the_microphone_ends_early_when_asked_and_not_after_speech_resumed() -> None:
    microphone = Microphone()
    got: list[bytes] = []
    pauses: list[tuple[bytes, int]] = []
    microphone.on_utterance = got.append
    microphone.on_pause = lambda pcm, number: pauses.append((pcm, number))
    microphone.process(silence(0.5) + voice(0.6) + silence(0.25))
    assert microphone.end_early(pauses[-1][1]) and got == [pauses[-1][0]]
    microphone.process(silence(0.5) + voice(0.6) + silence(0.25) + voice(0.3))
    stale = pauses[-1]
    assert not microphone.end_early(stale[1]) and len(got) == 1
    microphone.process(silence(1.0))
    assert got[1:] == [pauses[-1][0]] and len(got[1]) > len(stale[0])


def test_only_a_whole_confident_phrase_that_cannot_go_on_ends_early() -> None:
    phrases = ("four", "four of hearts", "bid four", "queen of hearts", "queen of spades")
    assert continued("four", phrases) and not continued("bid four", phrases)
    assert is_whole(heard("bid four"), phrases)
    assert not is_whole(heard("four"), phrases)
    # Speech that fits the phrase loosely may go on; a near tie between two whole
    # phrases is not settled by waiting.
    assert not is_whole(Recognition("bid four", 0.6, (("bid four", 1.0),), 1.0, 0.1), phrases)
    tie = Recognition("queen of hearts", 0.55, (("queen of hearts", 0.6), ("queen of spades", 0.4)),
                      1.0, 0.1)
    assert tie.confidence < MIN_FIT <= tie.fit
    assert is_whole(tie, phrases)
    assert not is_whole(heard(None), phrases)
    assert not is_whole(heard("bid five"), phrases)  # not loaded now
    assert not is_whole(heard("bid four", 0.85, ("four", 0.15)), phrases)


def test_the_early_end_weighs_the_fit_it_was_measured_on() -> None:
    # Where the recognizer gives its first measure beside the fit (PocketSphinx
    # verifying the winner searched alone too), the early end's bars apply to that one.
    phrases = ("queen of hearts", "queen of spades")
    loose = Recognition("queen of hearts", 0.5, (("queen of hearts", 1.0),), 1.0, 0.1,
                        search_fit=0.95)
    assert loose.fit < MIN_FIT and is_whole(loose, phrases)
    sure = Recognition("queen of hearts", 0.95, (("queen of hearts", 1.0),), 1.0, 0.1,
                       search_fit=0.5)
    assert sure.fit >= MIN_FIT and not is_whole(sure, phrases)


def test_a_phrase_whose_longer_forms_mean_the_same_ends_early() -> None:
    # at a question: what may follow "yes" changes nothing; "stop" may become another
    # command ("stop listening")
    _, table = prompt_table("yes please", 1)
    phrases, meanings = table.phrases, table.meanings
    assert "yes please" in phrases and "stop listening" in phrases
    assert continued("yes", phrases) and not continued("yes", phrases, meanings)
    assert is_whole(heard("yes"), phrases, meanings=meanings)
    assert not is_whole(heard("yes"), phrases)
    assert continued("stop", phrases, meanings)
    assert not is_whole(heard("stop"), phrases, meanings=meanings)
    # a likely rival that may go on into something else still keeps it open
    assert not is_whole(heard("yes", 0.85, ("stop", 0.15)), phrases, meanings=meanings)


# ----- real speech ---------------------------------------------------------------------

pytestmark_audio = pytest.mark.skipif(not testspeech.tools_available(),
                                      reason="needs espeak-ng and sox to synthesize speech")
VOICES = (("en-us", 150, 50), ("en-gb", 175, 40))


@pytest.fixture(scope="module")
def recognizer() -> PocketSphinxRecognizer:
    return PocketSphinxRecognizer()


def spoken(text: str, voice_: tuple[str, int, int], tmp: object) -> tuple[np.ndarray, int, int]:
    """``text`` in ``voice_`` with faint noise, and where its speech starts and ends."""
    name, speed, pitch = voice_
    pcm = testspeech.synthesize(text, SpeechParams(name, speed, pitch, noise=0.003,
                                                   pad_seconds=0.6, seed=len(text)))
    x = np.frombuffer(pcm, dtype="<i2")
    start, end = speech_span(x.astype(np.float32) / 32768)
    return x, round(start * SAMPLE_RATE), round(end * SAMPLE_RATE)


def with_pause(first: str, second: str, pause: float, voice_: tuple[str, int, int]) -> bytes:
    """``first``, ``pause`` seconds of the recording's own noise, ``second``."""
    a, _, a_end = spoken(first, voice_, None)
    b, b_start, _ = spoken(second, voice_, None)
    half = round(pause / 2 * SAMPLE_RATE)
    return np.concatenate([a[:a_end + half], b[b_start - half:]]).tobytes()


def through_microphone(recognizer: PocketSphinxRecognizer, phrases: tuple[str, ...],
                       pcm: bytes) -> tuple[list[str | None], EarlyEnd]:
    """What each utterance the microphone delivers decodes to, the early end on."""
    recognizer.set_phrases(phrases)
    microphone = Microphone()
    early = EarlyEnd(recognizer, microphone, lambda: phrases, synchronous=True)
    texts: list[str | None] = []
    microphone.on_utterance = lambda u: texts.append(recognizer.decode(u).text)
    microphone.process(pcm + bytes(2 * SAMPLE_RATE))
    return texts, early


@pytestmark_audio
@pytest.mark.audio
@pytest.mark.parametrize("voice_", VOICES)
def test_a_pause_inside_a_card_never_splits_it_into_a_wrong_action(
        recognizer: PocketSphinxRecognizer, voice_: tuple[str, int, int]) -> None:
    _, table = prompt_table("queen of hearts", 1)
    for first, second in (("queen", "of hearts"), ("queen of", "hearts")):
        texts, early = through_microphone(recognizer, table.phrases,
                                          with_pause(first, second, 0.4, voice_))
        assert texts == ["queen of hearts"], (first, texts)
        assert early.offered >= 2  # the pause inside was offered, and left open


@pytestmark_audio
@pytest.mark.audio
def test_a_whole_command_ends_at_the_short_pause_and_a_beginning_waits(
        recognizer: PocketSphinxRecognizer) -> None:
    _, table = prompt_table("exchange the marked cards", 1)
    texts, early = through_microphone(recognizer, table.phrases,
                                      with_pause("exchange the marked", "cards", 0.4, VOICES[0]))
    # the pause after "marked" left the utterance open; the one after "cards" ended it
    assert texts == ["exchange the marked cards"] and (early.offered, early.ended) == (2, 1)
    whole = spoken("exchange the marked cards", VOICES[0], None)[0].tobytes()
    texts, early = through_microphone(recognizer, table.phrases, whole)
    assert texts == ["exchange the marked cards"] and (early.offered, early.ended) == (1, 1)


@pytestmark_audio
@pytest.mark.audio
def test_the_same_audio_with_the_same_phrases_is_decoded_once(
        recognizer: PocketSphinxRecognizer) -> None:
    _, table = prompt_table("queen of hearts", 1)
    recognizer.set_phrases(table.phrases)
    pcm = spoken("queen of hearts", VOICES[1], None)[0].tobytes()
    first = recognizer.decode(pcm)
    again = recognizer.decode(pcm)
    assert again.text == first.text == "queen of hearts"
    assert again.decode_seconds < first.decode_seconds / 10
    recognizer.set_phrases((*table.phrases[:-1], "help me"))
    assert recognizer.decode(pcm).decode_seconds > again.decode_seconds * 10


class CountingRecognizer(FakeRecognizer):
    """Hears ``text`` in any audio, and counts the decodes."""

    name = "counting"

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.decodes = 0

    def decode(self, audio: bytes) -> Recognition:
        self.decodes += 1
        return heard(self.text)


def test_the_game_hears_a_whole_command_at_the_short_pause_decoded_once() -> None:
    session, out = make_session(seed=3)
    session.play_bots()
    recognizer = CountingRecognizer("bid three")
    voice_input = VoiceInput(session, recognizer, NoDevice())
    voice_input.start()
    try:
        voice_input.load_phrases()
        voice_input.microphone.process(silence(0.4) + voice(0.7) + silence(0.25))
        assert session.step(5.0)  # no more audio: the pause ended the utterance
        assert out.last().text.startswith("Bid three?")
        voice_input.microphone.process(silence(1.0))
        assert recognizer.decodes == 1 and voice_input.early_end.ended == 1
    finally:
        voice_input.stop()


def test_speech_resuming_within_the_hangover_an_early_end_cut_short_is_dropped() -> None:
    vad = VoiceActivityDetector()
    offered: list[int] = []
    vad.on_pause = lambda pcm, number: offered.append(number)
    vad.feed(silence(0.5) + voice(0.6) + silence(0.2))
    assert vad.end_at_pause(offered[-1]) is not None
    # "play ... it": the rest would have joined the utterance; alone it is no command
    assert vad.feed(silence(0.1) + voice(0.3) + silence(1.0)) == []
    assert len(vad.feed(voice(0.6) + silence(1.0))) == 1  # a later command is heard


def test_an_action_ending_in_a_short_word_waits_where_a_pause_may_have_cut_it() -> None:
    # "exchange ... ten of hearts": the pause after "exchange" was heard as "exchange
    # them" (fit 0.91), which gave the marked cards back unasked
    _, table = prompt_table("exchange ten of hearts", 1)
    phrases, meanings = table.phrases, table.meanings
    assert {"exchange them", "exchange ten of hearts", "exchange the marked cards"} <= set(phrases)
    assert cut_short("exchange them", phrases, meanings)
    assert not is_whole(heard("exchange them", 0.91), phrases, meanings=meanings)
    assert is_whole(heard("exchange the marked cards"), phrases, meanings=meanings)
    # a longer last word, a query, or a bid (always asked about) still ends early
    _, play = prompt_table("play the queen of hearts", 1)
    assert is_whole(heard("play the queen of hearts"), play.phrases, meanings=play.meanings)
    assert not cut_short("my hand", play.phrases, play.meanings)
    _, bid = prompt_table("bid two", 1)
    assert "bid three" in bid.phrases and not cut_short("bid two", bid.phrases, bid.meanings)
    # without meanings nothing is known to act: as before
    assert not cut_short("exchange them", phrases)


def test_bids_heard_where_a_bid_may_be_said_waits() -> None:
    # "bid ... nine": the pause after "bid" was heard as the query "bids" (fit 0.99)
    _, table = prompt_table("bid nine", 1)
    assert {"bids", "bid nine"} <= set(table.phrases)
    assert cut_short("bids", table.phrases, table.meanings)
    assert not is_whole(heard("bids", 0.99), table.phrases, meanings=table.meanings)
    assert is_whole(heard("bid nine"), table.phrases, meanings=table.meanings)
    _, play = prompt_table("play the queen of hearts", 1)
    assert not cut_short("bids", play.phrases, play.meanings)  # no bid to say there


def test_a_bid_which_is_asked_about_anyway_ends_early_at_a_lower_fit() -> None:
    _, table = prompt_table("i bid ten", 1)
    phrases, meanings = table.phrases, table.meanings
    loose = Recognition("i bid ten", 0.5, (("i bid ten", 1.0),), 1.0, 0.1)
    assert ASKED_MIN_FIT <= loose.fit < MIN_FIT
    assert is_whole(loose, phrases, meanings=meanings)
    assert not is_whole(loose, phrases)  # not known to be a bid
    too_loose = Recognition("i bid ten", ASKED_MIN_FIT - 0.05, (("i bid ten", 1.0),), 1.0, 0.1)
    assert not is_whole(too_loose, phrases, meanings=meanings)
    _, play = prompt_table("play the queen of hearts", 1)
    card = Recognition("play the queen of hearts", 0.5, (("play the queen of hearts", 1.0),),
                       1.0, 0.1)
    assert not is_whole(card, play.phrases, meanings=play.meanings)  # played unasked
