"""The real game in a terminal, in Italian and in French, played by voice through the
virtual microphone (the FIFO-fed ALSA capture of ``test_voice_end_to_end``).

Italian: a whole match of one hand. The player says the bid ("dichiaro tre") and
answers the question ("sì"), asks for the score, says the first card, then plays the
other tricks by keys to the match's end; every line checked is the Italian catalog's.
French: a bid said and confirmed ("je demande trois", "oui"), then the player quits.
Speech comes from espeak-ng's voice of the language; PocketSphinx hears it through
the language's pronunciations. Seed 9 deals East first, so South (the player) bids
first and leads the first trick.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from tests.app.test_play_italian import Said, play_a_card
from tests.voice.test_voice_end_to_end import (
    SEED,
    FifoMicrophone,
    first_legal_lead,
    microphone_home,
)
from voice_spades.commands import Act, Ask, Query
from voice_spades.engine import Bid, Seat
from voice_spades.messages import Message
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.testing.testspeech import SpeechParams, silence, synthesize, tools_available
from voice_spades.voice.understanding.confirmation import question, spoken_card

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
VOICE = {"it": "it", "fr": "fr"}

pytestmark = [pytest.mark.audio, pytest.mark.slow,
              pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")]


class Microphone(FifoMicrophone):
    """The virtual microphone, spoken into by espeak-ng's voice of a language."""

    def __init__(self, path: Path, language: str) -> None:
        super().__init__(path)
        self.params = SpeechParams(voice=VOICE[language], speed=140)

    def say(self, text: str) -> None:
        self.phrases.put(synthesize(text, self.params) + silence(1.0))


def start(tmp_path: Path, language: str, *options: str) -> tuple[pexpect.spawn, Microphone]:
    home, fifo = microphone_home(tmp_path)
    microphone = Microphone(fifo, language)
    child = pexpect.spawn(
        sys.executable, ["-m", "voice_spades", "--seed", str(SEED), "--no-speech",
                         "--data-dir", str(tmp_path / "data"), "--level", "easy",
                         "--pace", "0", "--language", language, *options],
        cwd=str(ROOT), encoding="utf-8", timeout=40, dimensions=(40, 250),
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
             "HOME": str(home), "LANG": "C.UTF-8"})
    return child, microphone


def answer_questions(child: pexpect.spawn, microphone: Microphone, said: Said,
                     done: str, asked: str, yes: str) -> None:
    """Wait for ``done``; a question (``asked``: the game asks before acting on a card
    or a bid it heard) is answered ``yes`` first."""
    if child.expect([done, asked]) == 1:
        microphone.say(yes)
        child.expect(done)


def test_an_italian_match_by_voice_and_keys(tmp_path: Path) -> None:
    said, lex = Said("it"), lexicon_for("it")
    card, _ = first_legal_lead()
    child, microphone = start(tmp_path, "it", "--hands", "1")
    try:
        child.expect(re.escape(said.text("voice.on", recognizer=Message(
            "voice.recognizer.pocketsphinx"), how=Message("voice.how.open"))))
        child.expect(said.pattern("prompt.bid_any", notes=""))
        microphone.say("dichiaro tre")
        bid_question = said.catalog.render_message(question(Act(Bid(3)), lexicon=lex))
        child.expect(re.escape(bid_question))  # "Dichiari tre?", maybe "O ...?" after it
        microphone.say("sì")
        child.expect(said.pattern("bid.made", seat=Seat(0), bid="3"))
        child.expect(said.pattern("prompt.lead"))
        microphone.say("punteggio")
        child.expect(said.pattern("answer.scores"))
        name = str(spoken_card(card, lex))
        microphone.say(name)
        led = said.pattern("card.led", seat=Seat(0), card=said.catalog.card(card))
        asked = re.escape(said.catalog.render_message(question(Act(card), lexicon=lex)))
        answer_questions(child, microphone, said, led, asked, "sì")
        turns = [said.pattern(m) for m in ("prompt.lead", "prompt.follow", "prompt.void")]
        for _ in range(12):
            child.expect(turns)
            play_a_card(child, said)
        child.expect(said.pattern("score.side"))
        child.expect(said.pattern("match.hand_limit"))
        child.expect(said.pattern("prompt.match_over"))
        child.send("q")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        child.close(force=True)
        microphone.close()


def test_a_french_bid_said_and_confirmed(tmp_path: Path) -> None:
    said, lex = Said("fr"), lexicon_for("fr")
    child, microphone = start(tmp_path, "fr")
    try:
        child.expect(said.pattern("prompt.bid_any", notes=""))
        microphone.say("je demande trois")
        child.expect(re.escape(said.catalog.render_message(question(Act(Bid(3)), lexicon=lex))))
        microphone.say("oui")
        child.expect(said.pattern("bid.made", seat=Seat(0), bid="3"))
        child.send("q")
        child.expect(re.escape(said.text("session.saved_quit")))
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        child.close(force=True)
        microphone.close()


def test_the_queries_said_here_are_in_the_grammar() -> None:
    """The phrases this file says mean what the test expects of them."""
    from voice_spades.voice.understanding.grammar import full_grammar

    assert full_grammar(lexicon_for("it")).meanings["punteggio"] == Ask(Query.SCORES)
    assert full_grammar(lexicon_for("fr")).meanings["je demande trois"] == Act(Bid(3))
