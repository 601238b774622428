"""Rule profiles: presets, player counts, variants, hand sizes."""

import pytest

from tests.engine.helpers import raises_saying
from voice_spades.engine import (
    PROFILE_NAMES,
    Deal,
    FailedNil,
    deck_for,
    options_from_dict,
    options_to_dict,
    profile,
)
from voice_spades.errors import InvalidInputError


def test_the_five_profiles_and_their_defining_rules() -> None:
    assert PROFILE_NAMES[0] == "pagat"
    assert set(PROFILE_NAMES) == {"pagat", "classic-fr", "cardgames", "playroom", "two-player"}
    assert profile("pagat").failed_nil is FailedNil.BAGS
    assert profile("classic-fr").failed_nil is FailedNil.BAGS_NO_POINTS
    assert profile("cardgames").failed_nil is FailedNil.FOR_PARTNER
    assert not profile("classic-fr").blind_nil
    two = profile("two-player")
    assert two.players == 2 and two.deal is Deal.DRAW and two.blind_nil
    assert two.blind_nil_points == 200 and two.forced_spade_lead_breaks
    room = profile("playroom")
    assert room.exact_bid_bonus == 20 and room.big_contract_bonus == 10
    assert [name for name in PROFILE_NAMES if profile(name).forced_spade_lead_breaks] == [
        "cardgames", "playroom", "two-player"]


@pytest.mark.parametrize(("players", "size", "removed"), [(3, 17, 1), (4, 13, 0), (5, 10, 2),
                                                          (6, 8, 4)])
def test_playroom_hand_sizes_and_removed_twos(players: int, size: int, removed: int) -> None:
    rules = profile("playroom", players=players)
    assert rules.hand_size == size
    deck = deck_for(rules)
    assert len(deck) == players * size == 52 - removed
    removed_codes = {"2C", "2D", "2H", "2S"} - {c.code for c in deck if c.rank == 2}
    assert removed_codes == set(["2C", "2D", "2H", "2S"][:removed])


def test_only_four_player_playroom_plays_in_partnerships() -> None:
    assert profile("playroom", players=4).sides == ((0, 2), (1, 3))
    assert profile("playroom", players=3).sides == ((0,), (1,), (2,))
    assert not profile("playroom", players=5).is_partnership


@pytest.mark.parametrize(("name", "players", "message"), [
    ("pagat", 3, "The pagat rules are for 4 players, not 3"),
    ("playroom", 7, "for 3 to 6 players, not 7"),
    ("playroom", 2, "for 3 to 6 players, not 2"),
    ("two-player", 4, "for 2 players, not 4"),
])
def test_player_count_outside_profile_is_refused(name: str, players: int, message: str) -> None:
    with raises_saying(InvalidInputError, message):
        profile(name, players=players)


def test_variants_belong_to_playroom_and_suicide_needs_partners() -> None:
    with raises_saying(InvalidInputError, "playroom variants"):
        profile("pagat", no_hell=True)
    with raises_saying(InvalidInputError, "Suicide needs partnerships"):
        profile("playroom", players=3, suicide=True)
    assert profile("playroom", no_hell=True, quicksand=True, suicide=True).suicide
    with raises_saying(InvalidInputError, "no 'bridge' rules"):
        profile("bridge")


@pytest.mark.parametrize("target", [500, 1000, 1500, 2000])
def test_targets(target: int) -> None:
    assert profile("playroom", target=target).target == target


def test_options_round_trip_and_bad_options_refused() -> None:
    for name in PROFILE_NAMES:
        rules = profile(name)
        assert options_from_dict(options_to_dict(rules)) == rules
    with raises_saying(InvalidInputError, "Unknown rule option"):
        options_from_dict({"jokers": True})
    with raises_saying(InvalidInputError, "bad value"):
        options_from_dict({"failed_nil": "whatever"})
    with raises_saying(InvalidInputError, "bad value"):
        options_from_dict({"target": "500"})
