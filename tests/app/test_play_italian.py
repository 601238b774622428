"""The real command in a pseudo-terminal, in Italian and in French, played by keys.

A whole match in Italian (one hand: ``--hands 1``) and one hand in French: the player
bids, presses a key that does nothing, tries a card that may not be played (refused,
with the reason), plays every trick by walking the cursor, and hears the hand's end,
the match's end and the goodbye, every line in the language. What is expected is
built from that language's catalog (strict: a message it lacks fails the test), with
the player's own words where the game fills them in ("Hai giocato...").
"""

from __future__ import annotations

import io
import re
import string
import sys
from pathlib import Path

import pexpect
import pytest

from tests.narration.test_translations import (
    SAME_SPELLING,
    SHARED_WORDS,
    english_left,
    english_words,
)
from voice_spades.engine import Seat, profile
from voice_spades.messages import Message
from voice_spades.narration import Phrasebook, Verbosity
from voice_spades.narration.catalog import Catalog
from voice_spades.narration.forms import fill
from voice_spades.narration.templates import load_templates

ROOT = Path(__file__).resolve().parents[2]
RIGHT = "\x1b[C"
LINE = r"([^\r\n]+)\r\n"
ARTICLE = r"(?:\w{1,3} |\w{1,3}['’])?"
"""A definite article before a card's name: "la ", "il ", "l'", "le "."""


class Said:
    """What the game says in one language, as regular expressions built from its catalog
    (strict: a message the language lacks is a KeyError)."""

    def __init__(self, language: str) -> None:
        self.catalog = Catalog(language, strict=True)
        self.words = Phrasebook(profile("pagat"), 0, Verbosity.NORMAL, words=self.catalog)

    def text(self, message_id: str, **fields: object) -> str:
        """The message as the player hears it."""
        return self.words.message(Message(message_id, **fields))

    def pattern(self, message_id: str, **known: object) -> str:
        """A regular expression for the message at normal verbosity, with the ``known``
        fields as given (seats named for the player) and any text for the others, to the
        end of its line."""
        form = self.catalog.templates[message_id].form(Verbosity.NORMAL)
        alternatives = []
        for text in [form] if isinstance(form, str) else form.values():
            parts = []
            for literal, name, spec, _ in string.Formatter().parse(text):
                parts.append(re.escape(literal))
                if name is None:
                    continue
                key = name[:1].lower() + name[1:]
                if key in known:
                    value = known[key]
                    value = self.words.seat(value) if isinstance(value, Seat) else value
                    field = "{" + name + (":" + spec if spec else "") + "}"
                    parts.append(re.escape(fill(field, {key: value})))
                else:
                    parts.append(".+?")
            alternatives.append("".join(parts))
        return "(?:" + "|".join(alternatives) + ")[^\r\n]*\r\n"


def spawn(data_dir: Path, language: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "voice_spades", "--no-speech", "--seed", "3",
                                          "--data-dir", str(data_dir), "--pace", "0",
                                          "--level", "easy", "--no-voice", "--hands", "1",
                                          "--language", language],
                         cwd=str(ROOT), encoding="utf-8", timeout=30, dimensions=(40, 250),
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                              "HOME": str(data_dir), "LANG": "C.UTF-8"})


def next_line(child: pexpect.spawn) -> str:
    child.expect(LINE)
    return str(child.match.group(1))


def try_a_refused_card(child: pexpect.spawn, said: Said) -> bool:
    """Walk the cursor to a card that may not be played and try it: True if it was
    refused with the reason (False if every card walked over was playable)."""
    not_playable = said.text("word.not_playable")
    for _ in range(13):
        child.send(RIGHT)
        if next_line(child).endswith(not_playable):
            child.send("\r")
            child.expect(said.pattern("refusal.must_follow"))
            return True
    return False


def play_a_card(child: pexpect.spawn, said: Said) -> None:
    """Enter on the card under the cursor, else on the top card of each suit in turn,
    until one is played (the others are refused, each with its reason)."""
    played = [said.pattern(m, seat=Seat(0))
              for m in ("card.played", "card.led", "trick.won_last")]
    played.append(said.pattern("trick.won"))  # the forced last card: the trick's result
    refused = [said.pattern(m) for m in said.catalog.templates
               if m.startswith("refusal.") and len(said.pattern(m)) > 40]
    for key in ("", "S", "H", "D", "C"):
        if key:
            child.send(key)
            next_line(child)  # the suit's cards, the cursor on the first
        child.send("\r")
        if child.expect(played + refused) < len(played):
            return
    raise AssertionError("no card could be played")


def play_a_hand(child: pexpect.spawn, said: Said) -> bool:
    """Bid, then play every trick by keys; True if a refused card was tried."""
    child.expect(said.pattern("hand.dealt_first"))
    child.expect(said.pattern("prompt.bid_any", notes=""))
    child.send("j")  # bound to nothing
    child.expect(said.pattern("error.unknown_key", key="J"))
    child.send("3")
    child.expect(said.pattern("bid.typed", bid="3"))
    child.send("\r")
    child.expect(said.pattern("bid.made", seat=Seat(0), bid="3"))
    turns = [said.pattern(m) for m in ("prompt.lead", "prompt.follow", "prompt.void")]
    refused = False
    for _ in range(13):
        if child.expect(turns) == 1 and not refused:
            refused = try_a_refused_card(child, said)
        play_a_card(child, said)
    child.expect(said.pattern("score.side"))
    return refused


@pytest.mark.slow
@pytest.mark.parametrize("language", ["it", "fr"])
def test_a_match_played_to_its_end_by_keys_in_the_language(tmp_path: Path,
                                                           language: str) -> None:
    said = Said(language)
    child = spawn(tmp_path, language)
    transcript = io.StringIO()
    child.logfile_read = transcript
    refused = play_a_hand(child, said)
    child.expect(said.pattern("match.hand_limit"))
    child.expect(said.pattern("prompt.match_over"))
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert refused
    lines = [line for line in transcript.getvalue().splitlines() if line.strip()]
    english = english_words(load_templates("en"))
    allowed = SHARED_WORDS | SAME_SPELLING[language]
    left = [(line, words) for line in lines if (words := english_left(line, english, allowed))]
    assert left == [], left
    assert len(lines) > 60
