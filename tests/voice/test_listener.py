"""Voice input in a session: phrases follow the game, utterances become intents."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import pytest

from tests.session.fakes import RecordingOutput, make_session
from tests.voice.synthetic import noise, silence, voice
from tests.voice.wording import raises_saying, said
from voice_spades.app import bind_listen_key, build_parser, start_voice_input
from voice_spades.commands import Act, Ask, Command, Control, NotUnderstood, Propose, Query
from voice_spades.engine import Bid
from voice_spades.errors import SetupError
from voice_spades.keys import load_keymap
from voice_spades.session import Session
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.base import SpeakingCallback
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.voice import listener
from voice_spades.voice.audio.microphone import MIC_FAILED, NO_MICROPHONE, Microphone
from voice_spades.voice.listener import VoiceInput, VoiceOptions, voice_help
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.testing.testspeech import synthesize, tools_available
from voice_spades.voice.understanding.confirmation import ConfirmationPolicy


class FakeRecognizer:
    """Answers each decode with the next text of ``script`` (None: rejected)."""

    name = "fake"

    def __init__(self, *script: str | None) -> None:
        self.script = list(script)
        self.loaded: list[list[str]] = []

    def set_phrases(self, phrases: Sequence[str]) -> None:
        self.loaded.append(list(phrases))

    def decode(self, audio: bytes) -> Recognition:
        text = self.script.pop(0)
        if text is None:
            return Recognition(None, 0.0, (), 1.0, 0.01, "not one of the allowed phrases")
        return Recognition(text, 0.95, ((text, 0.95),), 1.0, 0.01)

    def start(self) -> None:
        pass

    def feed(self, chunk: bytes) -> None:
        pass

    def finish(self) -> Recognition:
        return self.decode(b"")


class NoDevice(Microphone):
    """The real gate and detector, without opening a device."""

    def start(self) -> None:
        pass


class FailingDevice(Microphone):
    def start(self) -> None:
        raise SetupError(NO_MICROPHONE)


class FakeSpeaker:
    def __init__(self) -> None:
        self.callbacks: list[SpeakingCallback] = []

    def on_speaking_changed(self, callback: SpeakingCallback) -> None:
        self.callbacks.append(callback)

    def is_speaking(self) -> bool:
        return False


WORD = silence(0.4) + voice(0.7) + silence(1.0)


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def at_my_bid(seed: int = 3) -> tuple[Session, RecordingOutput]:
    session, out = make_session(seed=seed)
    session.play_bots()
    assert session.view.is_my_turn and session.view.phase == "bid"
    return session, out


def started(session: Session, recognizer: FakeRecognizer, mode: str = "open",
            **options: object) -> VoiceInput:
    voice_input = VoiceInput(session, recognizer, NoDevice(mode=mode),
                             **options)  # type: ignore[arg-type]
    voice_input.start()
    return voice_input


def test_the_phrases_loaded_are_what_can_be_said_now() -> None:
    session, _ = at_my_bid()
    recognizer = FakeRecognizer()
    voice_input = started(session, recognizer)
    try:
        eventually(lambda: bool(recognizer.loaded))
        assert "bid three" in recognizer.loaded[-1]
        assert "yes" not in recognizer.loaded[-1]
        session.handle(Act(Bid(3)))
        session.play_bots()
        eventually(lambda: "bid three" not in recognizer.loaded[-1])
        view = session.view
        assert view.phase == "play"
        table = voice_input.load_phrases()
        assert table.phase == "play"
        assert {f"{card.name}" for card in view.hand_cards} <= set(recognizer.loaded[-1])
    finally:
        voice_input.stop()


def test_a_spoken_bid_is_asked_about_then_made_on_yes() -> None:
    session, out = at_my_bid()
    voice_input = started(session, FakeRecognizer("bid three", "yes"))
    try:
        voice_input.microphone.process(WORD)
        assert session.step(5.0)
        assert out.last().text.startswith("Bid three?")
        voice_input.microphone.process(WORD)
        assert session.step(5.0)
        assert "You bid 3." in out.texts
    finally:
        voice_input.stop()


def test_without_bid_confirmation_a_spoken_bid_is_made_at_once() -> None:
    session, out = at_my_bid()
    # ("bid three" would still be asked about: "thirteen" is a likely confusion)
    voice_input = started(session, FakeRecognizer("bid two"),
                          policy=ConfirmationPolicy(confirm_bids=False))
    try:
        voice_input.hear(WORD)
        assert session.step(5.0)
        assert "You bid 2." in out.texts
    finally:
        voice_input.stop()


def test_speech_outside_the_phrases_is_not_understood_but_noise_is_ignored() -> None:
    session, _ = at_my_bid()
    voice_input = VoiceInput(session, FakeRecognizer(None, None), NoDevice())
    assert voice_input.interpret(WORD) == NotUnderstood(None)
    assert voice_input.interpret(noise(1.0, rms=2000)) is None


def test_untrained_voice_says_once_after_the_third_say_again_how_to_train_it() -> None:
    for suggest in (True, False):
        session, out = at_my_bid()
        voice_input = started(session, FakeRecognizer(*[None] * 5))
        voice_input.suggest_training = suggest
        try:
            for _ in range(5):
                voice_input.hear(WORD)
                assert session.step(5.0)
            sorry = [i for i, text in enumerate(out.texts) if text == "Sorry, say again."]
            hints = [i for i, text in enumerate(out.texts) if "voice-spades train-voice" in text]
            assert len(sorry) == 5
            if suggest:
                assert hints == [sorry[2] + 1], out.texts[-8:]
                assert out.texts[hints[0]].startswith("Voice input is not trained to your voice")
            else:
                assert hints == []
        finally:
            voice_input.stop()


def test_the_narrator_mutes_the_microphone() -> None:
    session, _ = at_my_bid()
    speaker = FakeSpeaker()
    voice_input = VoiceInput(session, FakeRecognizer(), NoDevice())
    voice_input.start(speaker)  # type: ignore[arg-type]
    try:
        [callback] = speaker.callbacks
        callback(True)
        assert voice_input.microphone.muted
        callback(False)
        assert voice_input.microphone.muted  # the short tail
        eventually(lambda: not voice_input.microphone.muted)
    finally:
        voice_input.stop()


def test_the_listen_key_starts_push_to_talk_and_help_says_how() -> None:
    session, out = at_my_bid()
    voice_input = started(session, FakeRecognizer(), mode="push", listen_key="Space")
    try:
        assert not voice_input.microphone.listening
        session.handle(Command(Control.LISTEN))
        assert voice_input.microphone.listening
        session.handle(Ask(Query.WHAT_CAN_I_SAY))
        help_line = out.last()
        assert help_line.message_id == "help.voice"
        assert help_line.text.startswith("Press Space, then speak. Say your bid")
    finally:
        voice_input.stop()
    assert session.listen is None and session.voice_help is None and not session.listeners


def test_help_follows_the_prompt() -> None:
    session, _ = at_my_bid()
    context = session.context()
    assert "Say your bid" in said(voice_help(context))
    session.handle(Propose(Act(Bid(3)), "Bid three?"))
    assert said(voice_help(session.context())).startswith('Say "yes" or "no".')


def test_a_microphone_that_cannot_start_leaves_nothing_plugged_in() -> None:
    session, _ = at_my_bid()
    voice_input = VoiceInput(session, FakeRecognizer(), FailingDevice())
    with pytest.raises(SetupError):
        voice_input.start()
    assert session.listen is None and not session.listeners


def test_a_microphone_that_dies_mid_game_is_reported() -> None:
    session, out = at_my_bid()
    voice_input = started(session, FakeRecognizer())
    try:
        assert voice_input.microphone.on_error is not None
        voice_input.microphone.on_error(SetupError(MIC_FAILED))
        assert out.last().message_id == "voice.lost"
        assert session.listen is None
    finally:
        voice_input.stop()


def test_start_voice_needs_a_microphone(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_microphone(device: object = None) -> None:
        raise SetupError(NO_MICROPHONE)

    monkeypatch.setattr(listener, "probe", no_microphone)
    session, _ = at_my_bid()
    with raises_saying(SetupError, "No microphone"):
        listener.start_voice(session, None, VoiceOptions())
    assert not session.listeners


def test_the_app_says_why_voice_is_off_and_binds_space_for_push_to_talk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_microphone(device: object = None) -> None:
        raise SetupError(NO_MICROPHONE)

    monkeypatch.setattr(listener, "probe", no_microphone)
    session, _ = at_my_bid()
    output = AnnouncerOutput(Announcer())
    keymap = load_keymap()
    off = start_voice_input(build_parser().parse_args(["--no-voice"]), session, output, keymap)
    assert off == (None, [])
    args = build_parser().parse_args(["--push-to-talk"])
    voice_input, [notice] = start_voice_input(args, session, output, keymap)
    assert voice_input is None
    assert said(notice) == "No microphone was found, so voice is off; use the keyboard."
    assert keymap.action_for("space") == "listen"
    assert bind_listen_key(keymap) == "Space"


@pytest.mark.audio
@pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")
def test_spoken_words_through_the_gate_and_pocketsphinx_reach_the_session() -> None:
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    session, out = at_my_bid()
    voice_input = VoiceInput(session, PocketSphinxRecognizer(), NoDevice())
    voice_input.start()
    try:
        for phrase, expected in (("bid three", "Bid three?"), ("yes", "You bid 3.")):
            voice_input.microphone.process(silence(0.5) + synthesize(phrase) + silence(1.0))
            assert session.step(10.0)
            assert any(text.startswith(expected) for text in out.texts), out.texts[-3:]
    finally:
        voice_input.stop()
