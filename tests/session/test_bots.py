"""The computer players at the table: the partner always plays Hard."""

from __future__ import annotations

from voice_spades.engine import profile
from voice_spades.session.bots import make_bots


def test_partner_plays_hard_and_opponents_at_the_level() -> None:
    bots = make_bots(profile("pagat"), "easy", seed=1)
    assert sorted(bots) == [1, 2, 3]
    assert bots[2].name == "hard"
    assert bots[1].name == bots[3].name == "easy"


def test_without_partnerships_every_bot_plays_at_the_level() -> None:
    bots = make_bots(profile("playroom", players=5), "medium", seed=1)
    assert sorted(bots) == [1, 2, 3, 4] and {b.name for b in bots.values()} == {"medium"}
    assert [b.name for b in make_bots(profile("two-player"), "easy", 1).values()] == ["easy"]
