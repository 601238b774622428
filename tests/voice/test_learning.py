"""Learning the player's voice as they play: which utterances teach it, the training
learnt from real speech and used at once, and the listener handing over only commands
carried out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.session.fakes import RecordingOutput
from tests.voice.synthetic import noise, silence
from tests.voice.test_listener import WORD, FakeRecognizer, NoDevice, at_my_bid, started
from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    NotUnderstood,
    Propose,
    Query,
)
from voice_spades.engine import Bid, Card
from voice_spades.messages import Message
from voice_spades.storage.paths import data_paths
from voice_spades.voice import listener
from voice_spades.voice.adaptation.trained_means import load_trained_means
from voice_spades.voice.learning import IF_CONFIRMED, NOW, PlayLearning, teaches
from voice_spades.voice.listener import VoiceInput, VoiceOptions
from voice_spades.voice.testing.testspeech import SpeechParams, synthesize, tools_available
from voice_spades.voice.understanding.grammar import build_phrases

PHRASES = ("bid three", "queen of hearts", "play my lowest club", "keep it", "discard",
           "two of spades", "no blind nil", "exchange nothing")


def test_what_is_carried_out_as_heard_or_confirmed_teaches() -> None:
    session, _ = at_my_bid()
    table = build_phrases(session.view, confirming=False, cursor=None)
    legal = Act(Bid(3))
    assert legal in table.legal
    assert teaches(legal, table) == NOW
    assert teaches(Act(Card.parse("QH")), table) is None  # not a bid: refused, not taught
    assert teaches(Propose(legal, Message("voice.confirm.bid", number="three")),
                   table) == IF_CONFIRMED
    assert teaches(Propose(Command(Control.SAVE_AND_QUIT), Message("voice.confirm.quit")),
                   table) is None
    assert teaches(Ask(Query.SCORES), table) == NOW  # a query is carried out as heard
    assert teaches(Command(Control.REPEAT), table) is None
    assert teaches(NotUnderstood("bid three"), table) is None
    assert teaches(Confirm(True), table) == NOW  # an answer is carried out as heard
    assert teaches(Confirm(False), table) == NOW
    assert teaches(Cancel(), table) == NOW


class Taught:
    """Stands in for :class:`PlayLearning` in the listener: what it was handed."""

    def __init__(self) -> None:
        self.phrases: list[str] = []

    def heard(self, phrase: str, pcm: bytes) -> None:
        self.phrases.append(phrase)

    def close(self) -> None:
        pass


def taught_by(*script: tuple[str, bool]) -> list[str]:
    """What the listener teaches, at the bid prompt, from ``script``: each utterance's
    text and whether it began over the game's sound, submitted to the session in turn."""
    session, _ = at_my_bid()
    voice_input = VoiceInput(session, FakeRecognizer(*(text for text, _ in script)),
                             NoDevice())
    taught = Taught()
    voice_input.learning = taught  # type: ignore[assignment]
    for _, over_game in script:
        decided = voice_input.interpret(WORD, over_game)
        assert decided is not None
        session.submit(decided)
        assert session.step(5.0)
        voice_input.context_changed(session.context())
    return taught.phrases


def test_the_listener_teaches_what_it_carried_out_and_nothing_over_the_game(
        ) -> None:
    assert taught_by(("bid three", False)) == []  # asked: not yet
    assert taught_by(("bid three", False), ("yes", False)) == ["bid three", "yes"]
    assert taught_by(("bid three", False), ("no", False)) == ["no"]  # the answer only
    assert taught_by(("bid three", True), ("yes", False)) == ["yes"]  # over the narrator
    assert taught_by(("bid three", False), ("yes", True)) == ["bid three"]
    assert taught_by(("what is the score", False)) == ["what is the score"]
    assert taught_by(("what is the score", True)) == []
    assert taught_by(("bid three", False), ("what is the score", False), ("yes", False)) \
        == ["what is the score", "bid three", "yes"]


def test_start_voice_learns_only_while_pocketsphinx_is_untrained(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(listener, "probe", lambda device=None: None)
    monkeypatch.setattr(listener, "Microphone", lambda *args, **kwargs: NoDevice())
    paths = data_paths(tmp_path)
    options = VoiceOptions(recognizer="pocketsphinx", paths=paths, echo_cancellation=False)
    session, _ = at_my_bid()
    voice_input, _ = listener.start_voice(session, None, options)
    try:
        assert voice_input.learning is not None and voice_input.suggest_training
        assert voice_input.learning.save_to == paths.voice_training_file("en")
    finally:
        voice_input.stop()
    session, _ = at_my_bid()
    voice_input, _ = listener.start_voice(session, None, VoiceOptions(
        recognizer="pocketsphinx", echo_cancellation=False))
    try:
        assert voice_input.learning is None and not voice_input.suggest_training
    finally:
        voice_input.stop()


@pytest.mark.audio
@pytest.mark.slow
@pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")
def test_the_voice_is_learnt_from_spoken_commands_saved_and_heard_with_at_once(
        tmp_path: Path) -> None:
    from voice_spades.voice.recognizers.pocketsphinx_decoders import builtin_model_dir
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    recognizer = PocketSphinxRecognizer()
    recognizer.set_phrases(PHRASES)
    save_to = tmp_path / "voice-training-en.means"
    learnt: list[int] = []
    learning = PlayLearning(recognizer, save_to, learnt.append, at=(4, 8))
    voice = SpeechParams(voice="en-us+f3")
    learning.heard("queen of hearts", noise(1.0, rms=2000))  # not speech: not counted
    for phrase in PHRASES[:4]:
        learning.heard(phrase, synthesize(phrase, voice))
    learning.join(timeout=120)
    # the first count is used at once, but kept only while the game lasts
    assert learning.heard_count == 4 and not learning.done and learnt == []
    assert recognizer.adaptation == learning.partial and not save_to.exists()
    for phrase in PHRASES[4:]:
        learning.heard(phrase, synthesize(phrase, voice))
    learning.join(timeout=120)
    assert learnt == [8] and learning.heard_count == 8 and learning.done
    assert load_trained_means(save_to, builtin_model_dir() / "en-us") is not None
    assert recognizer.adaptation == save_to and not learning.partial.exists()
    learning.heard("bid three", synthesize("bid three", voice))  # learnt: no more
    learning.join(timeout=10)
    assert learning.heard_count == 8
    heard = recognizer.decode(synthesize("play my lowest club", voice))
    assert heard.text == "play my lowest club"  # the phrases stayed loaded
    recognizer.close()


@pytest.mark.audio
@pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")
def test_a_game_that_ends_before_the_last_count_leaves_no_training(tmp_path: Path) -> None:
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    recognizer = PocketSphinxRecognizer()
    save_to = tmp_path / "voice-training-en.means"
    learning = PlayLearning(recognizer, save_to, at=(2, 24))
    for phrase in PHRASES[:2]:
        learning.heard(phrase, synthesize(phrase, SpeechParams(voice="en-us")))
    learning.join(timeout=120)
    assert learning.partial.exists() and recognizer.adaptation == learning.partial
    learning.close()
    assert not learning.partial.exists() and not save_to.exists()
    recognizer.close()


def test_what_was_learnt_is_said_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    session, out = at_my_bid()
    voice_input = started(session, FakeRecognizer())
    voice_input.suggest_training = True
    try:
        listener._learnt(voice_input, 24)
        assert not voice_input.suggest_training
        assert isinstance(out, RecordingOutput)
        assert out.texts[-1].startswith("Voice input has learnt your voice from 24 of your "
                                        "commands")
    finally:
        voice_input.stop()


@pytest.mark.audio
@pytest.mark.slow
@pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")
def test_a_game_said_aloud_teaches_the_voice_through_the_microphone(tmp_path: Path) -> None:
    """The listener with real PocketSphinx, speech through the microphone's gate: a bid
    confirmed with a yes, the yes and a card played teach it; the voice is then learnt."""
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    session, out = at_my_bid()
    recognizer = PocketSphinxRecognizer()
    voice_input = VoiceInput(session, recognizer, NoDevice())
    learnt: list[int] = []
    voice_input.learning = PlayLearning(recognizer, tmp_path / "voice.means", learnt.append,
                                        at=(3,))
    voice_input.start()
    voice = SpeechParams(voice="en-us")

    def say(phrase: str) -> None:
        voice_input.microphone.process(silence(0.5) + synthesize(phrase, voice) + silence(1.0))
        assert session.step(10.0)

    try:
        say("bid three")
        say("yes")
        assert "You bid 3." in out.texts
        session.play_bots()
        view = session.view
        assert view.phase == "play" and view.is_my_turn
        card = view.legal[0]
        say(f"play the {card.name}")
        assert session.view.hand & card.bit == 0, out.texts[-3:]
        voice_input.learning.join(timeout=120)
        assert learnt == [3] and recognizer.adaptation == tmp_path / "voice.means"
    finally:
        voice_input.stop()
