"""Card tracking: voids from showing out, consistent samples, two-player unknowns."""

from __future__ import annotations

import random

from tests.bots.helpers import bid_all, deal_with, play_cards, view_of
from voice_spades.bots.bits import SUITS
from voice_spades.bots.knowledge import read_view
from voice_spades.bots.sampler import DealSampler
from voice_spades.engine import Match, Phase, profile


def test_showing_out_marks_a_void_and_samples_respect_it() -> None:
    """West discards on a heart lead: no sampled deal gives West a heart."""
    rules = profile("pagat")
    hand = deal_with(rules, {0: "5H 9H AH KC", 1: "2C", 2: "7H", 3: "8H"},
                     dealer=3, avoid={1: "H"})
    bid_all(hand, [3, 3, 3, 3])
    play_cards(hand, "5H 2C 7H 8H")
    view = view_of(hand, 0)
    know = read_view(view)
    assert know.is_void(1, 2)
    assert not know.is_void(2, 2)
    assert know.possible[1] & SUITS[2] == 0
    sampler = DealSampler(know)
    rng = random.Random(5)
    for _ in range(200):
        hands = sampler.sample(rng)
        assert hands is not None
        assert hands[1] & SUITS[2] == 0
        for seat in range(4):
            assert hands[seat].bit_count() == view.cards_held[seat]
        assert hands[0] == view.hand
        everyone = 0
        for mask in hands:
            assert not mask & everyone
            everyone |= mask
        assert everyone | view.played == (1 << 52) - 1


def test_several_voids_are_all_respected() -> None:
    """Voids in two suits at two seats: every sample still fits."""
    rules = profile("pagat")
    hand = deal_with(rules, {0: "2H 3D 4H 5D", 1: "2C 3C", 2: "9H 9D", 3: "4C 5C"},
                     dealer=3, avoid={1: "HD", 3: "HD"})
    bid_all(hand, [2, 2, 2, 2])
    play_cards(hand, "2H 2C 9H 4C")
    play_cards(hand, "9D 5C 3D 3C")
    know = read_view(view_of(hand, 0))
    assert know.is_void(1, 2) and know.is_void(3, 1) and know.is_void(1, 1)
    sampler = DealSampler(know)
    rng = random.Random(1)
    for _ in range(100):
        hands = sampler.sample(rng)
        assert hands is not None
        for seat in (1, 3):
            assert hands[seat] & (SUITS[1] | SUITS[2]) == 0


def test_spade_lead_before_broken_means_only_spades() -> None:
    """Leading a spade before spades are broken shows a hand of nothing but spades."""
    rules = profile("pagat")
    spades = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    hand = deal_with(rules, {0: spades}, dealer=3)
    bid_all(hand, [9, 1, 1, 1])
    play_cards(hand, "2S")
    know = read_view(view_of(hand, 1))
    assert know.voids[0] == 0b0111


def test_two_player_unknown_cards() -> None:
    """Two players: our discards are out; the opponent's 13 are among the rest."""
    rules = profile("two-player")
    match = Match(rules, seed=3)
    while match.hand.phase is not Phase.BID:
        match.apply(match.legal_actions()[0])
    view = match.view(0)
    know = read_view(view)
    assert know.unseen & view.known_out == 0
    assert know.unseen & view.hand == 0
    assert know.unseen.bit_count() == 52 - 13 - view.known_out.bit_count()
    assert know.out_of_play == know.unseen.bit_count() - 13
    hands = DealSampler(know).sample(random.Random(2))
    assert hands is not None
    assert hands[1].bit_count() == 13
    assert hands[1] & (view.hand | view.known_out) == 0
