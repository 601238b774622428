"""What the session says when a match starts and when it ends: the welcome, the end of
the match (why it ended when not at the target, the player's record, the save cleared)
and the goodbye said when the game could not be saved."""

from __future__ import annotations

import logging

from voice_spades.engine import MatchOver, OutcomeReason
from voice_spades.narration import Hints, Line, Priority
from voice_spades.session.game import Game
from voice_spades.session.ports import Ports
from voice_spades.session.settings import GameSettings
from voice_spades.storage import write_problem

_log = logging.getLogger(__name__)

UNSAVED = {"session.saved_quit": "session.quit_unsaved",
           "session.input_ended": "session.input_ended_unsaved"}
"""The goodbye said instead when the game could not be saved: why, and what to do."""


def welcome(game: Game, settings: GameSettings, hints: Hints) -> Line:
    """The greeting of a new match: rules, players, level, seating, the help key (in
    short, the rules, the number of players where the rules allow several, and the help
    key: the rest is the player's own choice, or said in every line, "partner North")."""
    rules, words = game.table.rules, game.words
    partner = rules.partner_of(game.human)
    seating = words.say("session.seating", place=words.compass(game.human)) \
        if partner is None else words.say("session.seating_partner",
                                          place=words.compass(game.human),
                                          partner_place=words.compass(partner))
    low, high = rules.player_range
    table = words.say("session.table", players=rules.players) if low != high else ""
    return game.line("session.welcome", rules=rules.name, players=rules.players, table=table,
                     level=words.say("session.level", level=words.say(
                         f"session.level_name.{settings.level}")),
                     seating=seating, help=hints.help)


def match_over(game: Game, ports: Ports, human: int, event: MatchOver) -> list[Line]:
    """Said once the match is over: why it ended (when not at the target), the player's
    record (saved to the statistics), and what to do next; the finished match's save
    is deleted."""
    rules = game.table.rules
    won = rules.side_of(human) == event.winner
    lines = ending(game, event)
    stats, store = ports.stats, ports.store
    if stats is not None:
        try:
            stats.record(rules.name, won)
            wins, losses = stats.of(rules.name)
            lines.append(game.line("session.stats", rules=rules.name, wins=wins,
                                   losses=losses))
        except OSError as exc:
            lines.append(game.line("session.record_not_saved",
                                   reason=write_problem(exc, stats.path.parent)))
    if store is not None:
        try:
            store.delete()
        except OSError:
            _log.warning("the finished match's save could not be deleted")
    return [*lines, game.over_prompt()]


def ending(game: Game, event: MatchOver) -> list[Line]:
    """Why the match ended, when it was not at the target: a side fell to the losing
    score, or the hand limit was reached (the highest score wins)."""
    rules, words = game.table.rules, game.words
    outcome = game.table.outcome()
    reason = None if outcome is None else outcome.reason
    if reason is OutcomeReason.LOSING_SCORE_REACHED:
        low = min(event.scores)
        return [game.line("match.losing_score", priority=Priority.HIGH,
                          Side=words.side_cap(event.scores.index(low)),
                          score=words.signed(low), target=rules.target)]
    if reason is OutcomeReason.HAND_LIMIT_REACHED:
        return [game.line("match.hand_limit", priority=Priority.HIGH,
                          hands=event.hands_played,
                          Side=words.side_cap(event.winner),
                          score=words.signed(event.scores[event.winner]))]
    return []
