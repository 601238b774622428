"""Voice training as the player meets it: the game asks for each phrase, asks again
for one it did not catch, skips one it never catches, saves the transform only when
enough was heard, stops when told; the game then uses it, and a damaged one is moved
aside with one message. Real espeak-ng speech, real PocketSphinx."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from voice_spades.messages import Message
from voice_spades.narration import render_message
from voice_spades.storage.paths import data_paths
from voice_spades.training_command import main as train_voice
from voice_spades.voice.adaptation.acoustic_model import AcousticModel
from voice_spades.voice.adaptation.enrollment import Enrollment, script
from voice_spades.voice.adaptation.trained_means import (
    load_trained_means,
    save_trained_means,
)
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.listener import voice_training
from voice_spades.voice.recognizers.pocketsphinx_decoders import builtin_model_dir
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.testspeech import SpeechParams
from voice_spades.voice.training import MIN_HEARD, TRIES, train

MODEL = builtin_model_dir() / "en-us"
needs_speech = pytest.mark.skipif(not testspeech.tools_available(),
                                  reason="needs espeak-ng and sox")


class Player:
    """Says back what the game asked for, but never one of ``never`` and not the first
    time one of ``once`` is asked for (nothing is heard then)."""

    def __init__(self, never: frozenset[str] = frozenset(), once: frozenset[str] = frozenset(),
                 stop_after: int | None = None) -> None:
        self.said: list[Message] = []
        self.never = never
        self.once = set(once)
        self.stop_after = stop_after
        self.tries = 0

    def say(self, message: Message) -> None:
        self.said.append(message)
        assert render_message(message)  # every message renders in the catalog

    def listen(self, seconds: float) -> bytes | None:
        assert seconds > 0
        asked = next(m for m in reversed(self.said) if m.id in ("voice.training.say",
                                                                 "voice.training.again"))
        phrase = asked.fields["phrase"]
        self.tries += 1
        if phrase in self.never or phrase in self.once:
            self.once.discard(phrase)
            return None
        return testspeech.synthesize(phrase, SpeechParams(
            voice="en-us+f3", pad_seconds=0.3, noise=0.0005, seed=self.tries))

    def stopped(self) -> bool:
        return self.stop_after is not None and self.tries >= self.stop_after


def _ids(player: Player) -> list[str]:
    return [m.id for m in player.said]


@needs_speech
def test_a_training_asks_again_skips_and_saves(tmp_path: Path) -> None:
    phrases = script(lexicon_for("en"))[:10]
    player = Player(never=frozenset({phrases[4]}), once=frozenset({phrases[1]}))
    path = tmp_path / "voice-training-en.means"
    result = train(Enrollment(PocketSphinxRecognizer()), phrases, path, player.say,
                   player.listen)
    ids = _ids(player)
    assert ids[0] == "voice.training.intro" and ids[-2:] == ["voice.training.learning",
                                                              "voice.training.done"]
    assert ids[1:5] == ["voice.training.say", "voice.training.say", "voice.training.again",
                        "voice.training.say"]
    asked_for = [m.fields["phrase"] for m in player.said if "phrase" in m.fields]
    assert asked_for.count(phrases[4]) == TRIES
    assert ids.count("voice.training.skipped") >= 1
    assert result.asked == 10 and MIN_HEARD <= result.heard <= 9
    assert result.saved == path
    trained = load_trained_means(path, MODEL)
    assert trained is not None
    assert np.abs(trained - AcousticModel.read(MODEL).means).max() > 0.1


@needs_speech
def test_too_little_heard_saves_nothing(tmp_path: Path) -> None:
    phrases = script(lexicon_for("en"))[:MIN_HEARD]
    player = Player(never=frozenset(phrases[:1]))  # the first phrase is skipped: one too few
    path = tmp_path / "voice.means"
    result = train(Enrollment(PocketSphinxRecognizer()), phrases, path, player.say,
                   player.listen)
    assert result.saved is None and result.heard == MIN_HEARD - 1
    assert _ids(player)[-1] == "voice.training.too_few"
    assert not path.exists()


@needs_speech
def test_stopping_keeps_what_was_read(tmp_path: Path) -> None:
    player = Player(stop_after=MIN_HEARD + 2)
    path = tmp_path / "voice.means"
    phrases = script(lexicon_for("en"))
    result = train(Enrollment(PocketSphinxRecognizer()), phrases, path,
                   player.say, player.listen, player.stopped)
    assert MIN_HEARD <= result.heard <= result.asked <= MIN_HEARD + 2 < len(phrases)
    assert result.saved == path and load_trained_means(path, MODEL) is not None
    assert _ids(player)[-1] == "voice.training.done"


def test_the_game_uses_a_training_and_sets_a_damaged_one_aside(tmp_path: Path) -> None:
    paths = data_paths(tmp_path)
    assert voice_training(None, "en") == (None, None)
    assert voice_training(paths, "en") == (None, None)
    save_trained_means(paths.voice_training_file("en"), AcousticModel.read(MODEL).means)
    assert voice_training(paths, "en") == (paths.voice_training_file("en"), None)
    assert voice_training(paths, "it") == (None, None)
    paths.voice_training_file("en").write_bytes(b"s3\nendhdr\n garbage")
    used, problem = voice_training(paths, "en")
    assert used is None and problem is not None
    assert problem.id == "voice.training.set_aside"
    assert not paths.voice_training_file("en").exists()
    said = render_message(problem)
    assert "damaged" in said and "voice-spades train-voice" in said


@needs_speech
def test_a_game_on_a_trained_voice_decodes_with_it(tmp_path: Path) -> None:
    """The recognizer is given the training file and hears with it (test_adaptation_files
    shows means read by PocketSphinx change its scores)."""
    from voice_spades.voice.recognizers.choice import choose_recognizer

    path = tmp_path / "voice.means"
    save_trained_means(path, AcousticModel.read(MODEL).means)
    recognizer, _ = choose_recognizer("pocketsphinx", language="en", adaptation=path)
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert recognizer.adaptation == path
    recognizer.set_phrases(["yes", "no", "what is the score"])
    heard = recognizer.decode(testspeech.synthesize("what is the score",
                                                    SpeechParams(pad_seconds=0.3)))
    assert heard.text == "what is the score"


def test_forget_deletes_the_training(tmp_path: Path) -> None:
    save_trained_means(data_paths(tmp_path).voice_training_file("en"),
                       AcousticModel.read(MODEL).means)
    out = io.StringIO()
    assert train_voice(["--forget", "--data-dir", str(tmp_path)], out) == 0
    assert not data_paths(tmp_path).voice_training_file("en").exists()
    assert train_voice(["--forget", "--data-dir", str(tmp_path)], out) == 0
    first, second = out.getvalue().splitlines()
    assert "forgotten" in first and "no voice training" in second


def test_training_without_the_microphone_says_how_to_get_one(tmp_path: Path) -> None:
    """The game's "voice is off; use the keyboard" would be no way forward here: the
    player is told that training needs a microphone and how to name one."""
    from voice_spades.errors import SetupError
    from voice_spades.voice.audio.device import load_sounddevice

    try:
        load_sounddevice()
    except SetupError:
        pytest.skip("PortAudio cannot be loaded here: the message would be about it")
    out = io.StringIO()
    code = train_voice(["--no-speech", "--mic-device", "no-such-microphone-here",
                        "--data-dir", str(tmp_path)], out)
    said = out.getvalue()
    assert code == 2
    assert "no-such-microphone-here" in said and "`--mic-device`" in said
    assert "`voice-spades train-voice` again" in said and "keyboard" not in said
    assert not data_paths(tmp_path).voice_training_file("en").exists()
