"""Bots finish whole matches in every profile, and the factory knows its levels."""

from __future__ import annotations

import pytest

from tests.bots.helpers import variant_profile
from voice_spades.bots import LEVELS, decide, make_bot
from voice_spades.engine import InvalidInputError, Match, profile
from voice_spades.narration import render_message

MATCHES = [
    ("pagat", None, {}), ("classic-fr", None, {}), ("cardgames", None, {}),
    ("two-player", None, {}), ("playroom", 3, {"no_hell": True}),
    ("playroom", 4, {"suicide": True}), ("playroom", 5, {"quicksand": True}),
    ("playroom", 6, {}),
]


@pytest.mark.parametrize(("name", "players", "variants"), MATCHES)
def test_bots_finish_a_match(name: str, players: int | None,
                             variants: dict[str, bool]) -> None:
    """Mixed levels play a short match to its end."""
    rules = variant_profile(name, players, 150, variants)
    match = Match(rules, seed=11)
    bots = [make_bot(LEVELS[(s + 2) % 3], s, rules, seed=s, time_budget=0.01)
            for s in range(rules.players)]
    while not match.is_over and match.hands_played < 200:
        seat = match.to_act
        assert seat is not None
        match.apply(decide(bots[seat], match.view(seat)))
    assert match.is_over


def test_make_bot_levels() -> None:
    """Every level builds; anything else is refused."""
    rules = profile("pagat")
    assert LEVELS == ("easy", "medium", "hard")
    for level in LEVELS:
        assert make_bot(level, 0, rules).name == level
    with pytest.raises(InvalidInputError) as err:
        make_bot("expert", 0, rules)
    assert render_message(err.value.message) == (
        "There is no 'expert' level. Choose one of: easy, medium, hard.")
    with pytest.raises(ValueError):
        make_bot("easy", 4, rules)
