"""What was heard becomes one intent, or NotUnderstood."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from voice_spades.commands import Act, Ask, NotUnderstood, Query
from voice_spades.engine import Bid, Card, Match, Phase, PlayerView, mask_of, profile
from voice_spades.voice.lexicon import LEXICON_FILE, default_lexicon, load_lexicon
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.understanding.grammar import PhraseTable, build_phrases, full_grammar
from voice_spades.voice.understanding.meaning import normalize, phrase_cost, read


def Heard(text: str, confidence: float = 0.9,
          alternatives: Sequence[str | tuple[str, float]] = ()) -> Recognition:
    """A recognition of ``text``; a bare alternative has probability 0.3."""
    alts = tuple(a if isinstance(a, tuple) else (a, 0.3) for a in alternatives)
    return Recognition(text, confidence, ((text, confidence), *alts), 1.0, 0.01)


def play_table(hand: str, legal: str | None = None) -> PhraseTable:
    match = Match(profile("pagat"), seed=3)
    while match.view(0).phase == Phase.BID:
        match.apply(Bid(3))
    assert match.to_act is not None
    held = [Card.parse(code) for code in hand.split()]
    allowed = [Card.parse(code) for code in (legal or hand).split()]
    view = dataclasses.replace(match.view(match.to_act), hand=mask_of(held),
                               legal=tuple(allowed))
    return build_phrases(view, confirming=False, cursor=None)


def bid_table() -> PhraseTable:
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    view: PlayerView = match.view(match.to_act)
    return build_phrases(view, confirming=False, cursor=None)


QH = Act(Card.parse("QH"))


@pytest.mark.parametrize("text", ["queen of hearts", "play the queen of hearts",
                                  "queen hearts", "Queen of Hearts.", "play queen of hearts",
                                  "the queen of hearts"])
def test_card_variants(text: str) -> None:
    assert read(Heard(text), play_table("QH 10S 2C")).intent == QH


@pytest.mark.parametrize("text", ["ten of spades", "ten spades", "play 10 of spades"])
def test_ten_of_spades_variants(text: str) -> None:
    assert read(Heard(text), play_table("QH 10S 2C")).intent == Act(Card.parse("10S"))


@pytest.mark.parametrize(("text", "tricks"), [("bid four", 4), ("four", 4), ("4", 4),
                                              ("i bid four", 4), ("nil", 0), ("zero", 0),
                                              ("bid nil", 0), ("bid 0", 0), ("twelve", 12)])
def test_bid_variants(text: str, tricks: int) -> None:
    assert read(Heard(text), bid_table()).intent == Act(Bid(tricks))


@pytest.mark.parametrize(("text", "meant"), [
    ("bid for", Act(Bid(4))), ("for", Act(Bid(4))), ("bid to", Act(Bid(2))),
    ("too", Act(Bid(2))), ("then", Act(Bid(10))), ("bid won", Act(Bid(1))),
    ("bid null", Act(Bid(0))),
])
def test_homophones_of_bids(text: str, meant: object) -> None:
    reading = read(Heard(text), bid_table())
    assert reading.intent == meant
    assert reading.cost > 0


@pytest.mark.parametrize(("text", "code"), [("clean of hearts", "QH"), ("then of spades", "10S"),
                                            ("to of clubs", "2C"), ("queen of heart", "QH")])
def test_homophones_of_cards(text: str, code: str) -> None:
    assert read(Heard(text), play_table("QH 10S 2C")).intent == Act(Card.parse(code))


def test_score_is_not_heard_as_a_bid() -> None:
    table = bid_table()
    assert read(Heard("score"), table).intent == Ask(Query.SCORES)
    assert read(Heard("what can i say"), table).intent == Ask(Query.WHAT_CAN_I_SAY)
    assert read(Heard("what can i play"), table).intent == Ask(Query.LEGAL)


def test_a_held_illegal_card_is_still_named() -> None:
    table = play_table("QH 2H AC", legal="QH 2H")
    reading = read(Heard("ace of clubs"), table)
    assert reading.intent == Act(Card.parse("AC"))
    assert reading.intent not in table.legal


@pytest.mark.parametrize("text", ["", "banana", "what time is it", "hello there my friend",
                                  "[unk]", "king of hearts"])
def test_garbage_is_not_understood(text: str) -> None:
    assert isinstance(read(Heard(text), play_table("QH 10S 2C")).intent, NotUnderstood)


def test_a_decoder_that_stopped_inside_a_phrase_is_not_understood() -> None:
    table = play_table("QH 10S 2C")
    for text in ("play the queen of", "the queen", "play"):
        assert isinstance(read(Heard(text), table).intent, NotUnderstood)


def test_two_close_meanings_are_not_guessed() -> None:
    table = play_table("QH QS 2C")
    assert isinstance(read(Heard("queen of"), table).intent, NotUnderstood)
    assert isinstance(read(Heard("queen of parts"), table).intent, NotUnderstood)


def test_risky_pair_in_the_hand_is_a_rival() -> None:
    table = play_table("AH 8H 2C")
    reading = read(Heard("ace of hearts"), table)
    assert reading.intent == Act(Card.parse("AH"))
    assert Act(Card.parse("8H")) in reading.rivals
    assert read(Heard("two of clubs"), table).rivals == ()


def test_king_and_ten_rival_but_an_illegal_card_does_not() -> None:
    assert read(Heard("king of spades"), play_table("KS 10S")).rivals == \
        (Act(Card.parse("10S")),)
    assert read(Heard("king of spades"), play_table("KS 10S", legal="KS")).rivals == ()


def test_alternatives_naming_another_legal_card_are_rivals() -> None:
    table = play_table("QH 10S 2C")
    reading = read(Heard("queen of hearts", alternatives=("two of clubs", "banana")), table)
    assert reading.rivals == (Act(Card.parse("2C")),)


def cost(heard: str, phrase: str, *, risky: bool = False) -> float:
    return phrase_cost(heard.split(" "), phrase.split(" "), default_lexicon(), risky=risky)


def test_phrase_cost_uses_the_lexicon() -> None:
    assert cost("bid for", "bid four") == pytest.approx(0.1)
    assert cost("eight of hearts", "ace of hearts") == 1.0
    assert cost("eight of hearts", "ace of hearts", risky=True) == pytest.approx(0.5)
    assert cost("the queen of hearts", "queen hearts") == pytest.approx(0.6)
    assert cost("nine", "six") == 1.0


def test_normalize() -> None:
    assert normalize("  Play the 10 of Spades! ") == "play the ten of spades"
    assert normalize("What’s on the table?") == "what's on the table"
    assert normalize("[unk] bid 0") == "bid zero"


def test_every_phrase_reads_as_itself() -> None:
    table = full_grammar()
    for phrase in table.phrases:
        reading = read(Heard(phrase), table)
        assert reading.meaning == table.meanings[phrase]
        assert reading.cost == 0


def test_lexicon_pronunciations_are_checked(tmp_path: Path) -> None:
    assert default_lexicon().pronunciations["hearts"] == ("HH AA T S",)
    text = LEXICON_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "lexicon.toml"
    bad.write_text(text.replace('hearts = ["HH AA T S"]', 'hearts = ["hh aa t s"]'),
                   encoding="utf-8")
    with pytest.raises(ValueError, match="hearts"):
        load_lexicon(bad)


def test_the_fit_is_the_confidence_before_the_phrase_is_weighed_against_others() -> None:
    # A confidence of 0.45 with 90% of the share: the speech fitted its phrase at 0.5.
    heard = Recognition("bid four", 0.45, (("bid four", 0.9), ("bid five", 0.1)), 1.0, 0.01)
    assert heard.fit == pytest.approx(0.5)
    assert Recognition("bid four", 0.7, (), 1.0, 0.01).fit == pytest.approx(0.7)
    assert Recognition(None, 0.0, (), 1.0, 0.01).fit == 0.0


def test_a_like_wake_phrase_must_be_a_sleep_phrase(tmp_path: Path) -> None:
    text = LEXICON_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "lexicon.toml"
    bad.write_text(text.replace('like-wake = ["stop listening"]',
                                'like-wake = ["start listening"]'), encoding="utf-8")
    with pytest.raises(ValueError, match="like-wake"):
        load_lexicon(bad)
    assert load_lexicon().listening["like-wake"] == ("stop listening",)
