"""Engine invariants over random seeds, profiles, player counts and variants."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from voice_spades.engine import (
    CARDS,
    Card,
    CardPlayed,
    FailedNil,
    HandScored,
    Match,
    Phase,
    RuleOptions,
    TrickWon,
    deck_for,
    profile,
)

SETUPS = [
    ("pagat", 4, {}), ("classic-fr", 4, {}), ("cardgames", 4, {}), ("two-player", 2, {}),
    ("playroom", 3, {}), ("playroom", 4, {}), ("playroom", 5, {}), ("playroom", 6, {}),
    ("playroom", 4, {"no_hell": True, "suicide": True}), ("playroom", 3, {"quicksand": True}),
    ("playroom", 6, {"no_hell": True}), ("playroom", 4, {"quicksand": True, "no_hell": True}),
]


def build(index: int) -> RuleOptions:
    name, players, variants = SETUPS[index]
    return profile(name, players=players, **variants)


def oracle_legal(hand: list[Card], card: Card, trick: list[tuple[int, Card]],
                 broken: bool) -> bool:
    """The rules restated independently of the engine's bit masks."""
    if card not in hand:
        return False
    if trick:
        led = trick[0][1].suit
        return card.suit == led or all(c.suit != led for c in hand)
    if card.suit.name == "SPADES" and not broken:
        return all(c.suit.name == "SPADES" for c in hand)
    return True


def oracle_winner(trick: list[tuple[int, Card]]) -> int:
    spades = [(c.rank, s) for s, c in trick if c.suit.name == "SPADES"]
    if spades:
        return max(spades)[1]
    led = trick[0][1].suit
    return max((c.rank, s) for s, c in trick if c.suit == led)[1]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), setup=st.integers(0, len(SETUPS) - 1),
       hands=st.integers(1, 3))
def test_random_play_keeps_every_invariant(seed: int, setup: int, hands: int) -> None:
    rules = build(setup)
    rng = random.Random(seed)
    match = Match(rules, seed)
    for _ in range(hands):
        if match.is_over:
            break
        hand = match.hand
        held = [list(hand.hand_of(s)) for s in range(rules.players)]
        if rules.deal.value == "deal":
            dealt = [c for h in held for c in h]
            assert sorted(dealt, key=lambda c: c.index) == deck_for(rules)
        trick: list[tuple[int, Card]] = []
        broken = False
        scores_before, bags_before = list(match.scores), list(match.bags)
        while True:
            if hand.phase is Phase.PLAY and not trick:
                held = [list(hand.hand_of(s)) for s in range(rules.players)]
                if sum(map(len, held)) == rules.players * rules.hand_size:
                    everything = [c for h in held for c in h]
                    assert len(set(everything)) == len(everything)
            action = rng.choice(match.legal_actions())
            seat = match.hand.to_act
            if isinstance(action, Card):
                assert oracle_legal(hand.hand_of(seat), action, trick, broken)
            events = match.apply(action)
            for event in events:
                if isinstance(event, CardPlayed):
                    trick.append((event.seat, event.card))
                    if event.card.suit.name == "SPADES" and len(trick) > 1 \
                            and trick[0][1].suit.name != "SPADES":
                        broken = True
                    if len(trick) == 1 and event.card.suit.name == "SPADES" \
                            and rules.forced_spade_lead_breaks:
                        broken = True
                elif isinstance(event, TrickWon):
                    assert event.winner == oracle_winner(trick)
                    assert len(trick) == rules.players
                    trick = []
                elif isinstance(event, HandScored):
                    finished = match.finished[-1]
                    assert sum(finished.tricks_won) == rules.hand_size
                    for side in event.score.sides:
                        assert side.total == (side.contract_points + side.bag_points
                                              + side.nil_points + side.exact_bonus
                                              + side.big_bonus + side.bag_penalty)
                        assert side.score_before == scores_before[side.side]
                        assert side.bags_before == bags_before[side.side]
                        assert 0 <= side.bags_after < rules.bag_limit
                        if rules.quicksand:
                            assert side.new_bags == 0
                    if not rules.quicksand and rules.failed_nil is not FailedNil.BAGS_NO_POINTS:
                        for score, bags in zip(event.scores, event.bags, strict=True):
                            assert score % 10 == bags % 10  # playroom's last-digit rule
            if match.is_over or match.hand is not hand:
                break
        assert all(b >= 0 for b in match.bags)
    text = match.to_json()
    assert Match.from_json(text).to_json() == text


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), setup=st.integers(0, len(SETUPS) - 1),
       steps=st.integers(0, 120))
def test_json_round_trip_is_exact_at_any_point(seed: int, setup: int, steps: int) -> None:
    rules = build(setup)
    rng = random.Random(seed)
    match = Match(rules, seed)
    for _ in range(steps):
        match.apply(rng.choice(match.legal_actions()))
    text = match.to_json()
    again = Match.from_json(text)
    assert again.to_json() == text
    for seat in range(rules.players):
        assert again.view(seat) == match.view(seat)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_two_player_draw_uses_whole_deck(seed: int) -> None:
    rules = profile("two-player")
    rng = random.Random(seed)
    match = Match(rules, seed)
    hand = match.hand
    while hand.phase in (Phase.BLIND_NIL, Phase.DRAW, Phase.EXCHANGE):
        match.apply(rng.choice(match.legal_actions()))
    assert [m.bit_count() for m in hand.hands] == [13, 13]
    everything = hand.hands[0] | hand.hands[1]
    for index in hand.discards:
        assert not everything >> index & 1
        everything |= 1 << index
    assert everything == (1 << 52) - 1 and len(hand.discards) == 26
    assert len(CARDS) == 52
