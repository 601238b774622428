"""The hint: Hard's choice for the player's seat, with a reason read from the position."""

from __future__ import annotations

import random
import time

import pytest

from tests.bots.helpers import bid_all, deal_with, play_cards, view_of
from voice_spades.bots.base import decide
from voice_spades.bots.explain import advise, bid_reason, play_reason, reason_for, sure_tricks
from voice_spades.bots.hard import HardBot
from voice_spades.engine import (
    Bid,
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    Match,
    Seat,
    mask_of,
    profile,
)
from voice_spades.messages import Message
from voice_spades.narration import Phrasebook

PAGAT = profile("pagat")


def c(code: str) -> Card:
    return Card.parse(code)


def east_leads(fixed: dict[int, str], plays: str, bids: tuple[int, ...] = (3, 3, 3, 3),  # type: ignore[no-untyped-def]
               avoid: dict[int, str] | None = None):
    """Dealer North: East bids and leads first, South (the player) plays second."""
    hand = deal_with(PAGAT, fixed, dealer=2, avoid=avoid)
    bid_all(hand, bids)
    play_cards(hand, plays)
    return view_of(hand, 0)


def test_winning_with_the_lowest_card_that_beats_the_card_on_the_table() -> None:
    view = east_leads({0: "AH KH 2H", 3: "QH"}, "QH")
    assert play_reason(view, c("KH")) == Message("reason.win_lowest", seat=Seat(3),
                                                 card=c("QH"))
    assert play_reason(view, c("AH")).id == "reason.win_high"


def test_a_void_player_trumps_with_the_lowest_winning_spade_or_throws_off() -> None:
    view = east_leads({0: "2S 9S 4D", 3: "QH"}, "QH", avoid={0: "H"})
    assert play_reason(view, c("2S")) == Message("reason.trump", seat=Seat(3), card=c("QH"))
    assert play_reason(view, c("9S")).id == "reason.trump_high"
    assert play_reason(view, c("4D")) == Message("reason.duck", seat=Seat(3), card=c("QH"))
    no_spades = east_leads({0: "2D 5D AD 6C", 3: "QH"}, "QH", avoid={0: "HS"})
    assert play_reason(no_spades, c("2D")) == Message("reason.discard", suit=c("2D").suit)
    assert play_reason(no_spades, c("AD")) == Message("reason.shed_high", suit=c("AD").suit)


def test_partner_winning_means_play_low() -> None:
    # Dealer South: West leads, partner North and East follow, South plays last.
    hand = deal_with(PAGAT, {0: "KH 3H", 1: "5H", 2: "AH", 3: "6H"}, dealer=0)
    bid_all(hand, (3, 3, 3, 3))
    play_cards(hand, "5H AH 6H")
    view = view_of(hand, 0)
    assert play_reason(view, c("3H")) == Message("reason.partner_winning", seat=Seat(2),
                                                 card=c("AH"))
    assert play_reason(view, c("KH")).id == "reason.partner_winning_shed"


def test_the_only_card_of_the_suit_led() -> None:
    view = east_leads({0: "7H AS KS", 3: "QH"}, "QH")
    assert play_reason(view, c("7H")) == Message("reason.only_of_suit", suit=c("7H").suit)


def test_a_nil_bidder_stays_under() -> None:
    view = east_leads({0: "KH 9H 2H", 3: "QH"}, "QH", bids=(3, 0, 3, 3))
    assert play_reason(view, c("9H")) == Message("reason.nil_under", seat=Seat(3), card=c("QH"))


def test_a_lead_of_the_top_card_left_is_a_sure_trick() -> None:
    # Dealer East: South bids and leads first.
    hand = deal_with(PAGAT, {0: "AH 4H 3C 5D"}, dealer=3)
    bid_all(hand, (3, 3, 3, 3))
    view = view_of(hand, 0)
    assert play_reason(view, c("AH")) == Message("reason.sure_winner", suit=c("AH").suit)


def test_a_bid_counts_sure_and_likely_tricks() -> None:
    hand = mask_of([c("AS"), c("KS"), c("AH"), c("KH"), c("QH"), c("AD")])
    assert sure_tricks(hand, 4) == 5  # two spades, two hearts (a third is ruffed), one diamond
    deal = deal_with(PAGAT, {0: "AS KS AH 2C 3C"}, dealer=3)
    view = view_of(deal, 0)
    assert bid_reason(view, Bid(4)) == Message("reason.bid_count", sure=3, likely=1)
    assert bid_reason(view, Bid(0), nil_rate=0.42) == Message("reason.bid_nil", percent=42)


def test_two_player_choices_have_reasons() -> None:
    view = east_leads({0: "AH"}, "")
    assert reason_for(view, BlindNilChoice(True)).id == "reason.blind_nil_gamble"
    assert reason_for(view, Exchange((c("AS"),))).id == "reason.exchange"
    assert reason_for(view, Exchange(())).id == "reason.exchange_none"
    assert reason_for(view, DrawChoice(True)).id == "reason.choice"  # no card shown


def test_every_reason_renders_for_the_listener() -> None:
    words = Phrasebook(PAGAT, 0)
    view = east_leads({0: "AH KH 2H", 3: "QH"}, "QH")
    text = words.say("hint.play", card=c("KH"), reason=play_reason(view, c("KH")), key="Enter")
    assert text == ("Hint: play the king of hearts. It wins the trick with the lowest card "
                    "that beats East's queen of hearts. Enter plays it.")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_hint_is_hard_s_legal_choice_quickly_and_leaves_chance_alone(seed: int) -> None:
    match = Match(PAGAT, seed)
    bots = {s: random.Random(s) for s in range(1, 4)}
    while match.to_act != 0:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].choice(match.legal_actions()))
    for _ in range(2):  # the bid, then the first card
        view = match.view(0)
        state = random.getstate()
        start = time.perf_counter()
        advice = advise(view, seed)
        assert time.perf_counter() - start < 1.5
        assert random.getstate() == state
        assert advice.action in view.legal
        # The hint is Hard's own choice in that seat: the same fixed search, so it
        # repeats from the seed.
        assert advice.action == decide(HardBot(view.seat, seed), view)
        assert advise(view, seed) == advice
        match.apply(advice.action)
        while match.to_act not in (0, None):
            match.apply(bots[match.to_act].choice(match.legal_actions()))
