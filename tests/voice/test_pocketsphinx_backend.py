"""The PocketSphinx recognizer on real synthesized speech (espeak-ng + sox).

Nothing is mocked: each clip is spoken by espeak-ng, resampled to 16 kHz and
decoded. The bars are set a little below what was measured on this machine
(see the comments), so a different espeak-ng build does not break them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from voice_spades.engine import Card
from voice_spades.voice.lexicon import default_lexicon
from voice_spades.voice.recognizers.base import Recognition, Recognizer, load_phrases
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.recognizers.pocketsphinx_tuning import tuning_for
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.prompts import play_view, prompt_table
from voice_spades.voice.testing.testspeech import SpeechParams, silence, white_noise
from voice_spades.voice.understanding.grammar import build_phrases

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(not testspeech.tools_available(),
                                 reason="needs espeak-ng and sox to synthesize speech")]

VOICES = [("en-us", 150, 50), ("en-gb", 175, 40), ("en-us+f3", 130, 60), ("en+m3", 190, 50)]
CARDS = [f"{rank} of {suit}" for suit in ("spades", "hearts", "diamonds", "clubs")
         for rank in ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                      "jack", "queen", "king", "ace")]
COMMANDS = ["help", "what can i say", "repeat", "score", "what's on the table", "my hand",
            "whose turn is it"]
NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve", "thirteen")
BIDS = ["bid nil", *(f"bid {n}" for n in NUMBERS)]


@pytest.fixture(scope="module")
def recognizer() -> PocketSphinxRecognizer:
    return PocketSphinxRecognizer()


@pytest.fixture(scope="module")
def speech_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("speech")


Say = Callable[..., bytes]


def without_pronunciations(*words: str) -> PocketSphinxRecognizer:
    """A recognizer whose lexicon adds no pronunciation of ``words`` (of any word
    when none is named) to the dictionary's."""
    added = default_lexicon().pronunciations
    kept = {word: forms for word, forms in added.items() if words and word not in words}
    return PocketSphinxRecognizer(lexicon=replace(default_lexicon(), pronunciations=kept))


@pytest.fixture
def say(speech_cache: Path) -> Say:
    """Speak ``text`` in a (voice, speed, pitch), with noise, padded like a microphone clip."""
    def speak(text: str, voice: tuple[str, int, int] = VOICES[0], noise: float = 0.003,
              seed: int = 0) -> bytes:
        name, speed, pitch = voice
        params = SpeechParams(name, speed, pitch, noise=noise, pad_seconds=0.3, seed=seed)
        return testspeech.synthesize(text, params, speech_cache)
    return speak


def test_it_is_a_recognizer(recognizer: PocketSphinxRecognizer) -> None:
    assert isinstance(recognizer, Recognizer)
    assert recognizer.name == "pocketsphinx"


def test_phrases_in_several_voices_decode_to_themselves(recognizer: PocketSphinxRecognizer,
                                                        say: Say) -> None:
    phrases = ["queen of hearts", "ace of spades", "ten of clubs", "seven of diamonds",
               "bid four", "bid nil", "what's on the table", "my hand", "repeat",
               "what can i say"]
    recognizer.set_phrases(phrases)
    misses = []
    for phrase in phrases:
        for voice in VOICES:
            heard = recognizer.decode(say(phrase, voice))
            if heard.text != phrase:
                misses.append((phrase, voice, heard.text))
            else:
                assert 0.0 < heard.confidence <= 1.0
                assert heard.alternatives[0][0] == phrase
    # Measured: 40 of 40.
    assert len(misses) <= 1, misses


def test_noise_and_silence_are_rejected(recognizer: PocketSphinxRecognizer) -> None:
    recognizer.set_phrases(["queen of hearts", "bid four", "help", "yes", "no"])
    for level in (0.005, 0.02, 0.1):
        heard = recognizer.decode(white_noise(1.0, level, seed=3))
        assert heard.text is None and heard.reason, level
    assert recognizer.decode(silence(1.0)).text is None
    assert recognizer.decode(silence(0.05)).text is None
    assert recognizer.decode(b"").text is None


def test_speech_outside_the_phrases_is_rejected_or_doubted(recognizer: PocketSphinxRecognizer,
                                                          say: Say) -> None:
    recognizer.set_phrases(["queen of hearts", "ace of spades", "ten of clubs", "bid four",
                            "bid nil", "what's on the table", "my hand", "repeat",
                            "what can i say"])
    assert recognizer.decode(say("the weather is nice today")).confidence < 0.5
    sentences = ["the weather is nice today", "turn off the lights", "call my mother",
                 "good morning everyone", "i want pizza"]
    rejected, trusted = 0, []
    for sentence in sentences:
        for voice in VOICES:
            heard = recognizer.decode(say(sentence, voice))
            if heard.text is None:
                rejected += 1
            elif heard.confidence >= 0.5:
                trusted.append((sentence, voice[0], heard.text, round(heard.confidence, 2)))
    # Measured: 12 of 20 rejected; of the rest only two, both queries ("what can i
    # say"), came out with a confidence of 0.5 or more.
    assert rejected >= 10
    assert len(trusted) <= 5, trusted
    assert all(text in ("what can i say", "what's on the table") for *_, text, _ in trusted)


def test_switching_phrase_sets(recognizer: PocketSphinxRecognizer, say: Say) -> None:
    bidding = BIDS + COMMANDS
    playing = ["queen of hearts", "two of clubs", "ace of spades", *COMMANDS]
    bid_four = say("bid four", VOICES[1])
    queen = say("queen of hearts", VOICES[1])
    recognizer.set_phrases(bidding)
    assert recognizer.decode(bid_four).text == "bid four"
    recognizer.set_phrases(playing)
    assert recognizer.decode(queen).text == "queen of hearts"
    assert recognizer.decode(bid_four).text != "bid four"
    recognizer.set_phrases(bidding)
    assert recognizer.decode(bid_four).text == "bid four"


def test_the_callers_spelling_comes_back(recognizer: PocketSphinxRecognizer, say: Say) -> None:
    recognizer.set_phrases(["What\u2019s on the table?", "Queen of Hearts", "bid four"])
    assert recognizer.decode(say("what's on the table")).text == "What\u2019s on the table?"
    assert recognizer.decode(say("queen of hearts")).text == "Queen of Hearts"


def test_streaming_gives_the_same_answer(recognizer: PocketSphinxRecognizer, say: Say) -> None:
    recognizer.set_phrases(BIDS + COMMANDS)
    audio = say("bid seven", VOICES[2])
    whole = recognizer.decode(audio)
    recognizer.start()
    for offset in range(0, len(audio), 3200):
        recognizer.feed(audio[offset:offset + 3200])
    streamed = recognizer.finish()
    assert streamed.text == whole.text == "bid seven"
    assert streamed.audio_seconds == pytest.approx(len(audio) / 32000)


def test_unknown_words_are_reported_and_can_be_taught(recognizer: PocketSphinxRecognizer,
                                                      say: Say) -> None:
    recognizer.set_phrases(["queen of hearts", "blorptastic spades"])
    assert recognizer.unknown_words == ("blorptastic",)
    assert recognizer.dropped_phrases == ("blorptastic spades",)
    assert recognizer.decode(say("queen of hearts")).text == "queen of hearts"
    recognizer.add_pronunciation("blorptastic", "B L AO R P T AE S T IH K")
    recognizer.set_phrases(["queen of hearts", "blorptastic spades"])
    assert not recognizer.unknown_words
    assert recognizer.decode(say("blorptastic spades")).text == "blorptastic spades"


def test_nothing_allowed_rejects_everything(recognizer: PocketSphinxRecognizer, say: Say) -> None:
    recognizer.set_phrases([])
    heard = recognizer.decode(say("queen of hearts"))
    assert heard.text is None and heard.reason == "no phrases are allowed now"


def test_homophones_are_grouped_and_offered_together(recognizer: PocketSphinxRecognizer,
                                                     say: Say) -> None:
    recognizer.set_phrases(["four", "for", "help"])
    assert recognizer.homophones == (("four", "for"),)
    heard = recognizer.decode(say("four"))
    assert heard.text == "four"
    probabilities = dict(heard.alternatives)
    assert probabilities["four"] == pytest.approx(probabilities["for"])


@pytest.mark.slow
def test_measured_accuracy_on_game_prompts(recognizer: PocketSphinxRecognizer, say: Say) -> None:
    """40 clips: a 13-card hand or the bids, plus commands; six voices; some noise."""
    voices = [*VOICES, ("en-gb-x-rp", 140, 35), ("en", 160, 55)]
    rng = random.Random(7)
    right, wrong, rejected, latencies = 0, [], [], []
    for number in range(40):
        phrases = rng.sample(CARDS, 13) + COMMANDS if number % 2 == 0 else BIDS + COMMANDS
        phrase = rng.choice(phrases)
        noise = rng.choice([0.0005, 0.0005, 0.01, 0.02])
        recognizer.set_phrases(phrases)
        heard: Recognition = recognizer.decode(
            say(phrase, voices[number % len(voices)], noise, seed=number))
        latencies.append(heard.decode_seconds)
        if heard.text == phrase:
            right += 1
        elif heard.text is None:
            rejected.append(phrase)
        else:
            wrong.append((phrase, heard.text))
    # Measured: 38 right, 1 wrong, 1 rejected. How fast it decodes is a bench's
    # figure (voice-spades bench voice), not a test's: a loaded machine is slower.
    assert right >= 36, (wrong, rejected)
    assert len(wrong) <= 2, wrong
    assert all(seconds > 0 for seconds in latencies)


@pytest.mark.slow
def test_known_confusions_are_told_apart_or_offered(recognizer: PocketSphinxRecognizer,
                                                    say: Say) -> None:
    pairs = [("ace of spades", "eight of spades"), ("king of hearts", "ten of hearts"),
             ("bid seven", "bid eleven"), ("score", "bid four"), ("help", "bid twelve"),
             ("what can i say", "what can i play"), ("queen of clubs", "clean"),
             ("bid two", "two of hearts"), ("ten of clubs", "then")]
    right, misses = 0, []
    for first, second in pairs:
        recognizer.set_phrases([first, second, "my hand", "repeat"])
        for phrase in (first, second):
            for voice in VOICES:
                heard = recognizer.decode(say(phrase, voice))
                if heard.text == phrase:
                    right += 1
                    continue
                misses.append((phrase, voice[0], heard.text))
                # A confusion must leave the right phrase as a serious alternative,
                # so the game asks instead of acting.
                assert dict(heard.alternatives).get(phrase, 0.0) >= 0.2, (phrase, heard)
    # Measured: 70 of 72 (ace of spades heard as eight twice, each offered as the other).
    assert right >= 66, misses


def test_a_phone_loop_in_its_own_process_decides_the_same(recognizer: PocketSphinxRecognizer,
                                                         say: Say) -> None:
    # On by default (where there is a second core): compared with the loop run here.
    assert tuning_for("en").phone_loop_process and tuning_for("fr").phone_loop_process
    phrases = ["exchange the marked cards", "queen of hearts", "bid four", "repeat"]
    here = PocketSphinxRecognizer(replace(tuning_for("en"), phone_loop_process=False))
    try:
        for each in (here, recognizer):
            each.set_phrases(phrases)
        exchange = say("exchange the marked cards")
        clips = [say("queen of hearts"), say("the weather is nice today"), exchange,
                 white_noise(1.0, 0.1, seed=3)]
        for clip in clips:
            ours, theirs = here.decode(clip), recognizer.decode(clip)
            assert (ours.text, ours.confidence, ours.alternatives, ours.reason) == \
                (theirs.text, theirs.confidence, theirs.alternatives, theirs.reason)
        # The beginning of a phrase is left unfinished, and the next decode still works.
        assert recognizer.decode_unless_unfinished(exchange[:len(exchange) // 2 // 2 * 2]) \
            is None
        assert recognizer.decode(say("bid four")).text == "bid four"
    finally:
        here.close()


def test_the_lexicon_adds_non_rhotic_pronunciations(recognizer: PocketSphinxRecognizer,
                                                    say: Say) -> None:
    phrases = ["four", "score", "slower", "my cards", "four of hearts", "four of clubs",
               "start over", "bid four", "help", "read my hand"]
    plain = without_pronunciations()
    assert plain.pronunciations("hearts") == ["HH AA R T S"]
    assert recognizer.pronunciations("hearts") == ["HH AA R T S", "HH AA T S"]
    recognizer.set_phrases(phrases)
    plain.set_phrases(phrases)
    british = [("en-gb-x-rp", 150, 50), ("en-gb-x-rp", 175, 40), ("en", 160, 55)]
    # Measured: the US dictionary alone heard these British "score"s as "slower" or
    # "four"; with the lexicon's "S K AO" all three are right, the second by a hair
    # ("score" -2093 against "slower" -2098), which one full run of the suite saw
    # the other way: that one may go either way.
    heard = [recognizer.decode(say("score", voice)).text for voice in british]
    assert heard.count("score") >= 2
    assert [plain.decode(say("score", voice)).text for voice in british].count("score") == 0


def test_a_british_no_thanks_answers_a_question(recognizer: PocketSphinxRecognizer,
                                               say: Say) -> None:
    # British "thanks" has the open front "a" ("TH AA NG K S" in the lexicon); the US
    # dictionary's "TH AE NG K S" alone rejected every espeak-ng "en" and "en+m3"
    # "no thanks" (6 of 6, measured; 1 of these 3 since the winner is verified
    # alone), and the lexicon's form hears all of them.
    _, table = prompt_table("no thanks", seed=7)  # the question's grammar
    answers = list(table.phrases)
    plain = without_pronunciations()
    recognizer.set_phrases(answers)
    plain.set_phrases(answers)
    british = [("en", 130, 50), ("en", 160, 50), ("en+m3", 200, 50)]
    heard = [recognizer.decode(say("no thanks", voice)).text for voice in british]
    assert heard.count("no thanks") >= 2, heard
    assert [plain.decode(say("no thanks", voice)).text for voice in british] \
        .count("no thanks") < heard.count("no thanks")


def test_exchange_said_with_eh_fits_well_enough_to_act(recognizer: PocketSphinxRecognizer,
                                                      say: Say) -> None:
    # "EH K S CH EY N JH" beside the dictionary's "IH K S ...": measured, espeak-ng's
    # "en" and "en+m3" exchange phrases fitted at 0.86-0.99 (4 of 6 at 0.8 and more,
    # acted on without a question) against 0.00-0.95 (1 of 6) without it; since the
    # winner is verified alone, 4 of 6 against 3.
    _, table = prompt_table("exchange nothing", seed=3)  # the exchange prompt's grammar
    plain = without_pronunciations("exchange")
    recognizer.set_phrases(table.phrases)
    plain.set_phrases(table.phrases)
    clips = [say(phrase, (voice, 160, 50)) for voice in ("en", "en+m3")
             for phrase in ("exchange nothing", "no exchange", "exchange them")]
    sure = [heard.fit >= 0.8 for heard in map(recognizer.decode, clips)]
    plain_sure = [heard.fit >= 0.8 for heard in map(plain.decode, clips)]
    assert sum(sure) >= 3 and sum(plain_sure) < sum(sure), (sure, plain_sure)


def test_a_british_not_blind_fits(recognizer: PocketSphinxRecognizer, say: Say) -> None:
    # "N AO T" beside the dictionary's "N AA T": measured at 150 words a minute, the
    # four voices' "not blind" fitted at 0.33-0.74, above the floor under which a
    # blind nil decision is answered "say again" (0.25), where without it none was
    # heard at all. Since the winner is verified alone, all four fit with it (0.57-0.85)
    # and without it (0.21-0.38), but only with it as well as half way.
    _, table = prompt_table("not blind", seed=3)  # the blind nil decision's grammar
    plain = without_pronunciations("not")
    recognizer.set_phrases(table.phrases)
    plain.set_phrases(table.phrases)
    clips = [say("not blind", (voice, 150, 50))
             for voice in ("en", "en+m3", "en-029", "en-gb-scotland")]
    heard = [h.text == "not blind" and h.fit >= 0.5 for h in map(recognizer.decode, clips)]
    plain_heard = [h.text == "not blind" and h.fit >= 0.5 for h in map(plain.decode, clips)]
    assert sum(heard) >= 3 and sum(plain_heard) <= 1, (heard, plain_heard)


def test_a_british_goat_vowel_is_heard(recognizer: PocketSphinxRecognizer, say: Say) -> None:
    # The lexicon's "AH UW" forms of "slower", "over", "lowest", "nope" (British [əʊ]):
    # measured, espeak-ng's RP voice said these six and all six were heard, against
    # none with the US "OW" alone (rejected, or "start a new game", "play highest
    # diamond", "no"); since the winner is verified alone, 3 of them without it.
    added = default_lexicon().pronunciations
    us_goat = {word: tuple(form for form in forms if "AH UW" not in form)
               for word, forms in added.items()}
    plain = PocketSphinxRecognizer(lexicon=replace(default_lexicon(), pronunciations=us_goat))
    said = [("talk slower", 170), ("talk slower", 200), ("start over", 130),
            ("start over", 170), ("lowest diamond", 200), ("nope", 200)]
    heard: list[bool] = []
    plain_heard: list[bool] = []
    for phrase, speed in said:
        _, table = prompt_table(phrase, seed=3)  # the phrase's own prompt
        clip = say(phrase, ("en-gb-x-rp", speed, 50))
        for rec, into in ((recognizer, heard), (plain, plain_heard)):
            rec.set_phrases(table.phrases)
            into.append(rec.decode(clip).text == phrase)
    assert sum(heard) >= 4 and sum(plain_heard) < sum(heard), (heard, plain_heard)


def test_a_scottish_sure_answers_a_question(recognizer: PocketSphinxRecognizer,
                                            say: Say) -> None:
    # Scottish "sure" has the vowel of "shoe" ("SH UW R" in the lexicon); without it
    # espeak-ng's Scottish voice was rejected or heard as "no" (measured; 2 of these 3
    # since the winner is verified alone).
    _, table = prompt_table("sure", seed=7)  # the question's grammar
    plain = without_pronunciations("sure")
    recognizer.set_phrases(table.phrases)
    plain.set_phrases(table.phrases)
    clips = [say("sure", ("en-gb-scotland", speed, 50)) for speed in (130, 170, 200)]
    heard = [recognizer.decode(clip).text for clip in clips]
    plain_heard = [plain.decode(clip).text for clip in clips]
    assert heard.count("sure") >= 2 and plain_heard.count("sure") < heard.count("sure"), \
        (heard, plain_heard)


def test_the_runner_up_of_a_card_is_another_card_not_another_wording(
        recognizer: PocketSphinxRecognizer, say: Say) -> None:
    # "play jack of clubs" was played unasked as "play five of clubs" while the
    # runner-up weighed against it was "play the five of clubs": the same card.
    assert recognizer.tuning.other_meanings
    rng = random.Random(11)
    for number, card in enumerate(("JC", "5H", "QS")):
        table = build_phrases(play_view(rng, Card.parse(card)), confirming=False,
                              cursor=None)
        load_phrases(recognizer, table.phrases, [table.meanings[p] for p in table.phrases])
        heard = recognizer.decode(say(f"play the {table_name(card)}", VOICES[number]))
        assert heard.text is not None and len(heard.alternatives) >= 2, heard
        winner, second = (table.meanings[a] for a, _ in heard.alternatives[:2])
        assert winner != second, heard.alternatives


def table_name(card: str) -> str:
    ranks = {"J": "jack", "5": "five", "Q": "queen"}
    suits = {"C": "clubs", "H": "hearts", "S": "spades"}
    return f"{ranks[card[0]]} of {suits[card[1]]}"
