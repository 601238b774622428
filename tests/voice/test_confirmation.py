"""Bids are always asked about; cards only when the hearing was doubtful."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from voice_spades.commands import (
    Act,
    Ask,
    Command,
    Confirm,
    Control,
    PlayCurrent,
    Propose,
    Query,
)
from voice_spades.engine.actions import Bid, BlindNilChoice, DrawChoice, Exchange
from voice_spades.engine.cards import Card, mask_of
from voice_spades.engine.match import Match
from voice_spades.engine.profiles import profile
from voice_spades.voice.confirmation import (
    LOW_CONFIDENCE,
    QUIT_CONFIDENCE,
    ConfirmationPolicy,
    question,
    understand,
)
from voice_spades.voice.grammar import PhraseTable, build_phrases
from voice_spades.voice.recognizer import Recognition


def Heard(text: str, confidence: float = 0.95,
          alternatives: Sequence[str | tuple[str, float]] = ()) -> Recognition:
    """A recognition of ``text``; a bare alternative has probability 0.3."""
    alts = tuple(a if isinstance(a, tuple) else (a, 0.3) for a in alternatives)
    return Recognition(text, confidence, ((text, confidence), *alts), 1.0, 0.01)


def play_table(hand: str, legal: str | None = None, cursor: str | None = None) -> PhraseTable:
    match = Match(profile("pagat"), seed=3)
    while match.hand.phase.value == "bid":
        match.apply(Bid(3))
    assert match.to_act is not None
    allowed = tuple(Card.parse(code) for code in (legal or hand).split())
    view = dataclasses.replace(match.view(match.to_act),
                               hand=mask_of(Card.parse(code) for code in hand.split()),
                               legal=allowed)
    return build_phrases(view, confirming=False,
                         cursor=Card.parse(cursor) if cursor else None)


def bid_table() -> PhraseTable:
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    return build_phrases(match.view(match.to_act), confirming=False, cursor=None)


def test_a_bid_is_always_asked_about() -> None:
    assert understand(Heard("bid four", 1.0), bid_table()) == Propose(Act(Bid(4)), "Bid four?")
    assert understand(Heard("nil", 1.0), bid_table()) == Propose(Act(Bid(0)), "Bid nil?")


def test_a_bid_goes_through_when_confirmation_is_off() -> None:
    policy = ConfirmationPolicy(confirm_bids=False)
    assert understand(Heard("bid four"), bid_table(), policy) == Act(Bid(4))


def test_a_clear_card_is_played_at_once() -> None:
    assert understand(Heard("queen of hearts"), play_table("QH 2C")) == Act(Card.parse("QH"))


def test_a_doubtful_card_is_asked_about() -> None:
    table = play_table("QH 2C")
    low = Heard("queen of hearts", confidence=LOW_CONFIDENCE / 2)
    assert understand(low, table) == Propose(Act(Card.parse("QH")), "Queen of hearts?")
    close = Heard("queen of hearts", alternatives=("two of clubs",))
    assert isinstance(understand(close, table), Propose)
    tolerant = Heard("clean of hearts")
    assert isinstance(understand(tolerant, table), Propose)


def test_a_risky_pair_in_the_hand_is_asked_about() -> None:
    table = play_table("AH 8H 2C")
    assert understand(Heard("eight of hearts"), table) == \
        Propose(Act(Card.parse("8H")), "Eight of hearts?")
    assert understand(Heard("two of clubs"), table) == Act(Card.parse("2C"))


def test_an_illegal_card_is_not_asked_about() -> None:
    table = play_table("QH 2C", legal="QH")
    low = Heard("two of clubs", confidence=0.1)
    assert understand(low, table) == Act(Card.parse("2C"))


def test_play_it_names_the_card_under_the_cursor() -> None:
    table = play_table("QH 2C", cursor="QH")
    low = Heard("play it", confidence=0.1)
    assert understand(low, table) == Propose(PlayCurrent(), "Play the queen of hearts?")
    assert understand(Heard("play it"), table) == PlayCurrent()


def test_queries_are_never_asked_about() -> None:
    low = Heard("what is on the table", confidence=0.05)
    assert understand(low, bid_table()) == Ask(Query.TABLE)


def test_new_game_is_left_to_the_session_to_ask() -> None:
    assert understand(Heard("new game"), bid_table()) == Command(Control.NEW_GAME)


def test_an_uncertain_quit_is_asked_about() -> None:
    quit_now = Command(Control.SAVE_AND_QUIT)
    assert understand(Heard("save and quit"), bid_table()) == quit_now
    asked = Propose(quit_now, "Save and quit?")
    assert understand(Heard("save and quit", confidence=0.1), bid_table()) == asked
    fair = Heard("save and quit", confidence=QUIT_CONFIDENCE - 0.05)
    assert understand(fair, bid_table()) == asked


def test_answers_go_through() -> None:
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    table = build_phrases(match.view(match.to_act), confirming=True, cursor=None)
    assert understand(Heard("yes", confidence=0.2), table) == Confirm(True)


def test_questions() -> None:
    assert question(Act(Card.parse("10S"))) == "Ten of spades?"
    assert question(Act(Bid(13))) == "Bid thirteen?"
    assert question(Act(BlindNilChoice(True))) == "Blind nil?"
    assert question(Act(BlindNilChoice(False))) == "No blind nil?"
    assert question(Act(DrawChoice(True))) == "Keep it?"
    assert question(Act(DrawChoice(False))) == "Discard it?"
    assert question(Act(Exchange())) == "Keep all your cards?"
    assert question(Act(Exchange((Card.parse("QH"), Card.parse("2C"))))) == \
        "Exchange the queen of hearts and the two of clubs?"
    assert question(PlayCurrent(), None, "exchange") == "Exchange the marked cards?"
