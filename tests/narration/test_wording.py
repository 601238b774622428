"""The wording problems of issue 10, each said right now: a trick's last card and its
winner in one sentence, spades broken said once, the two-player discard named, short
card plays at six players, "after 1 hand", the cursor's highest and lowest, "contract
made"."""

from __future__ import annotations

import random
import re

from tests.session.fakes import make_session
from voice_spades.commands import Act
from voice_spades.engine import (
    Bid,
    BidMade,
    Card,
    CardDrawn,
    CardPlayed,
    Event,
    HandStarted,
    MatchOver,
    SpadesBroken,
    Trick,
    TrickWon,
    profile,
)
from voice_spades.narration import Answers, Hints, Narrator, Phrasebook, Verbosity

PAGAT = profile("pagat")
BROKEN = re.compile(r"(?i)\bbroke spades\b|\bspades (are )?broken\b")


def narrate(events: list[Event], rules: object = PAGAT,
            verbosity: Verbosity = Verbosity.NORMAL) -> list[str]:
    narrator = Narrator(Phrasebook(rules, 0, verbosity))  # type: ignore[arg-type]
    return [line.text for event in events for line in narrator.narrate(event)]


def trick(plays: str, leader: int, winner: int, number: int = 1,
          tricks_won: tuple[int, ...] = (0, 0, 1, 0)) -> list[Event]:
    cards = [Card.parse(code) for code in plays.split()]
    n = len(cards)
    seats = [(leader + i) % n for i in range(n)]
    played: list[Event] = [CardPlayed(s, c, number) for s, c in zip(seats, cards, strict=True)]
    won = Trick(number, leader, tuple(zip(seats, cards, strict=True)), winner)
    return [*played, TrickWon(won, winner, cards[seats.index(winner)], tricks_won)]


def test_the_last_card_that_wins_is_said_with_the_win_once() -> None:
    said = narrate(trick("4H 2H 5H 8H", leader=3, winner=2))
    assert said == ["East led the 4 of hearts.", "You played the 2 of hearts.",
                    "West played the 5 of hearts.",
                    "Partner North played the 8 of hearts and won the trick."]
    assert sum(text.count("Partner North") for text in said) == 1


def test_a_last_card_that_does_not_win_comes_before_the_winner() -> None:
    said = narrate(trick("4H QH 5H 3H", leader=3, winner=0))
    assert said[-2:] == ["Partner North played the 3 of hearts.",
                         "You won the trick with the queen of hearts."]


def test_spades_broken_is_said_once_then_the_lead_prompt_says_any_suit() -> None:
    spade = Card.parse("2S")
    assert narrate([CardPlayed(3, spade, 2), SpadesBroken(3, spade)]) == \
        ["East led the 2 of spades.", "Spades are broken."]
    six = profile("playroom", players=6)
    short = narrate([CardPlayed(1, Card.parse("4H"), 2), CardPlayed(2, spade, 2),
                     SpadesBroken(2, spade)], six)
    assert short[1:] == ["2 of spades.", "North-west broke spades."]
    # The last card of a trick, said with the win: the player is named once.
    events = trick("4H 5H 6H 2S", leader=0, winner=3, tricks_won=(0, 0, 0, 1))
    said = narrate([*events[:-1], SpadesBroken(3, spade), events[-1]])
    assert said[-2:] == ["East played the 2 of spades and won the trick.", "Spades are broken."]
    repeated = []
    for seed in range(4):
        session, out = make_session(seed=seed)
        session.start()
        rng = random.Random(seed)
        while session.match.hands_played < 1:
            session.play_bots()
            session.handle(Act(rng.choice(session.view.legal)))
        texts = out.texts
        for i, text in enumerate(texts):
            if BROKEN.search(text):
                repeated += [t for t in texts[i + 1:i + 5] if BROKEN.search(t)]
        leads = [t for t in texts if t.startswith("Your lead.")]
        assert all(t.startswith(("Your lead. Spades are not broken.", "Your lead. Any suit.",
                                 "Your lead. You hold only spades.")) for t in leads), leads
    assert repeated == []


def test_the_two_player_discard_names_the_card_at_every_verbosity() -> None:
    drawn = CardDrawn(0, Card.parse("9S"), False, Card.parse("3H"), 4)
    for verbosity in Verbosity:
        text = narrate([drawn], profile("two-player"), verbosity)[0]
        assert "9 of spades" in text and "3 of hearts" in text, text
    assert narrate([drawn], profile("two-player"))[0] == \
        "You discard the 9 of spades and take the 3 of hearts. 4 cards."


def test_six_players_hear_the_seat_once_per_trick() -> None:
    rules = profile("playroom", players=6)
    events = trick("4H 9H KH 2H AH 3H", leader=1, winner=5,
                   tricks_won=(0, 0, 0, 0, 0, 1))
    said = narrate(events, rules)
    assert said == ["South-west led the 4 of hearts.", "9 of hearts.", "King of hearts.",
                    "2 of hearts.", "Ace of hearts.", "You played the 3 of hearts.",
                    "South-east won the trick with the ace of hearts."]
    verbose = narrate(events, rules, Verbosity.VERBOSE)
    assert verbose[1] == "North-west played the 9 of hearts."


def test_one_hand_is_singular() -> None:
    assert narrate([MatchOver(0, (512, 430), 1)])[0] == \
        "You and partner North won the match, you and partner North 512, " \
        "West and East 430, after 1 hand!"
    assert narrate([MatchOver(1, (412, 530), 2)])[0].endswith("after 2 hands.")


def test_the_cursor_edges_name_the_card_first() -> None:
    session, _ = make_session()
    view = session.view
    answers = Answers(Phrasebook(PAGAT, 0), Hints())
    card = Card.parse("3H")
    assert answers.cursor(view, card, edge="low").text == "3 of hearts, the lowest"
    assert answers.cursor(view, card, edge="high").text == "3 of hearts, the highest"


def test_a_contract_is_said_made_once_when_the_side_reaches_its_bid() -> None:
    events: list[Event] = [HandStarted(1, 3, 0), BidMade(0, Bid(1)), BidMade(1, Bid(0)),
                           BidMade(2, Bid(1)), BidMade(3, Bid(3))]
    events += trick("4H 2H 5H 8H", leader=0, winner=2, tricks_won=(0, 0, 1, 0))
    events += trick("4C 2C 5C 8C", leader=2, winner=1, number=2, tricks_won=(0, 1, 1, 0))
    events += trick("4D 2D 5D 8D", leader=1, winner=0, number=3, tricks_won=(1, 1, 1, 0))
    said = narrate(events)
    made = [text for text in said if "contract" in text]
    assert made == ["You and partner North: contract of 2 made."]
    assert "That breaks West's nil." in said
    brief = narrate(events, verbosity=Verbosity.BRIEF)
    assert [text for text in brief if "contract" in text] == ["Us: contract made."]
