"""The message catalog: every event has a sentence, and verbosity changes the detail."""

from __future__ import annotations

import string
import typing

import pytest

from voice_spades.engine import (
    Bid,
    BiddingComplete,
    BidMade,
    BlindNilDecided,
    Card,
    CardDrawn,
    CardPlayed,
    CardsExchanged,
    Deal,
    DrawFinished,
    Event,
    HandDealt,
    HandScored,
    HandStarted,
    MatchOver,
    SpadesBroken,
    TiedAtTarget,
    Trick,
    TrickWon,
    profile,
    score_hand,
)
from voice_spades.narration import CATALOG, Narrator, Phrasebook, Verbosity, render

PAGAT = profile("pagat")
TWO = profile("two-player")


def c(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def sample_events() -> list[tuple[object, Event]]:
    """(rules, event) for every kind of event."""
    hands = (c("AS 10S 4S KH 7H 2H QC 3C 8D 6D 5D 4D 2D"),) + ((),) * 3
    trick = Trick(3, 1, ((1, Card.parse("9H")), (2, Card.parse("KH")), (3, Card.parse("2H")),
                         (0, Card.parse("4H"))), 2)
    bids = [Bid(3), Bid(0), Bid(4), Bid(5)]
    score = score_hand(PAGAT, bids, [3, 1, 4, 5], [337, 100], [7, 2])
    boston = score_hand(PAGAT, [Bid(6), Bid(2), Bid(5), Bid(1)], [7, 0, 6, 0], [0, 0], [0, 0])
    return [
        (PAGAT, HandStarted(3, 1, 2)),
        (PAGAT, HandDealt(hands)),
        (TWO, BlindNilDecided(1, True)),
        (TWO, BlindNilDecided(0, False)),
        (TWO, CardDrawn(0, Card.parse("9S"), True, Card.parse("9S"), 4)),
        (TWO, CardDrawn(0, Card.parse("9S"), False, Card.parse("3H"), 4)),
        (TWO, CardDrawn(1, Card.parse("9S"), False, Card.parse("3H"), 4)),
        (TWO, DrawFinished(hands[:2])),
        (TWO, CardsExchanged(0, c("AS KS"), c("2H 3D"))),
        (TWO, CardsExchanged(1, c("AS"), c("2H"))),
        (PAGAT, BidMade(1, Bid(4))),
        (PAGAT, BidMade(0, Bid(0))),
        (PAGAT, BiddingComplete(tuple(bids), (7, 5))),
        (PAGAT, CardPlayed(2, Card.parse("QH"), 3)),
        (PAGAT, SpadesBroken(3, Card.parse("2S"))),
        (PAGAT, TrickWon(trick, 2, Card.parse("KH"), (1, 0, 2, 0))),
        (PAGAT, HandScored(4, score, (389, 90), (9, 3))),
        (PAGAT, HandScored(5, boston, (130, 0), (1, 0))),
        (PAGAT, TiedAtTarget((510, 510))),
        (PAGAT, MatchOver(0, (512, 430), 9)),
        (PAGAT, MatchOver(1, (412, 530), 9)),
    ]


def narrate(rules: object, event: Event, verbosity: Verbosity = Verbosity.NORMAL) -> list[str]:
    narrator = Narrator(Phrasebook(rules, 0, verbosity))  # type: ignore[arg-type]
    return [line.text for line in narrator.narrate(event)]


def test_every_event_type_has_a_sentence() -> None:
    covered = {type(event) for _, event in sample_events()}
    assert covered == set(typing.get_args(Event))
    for rules, event in sample_events():
        for verbosity in Verbosity:
            narrate(rules, event, verbosity)  # every template fills at every length
        if isinstance(event, HandStarted) and rules.deal is not Deal.DRAW:
            # Said with the cards at normal ("Hand 3: spades ..."), in full when verbose.
            assert not narrate(rules, event) and narrate(rules, event, Verbosity.VERBOSE)
            continue
        assert narrate(rules, event), event


def test_a_new_hand_is_said_in_a_few_words_with_its_cards() -> None:
    narrator = Narrator(Phrasebook(PAGAT))
    hand = tuple(Card.parse(x) for x in ("AS", "10S", "KH", "QC", "3C", "8D"))
    assert narrator.narrate(HandStarted(3, 1, 2)) == []
    dealt = narrator.narrate(HandDealt((hand, (), (), ())))
    assert [line.text for line in dealt] == [
        "Hand 3: spades ace 10; hearts king; clubs queen 3; diamonds 8."]
    verbose = Narrator(Phrasebook(PAGAT, verbosity=Verbosity.VERBOSE))
    said = [line.text for line in verbose.narrate(HandStarted(3, 1, 2))]
    assert said == ["Hand 3. West dealt; first to bid: partner North."]


@pytest.mark.parametrize(("index", "expected"), [
    (1, "Spades ace 10 4; hearts king 7 2; clubs queen 3; diamonds 8 6 5 4 2."),
    (10, "West bid 4."),
    (11, "You bid nil."),
    (13, "Partner North led the queen of hearts."),
    (15, "Partner North won the trick with the king of hearts."),
    (4, "You keep the 9 of spades. 4 cards."),
    (2, "North declared blind nil!"),
])
def test_sentences_read_naturally(index: int, expected: str) -> None:
    rules, event = sample_events()[index]
    assert narrate(rules, event)[0] == expected


def test_the_player_is_you_and_the_partner_is_marked() -> None:
    texts = narrate(PAGAT, sample_events()[12][1])[0]
    assert texts.startswith("Bidding done: you and partner North 7, West and East 5.")


def test_hand_scores_say_bags_nil_and_boston() -> None:
    lines = narrate(PAGAT, sample_events()[16][1])
    # Issue 10 (problem 3): each side's line says made or set and its nils, in order;
    # issue 48: in short, each with its new score, the points on the review keys.
    assert lines == ["Us: 7 of 7, made; score 389.",
                     "Them: East took 5 of 5, made, West failed nil, West's 1 counts as a "
                     "bag; score 90."]
    verbose = narrate(PAGAT, sample_events()[16][1], Verbosity.VERBOSE)
    assert verbose[1].startswith("West and East: bid 5, took 5, made, plus 50; West failed "
                                 "nil, minus 100; 1 bag, plus 1;")
    assert verbose[-1].startswith("Hand 4 over. Scores: you and partner North 389 with 9 bags")
    boston = narrate(PAGAT, sample_events()[17][1])
    assert "Boston! You and partner North took all 13 tricks." in boston


def test_match_result_names_the_winner() -> None:
    assert narrate(PAGAT, sample_events()[19][1])[0].startswith(
        "You and partner North won the match, you and partner North 512, West and East 430")
    assert narrate(PAGAT, sample_events()[20][1])[0].startswith("West and East won the match")


def test_brief_is_shorter_and_verbose_says_more() -> None:
    for rules, event in sample_events():
        brief = " ".join(narrate(rules, event, Verbosity.BRIEF))
        normal = " ".join(narrate(rules, event, Verbosity.NORMAL))
        verbose = " ".join(narrate(rules, event, Verbosity.VERBOSE))
        assert len(brief) <= len(normal) <= len(verbose), event
    scored = sample_events()[16][1]
    assert len(" ".join(narrate(PAGAT, scored, Verbosity.VERBOSE))) > \
        2 * len(" ".join(narrate(PAGAT, scored, Verbosity.BRIEF)))
    verbose_trick = narrate(PAGAT, sample_events()[15][1], Verbosity.VERBOSE)[0]
    assert "you 4 of hearts" in verbose_trick and "Tricks:" in verbose_trick


def test_a_nil_bidder_taking_a_trick_is_announced() -> None:
    narrator = Narrator(Phrasebook(PAGAT))
    narrator.narrate(BidMade(1, Bid(0)))
    trick = Trick(1, 1, ((1, Card.parse("AH")),), 1)
    lines = narrator.narrate(TrickWon(trick, 1, Card.parse("AH"), (0, 1, 0, 0)))
    assert lines[-1].text == "That breaks West's nil."


def test_card_plays_carry_their_trick_tag_and_seat() -> None:
    narrator = Narrator(Phrasebook(PAGAT))
    narrator.narrate(HandStarted(2, 0, 1))
    line = narrator.narrate(CardPlayed(3, Card.parse("2C"), 5))[0]
    assert line.tag == "trick:2:5" and line.seat == 3


def test_templates_name_only_simple_fields() -> None:
    formatter = string.Formatter()
    for message_id, template in CATALOG.items():
        for form in template.forms():
            for text in [form] if isinstance(form, str) else form.values():
                for _, field, _, _ in formatter.parse(text):
                    assert field is None or field.isidentifier(), (message_id, field)


def test_render_fills_a_template_at_each_length() -> None:
    assert render("bid.made", Verbosity.BRIEF, Seat="East", bid="4") == "East 4."
    assert render("bid.made", Verbosity.NORMAL, Seat="East", bid="4") == "East bid 4."
    assert render("answer.suit_void", suit="clubs") == "No clubs."
