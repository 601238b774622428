"""A session that has just seen the last action of a whole bot-played match."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.session.fakes import RecordingOutput
from voice_spades.bots import make_bot
from voice_spades.bots.base import decide
from voice_spades.engine import Action, Event, Match, RuleOptions
from voice_spades.session import Ports, Session
from voice_spades.storage import SaveStore, Stats


def actions_of_a_whole_match(rules: RuleOptions, seed: int, level: str = "easy") -> list[Action]:
    """Every action of a match the bots at ``level`` play to its end."""
    match = Match(rules, seed)
    bots = [make_bot(level, seat, rules) for seat in range(rules.players)]
    actions: list[Action] = []
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        actions.append(decide(bots[seat], match.view(seat)))
        match.apply(actions[-1])
        assert match.hands_played < 200, "the bots never ended their match"
    return actions


@dataclass
class MatchEnd:
    """The session, its output and files, and the events of the match's last action."""

    session: Session
    match: Match
    out: RecordingOutput
    store: SaveStore
    events: list[Event]


def end_a_match(tmp_path: Path, rules: RuleOptions, seed: int) -> MatchEnd:
    """Replay a whole bot match, saved before its last action; the session then sees it."""
    actions = actions_of_a_whole_match(rules, seed)
    match = Match(rules, seed)
    for action in actions[:-1]:
        match.apply(action)
    out = RecordingOutput()
    stats, store = Stats(tmp_path / "stats.json"), SaveStore(tmp_path / "savegame.json")
    session = Session(match, Ports(out, store=store, stats=stats))
    session.save()
    events = list(match.apply(actions[-1]))
    session.after_action(events)
    return MatchEnd(session, match, out, store, events)
