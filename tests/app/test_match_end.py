"""A match nobody can win ends, and the player hears why: six easy players sink until
one falls to minus the target; the session's match-over path says so, records the
result and clears the save."""

from __future__ import annotations

from pathlib import Path

from tests.session.fakes import RecordingOutput
from voice_spades.bots import make_bot
from voice_spades.bots.base import decide
from voice_spades.engine import Action, Match, MatchOver, OutcomeReason, profile
from voice_spades.narration import Phrasebook
from voice_spades.session import Ports, Session
from voice_spades.storage import SaveStore, Stats

SIX = profile("playroom", players=6, hand_limit=None)
"""No hand limit: the losing score is what ends these matches."""


def actions_of_a_whole_match(seed: int) -> list[Action]:
    match = Match(SIX, seed)
    bots = [make_bot("easy", seat, SIX) for seat in range(SIX.players)]
    actions: list[Action] = []
    while not match.is_over:
        seat = match.hand.to_act
        actions.append(decide(bots[seat], match.view(seat)))
        match.apply(actions[-1])
        assert match.hands_played < 200, "six easy players never ended their match"
    return actions


def test_the_end_at_minus_the_target_is_said_recorded_and_cleared(tmp_path: Path) -> None:
    actions = actions_of_a_whole_match(seed=3)
    match = Match(SIX, 3)
    for action in actions[:-1]:
        match.apply(action)
    out = RecordingOutput()
    stats, store = Stats(tmp_path / "stats.json"), SaveStore(tmp_path / "savegame.json")
    session = Session(match, Ports(out, store=store, stats=stats))
    session.save()
    events = match.apply(actions[-1])
    session.after_action(events)

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
