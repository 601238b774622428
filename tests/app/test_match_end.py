"""A match nobody can win ends, and the player hears why: six easy players sink until
one falls to minus the target; the session's match-over path says so, records the
result and clears the save."""

from __future__ import annotations

from pathlib import Path

from tests.session.match_end import end_a_match
from voice_spades.engine import MatchOver, OutcomeReason, profile
from voice_spades.narration import Phrasebook
from voice_spades.storage import Stats

SIX = profile("playroom", players=6, hand_limit=None)
"""No hand limit: the losing score is what ends these matches."""


def test_the_end_at_minus_the_target_is_said_recorded_and_cleared(tmp_path: Path) -> None:
    end = end_a_match(tmp_path, SIX, seed=3)
    match, out, store, events = end.match, end.out, end.store, end.events

    over = events[-1]
    assert isinstance(over, MatchOver)
    outcome = match.outcome()
    assert outcome is not None and outcome.reason is OutcomeReason.LOSING_SCORE_REACHED
    low = min(over.scores)
    assert low <= -500 < max(over.scores) < 500
    side = Phrasebook(SIX, 0).side_cap(over.scores.index(low))
    said = (f"The match ended because {side} fell to minus {-low}, at or below minus 500: "
            "the highest score wins.")
    assert said in out.texts
    assert out.texts.index(said) > next(i for i, line in enumerate(out.lines)
                                        if line.message_id.startswith("match."))
    again = Stats(tmp_path / "stats.json")
    again.load()
    assert sum(again.of("playroom")) == 1
    assert not store.path.exists()
