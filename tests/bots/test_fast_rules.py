"""The bots' fast copy of the trick rules agrees with the engine, state by state.

In the manner of OpenSpiel's consistency tests: random deals of every profile, player
count and variant are played through the engine with random legal actions, and at
every play-phase state the bots' bare-mask rules are compared with the engine's:
the legal cards and spades broken (bots/rollout.py), the trick winner and which cards
would take the trick (bots/bits.py), the voids the bots infer (bots/knowledge.py), and
the trick counts a whole look-ahead play-out ends with (the rollout's Position).
"""

from __future__ import annotations

import random

import pytest

from tests.bots.helpers import variant_profile
from voice_spades.bots.bits import beaters, can_beat, indices, trick_best
from voice_spades.bots.knowledge import read_view
from voice_spades.bots.policy import choose_card
from voice_spades.bots.rollout import Position, breaks_spades, legal_cards, play_out
from voice_spades.bots.table import Table
from voice_spades.engine import (
    CARDS,
    Card,
    FirstLead,
    HandState,
    Match,
    Phase,
    RuleOptions,
    TrickWon,
    legal_mask,
    trick_winner_index,
)

TABLES: list[tuple[str, int | None, dict[str, bool]]] = [
    ("pagat", None, {}), ("classic-fr", None, {}), ("cardgames", None, {}),
    ("two-player", None, {}),
    ("playroom", 3, {}), ("playroom", 4, {}), ("playroom", 5, {}), ("playroom", 6, {}),
    ("playroom", 4, {"no_hell": True}), ("playroom", 4, {"suicide": True}),
    ("playroom", 3, {"quicksand": True}), ("playroom", 6, {"no_hell": True}),
    ("playroom", 4, {"no_hell": True, "suicide": True, "quicksand": True}),
]
DEALS = 5
"""Random deals per table (each also played once with the 2-of-clubs first lead)."""
PLAY_OUT_EVERY = 6
"""A whole play-out is compared from every this many play states."""


def all_rules() -> list[RuleOptions]:
    rules = [variant_profile(name, players, variants=variants)
             for name, players, variants in TABLES]
    house = [r.with_options(first_lead=FirstLead.TWO_OF_CLUBS) for r in rules
             if r.players != 2]
    return rules + house


RULES = all_rules()


def led_of(hand: HandState) -> int:
    return hand.trick[0][1] // 13 if hand.trick else -1


def two_clubs_leads(hand: HandState) -> bool:
    """The rollout's flag: the house rule applies and no card has been played yet."""
    return hand.rules.first_lead is FirstLead.TWO_OF_CLUBS and not hand.completed \
        and not hand.trick


def check_legal_cards(hand: HandState) -> None:
    seat = hand.to_act
    fast = legal_cards(hand.hands[seat], led_of(hand), hand.spades_broken,
                       two_clubs_leads(hand))
    assert fast == hand.legal_play_mask()


def check_trick_rules(hand: HandState) -> None:
    """The current winner, the beating cards of the seat to act, and whether each seat
    still to play could beat the card now winning."""
    if not hand.trick:
        return
    trick = list(hand.trick)
    assert trick_best(trick) == trick[trick_winner_index(trick)]
    _, best = trick_best(trick)
    seat = hand.to_act
    legal = hand.legal_play_mask()
    winners = sum(1 << c for c in indices(legal)
                  if trick_winner_index([*trick, (seat, c)]) == len(trick))
    assert beaters(legal, best) == winners
    led = led_of(hand)
    led_suit = hand.led_suit
    for step in range(hand.players - len(trick)):
        later = (seat + step) % hand.players
        holding = hand.hands[later]
        engine_says = any(trick_winner_index([*trick, (later, c)]) == len(trick)
                          for c in indices(legal_mask(holding, led_suit, hand.spades_broken)))
        assert can_beat(holding, best, led) == engine_says


def check_knowledge(match: Match) -> None:
    """The voids a seat infers from its view never exclude a card another seat holds."""
    hand = match.hand
    know = read_view(match.view(hand.to_act))
    for seat, cards in enumerate(hand.hands):
        assert cards & ~know.possible[seat] == 0, (seat, know.voids)


def check_play_out(match: Match) -> None:
    """The rollout's play-out from this state ends with the trick counts the engine
    reaches when every seat plays the same policy card."""
    hand = match.hand
    table = Table(hand.rules, hand.bids, match.scores, match.bags)
    pos = Position(list(hand.hands), list(hand.trick), hand.to_act, hand.spades_broken,
                   list(hand.tricks_won), two_clubs_leads(hand))
    fast = play_out(pos, table)
    mirror = hand.copy()
    while mirror.phase is Phase.PLAY:
        legal = mirror.legal_play_mask()
        seat = mirror.to_act
        card = legal.bit_length() - 1 if not legal & (legal - 1) else choose_card(
            seat, legal, list(mirror.trick), mirror.hands, mirror.tricks_won, table, True)
        mirror.apply(CARDS[card])
    assert fast == mirror.tricks_won


def play_and_check(rules: RuleOptions, seed: int) -> int:
    """One random hand of ``rules``; returns how many play states were checked."""
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while match.hand.phase is not Phase.OVER and match.hands_played == 0:
        hand = match.hand
        if hand.phase is not Phase.PLAY:
            match.apply(rng.choice(match.legal_actions()))
            continue
        check_legal_cards(hand)
        check_trick_rules(hand)
        check_knowledge(match)
        if checked % PLAY_OUT_EVERY == seed % PLAY_OUT_EVERY:
            check_play_out(match)
        card = rng.choice(match.legal_actions())
        assert isinstance(card, Card)
        led, broken, full = led_of(hand), hand.spades_broken, len(hand.trick) + 1
        plays = [*hand.trick, (hand.to_act, card.index)]
        events = match.apply(card)
        if full == rules.players:
            won = next(e for e in events if isinstance(e, TrickWon))
            assert trick_best(plays)[0] == won.winner
        after = match.hand if match.hands_played == 0 else match.finished[0]
        expected = broken or breaks_spades(card.index, led, rules.forced_spade_lead_breaks)
        assert after.spades_broken == expected
        checked += 1
    return checked


@pytest.mark.parametrize("rules", RULES, ids=lambda r: (
    f"{r.name}-{r.players}{'-nohell' * r.no_hell}{'-suicide' * r.suicide}"
    f"{'-quicksand' * r.quicksand}{'-2c' * (r.first_lead is FirstLead.TWO_OF_CLUBS)}"))
def test_bots_fast_rules_match_the_engine(rules: RuleOptions) -> None:
    checked = sum(play_and_check(rules, seed) for seed in range(DEALS))
    assert checked == DEALS * rules.hand_size * rules.players
