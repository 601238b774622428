"""Keeping or discarding the drawn card, the blind nil exchange and going to sleep are
asked about unless the words were clear; "Stop listening?" answered yes puts voice to
sleep."""

from __future__ import annotations

import pytest

from tests.session.fakes import make_session
from tests.voice.test_listener import WORD, NoDevice, at_my_bid, eventually
from tests.voice.wording import said
from voice_spades.commands import Act, Command, Confirm, Control, Propose
from voice_spades.engine import BlindNilChoice, DrawChoice, Exchange, Match, Phase, profile
from voice_spades.voice.lexicon import LANGUAGES, lexicon_for
from voice_spades.voice.listener import VoiceInput
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.understanding.confirmation import understand
from voice_spades.voice.understanding.grammar import PhraseTable, build_phrases
from voice_spades.voice.understanding.irreversible import CLEAR_BAR

SLEEP_CONFIDENCE = CLEAR_BAR


def heard(text: str, confidence: float, share: float | None = None) -> Recognition:
    """``text`` heard at ``confidence``, with ``share`` of the alternatives (fit =
    confidence / share)."""
    return Recognition(text, confidence, ((text, share or confidence),), 1.0, 0.01)


def draw_table(language: str = "en") -> PhraseTable:
    match = Match(profile("two-player"), seed=1)
    while match.view(0).phase == Phase.BLIND_NIL:
        match.apply(BlindNilChoice(False))
    assert match.to_act is not None and match.view(match.to_act).phase == Phase.DRAW
    # The draw is asked as a question ("Keep the five of hearts?"): answers are listened for.
    return build_phrases(match.view(match.to_act), confirming=True, cursor=None,
                         lexicon=lexicon_for(language))


def exchange_table() -> PhraseTable:
    match = Match(profile("two-player"), seed=1)
    match.apply(BlindNilChoice(True))
    while match.to_act is not None and match.view(match.to_act).phase != Phase.EXCHANGE:
        view = match.view(match.to_act)
        match.apply(view.legal[0])
    assert match.to_act is not None
    view = match.view(match.to_act)
    assert view.phase == Phase.EXCHANGE and view.is_my_turn
    return build_phrases(view, confirming=False, cursor=view.hand_cards[0])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_draw_said_aloud_is_always_asked_about(language: str) -> None:
    lexicon = lexicon_for(language)
    table = draw_table(language)
    for key, keep in (("keep", True), ("discard", False)):
        for phrase in lexicon.actions[key]:
            decided = understand(heard(phrase, 1.0), table, lexicon=lexicon)
            assert isinstance(decided, Propose), (phrase, decided)
            assert decided.intent == Act(DrawChoice(keep))
    # The draw's own question still takes a plain yes or no at once.
    yes = lexicon.answers["yes"][0]
    assert understand(heard(yes, 1.0), table, lexicon=lexicon) == Confirm(True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_asks_before_sleeping_on_an_unclear_sleep_word(language: str) -> None:
    lexicon = lexicon_for(language)
    bar = CLEAR_BAR
    sleep = lexicon.listening["sleep"][0]
    session, _ = at_my_bid()
    voice_input = VoiceInput(session, Scripted((sleep, bar - 0.1)),  # type: ignore[arg-type]
                             NoDevice(mode="open"), lexicon=lexicon)
    voice_input.start()
    try:
        proposed = voice_input.interpret(WORD)
        assert isinstance(proposed, Propose) and proposed.intent == Command(Control.SLEEP)
        assert not voice_input.asleep
    finally:
        voice_input.stop()


def test_the_exchange_said_aloud_is_always_asked_about() -> None:
    table = exchange_table()
    marked = table.intent("exchange the marked cards")
    assert marked is not None
    for phrase, intent in (("no exchange", Act(Exchange())), ("keep all my cards", Act(Exchange())),
                           ("exchange the marked cards", marked), ("done", marked)):
        decided = understand(heard(phrase, 1.0), table)
        assert isinstance(decided, Propose) and decided.intent == intent, (phrase, decided)
    # Marking a card can be undone: it is not asked about.
    assert not isinstance(understand(heard("mark the " + "ace of spades", 1.0), table), Propose)


class Scripted:
    """A recognizer answering each utterance with the next (text, confidence)."""

    name = "scripted"

    def __init__(self, *script: tuple[str, float]) -> None:
        self.script = list(script)

    def set_phrases(self, phrases: object) -> None:
        pass

    def decode(self, audio: bytes) -> Recognition:
        text, confidence = self.script.pop(0)
        return Recognition(text, confidence, ((text, confidence),), 1.0, 0.01)

    def start(self) -> None:
        pass

    def feed(self, chunk: bytes) -> None:
        pass

    def finish(self) -> Recognition:
        return self.decode(b"")


def test_stop_listening_heard_unclearly_is_asked_and_yes_puts_voice_to_sleep() -> None:
    session, out = at_my_bid()
    recognizer = Scripted(("stop listening", SLEEP_CONFIDENCE - 0.1),
                          ("stop listening", 0.99))
    voice_input = VoiceInput(session, recognizer, NoDevice(mode="open"))  # type: ignore[arg-type]
    voice_input.start()
    try:
        proposed = voice_input.interpret(WORD)
        assert isinstance(proposed, Propose)
        assert proposed.intent == Command(Control.SLEEP)
        assert said(proposed.question) == "Stop listening?"
        assert not voice_input.asleep
        session.handle(proposed)
        assert out.last().text == "Stop listening? Yes or no?"
        session.handle(Confirm(True))
        eventually(lambda: voice_input.asleep)
        assert out.last().text.startswith("Not listening.")
        assert "resume listening" in voice_input.load_phrases().phrases
        # Awake again, the sleep word said clearly sleeps at once, unasked.
        voice_input.asleep = False
        voice_input.table = None
        assert voice_input.interpret(WORD) is None and voice_input.asleep
    finally:
        voice_input.stop()


def test_stop_listening_answered_no_keeps_voice_listening() -> None:
    session, _ = at_my_bid()
    recognizer = Scripted(("stop listening", SLEEP_CONFIDENCE - 0.1))
    voice_input = VoiceInput(session, recognizer, NoDevice(mode="open"))  # type: ignore[arg-type]
    voice_input.start()
    try:
        proposed = voice_input.interpret(WORD)
        assert isinstance(proposed, Propose)
        session.handle(proposed)
        session.handle(Confirm(False))
        assert not voice_input.asleep
        assert session.hooks.sleep == voice_input.sleep_agreed
    finally:
        voice_input.stop()
    assert session.hooks.sleep is None


def test_the_sleep_question_needs_voice() -> None:
    session, out = make_session(seed=3)
    session.handle(Propose(Command(Control.SLEEP), "Stop listening?"))
    session.handle(Confirm(True))
    assert out.last().message_id == "session.listen_unavailable"
