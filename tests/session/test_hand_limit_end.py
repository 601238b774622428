"""The hand limit, as the player meets it: the end after the limit's hand says why the
match ended, records the result and clears the save; the target key (Z) says every way
the match can end; ``--hands`` sets the limit (0: none) and a resumed match keeps its
own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.session.fakes import RecordingOutput
from tests.session.match_end import end_a_match
from voice_spades.app import build_parser, check_options
from voice_spades.commands import Ask, Query
from voice_spades.engine import InvalidInputError, Match, MatchEnd, MatchOver, profile
from voice_spades.narration import Phrasebook, render_message
from voice_spades.session import Ports, Session
from voice_spades.session.settings import GameSettings
from voice_spades.session.startup import open_game
from voice_spades.storage import SaveStore, Stats

SIX = profile("playroom", players=6)


def test_the_end_at_the_hand_limit_is_said_recorded_and_cleared(tmp_path: Path) -> None:
    end = end_a_match(tmp_path, SIX, seed=3)
    out, store, events = end.out, end.store, end.events

    over = events[-1]
    assert isinstance(over, MatchOver) and over.hands_played == 30
    words = Phrasebook(SIX, 0)
    best = max(over.scores)
    said = (f"After 30 hands, the highest score wins: {words.side_cap(over.winner)}, "
            f"with {words.signed(best)}.")
    assert said in out.texts
    again = Stats(tmp_path / "stats.json")
    again.load()
    assert sum(again.of("playroom")) == 1
    assert not store.path.exists()


def target_answer(session: Session, out: RecordingOutput) -> str:
    session.handle(Ask(Query.TARGET))
    return out.last().text


def test_the_target_key_says_the_losing_score_and_the_hand_limit() -> None:
    answers = {}
    for name, rules in [("both", profile("pagat", hand_limit=12)),
                        ("neither", profile("pagat", ending=MatchEnd.TARGET, hand_limit=None)),
                        ("one hand", profile("playroom", players=3, target=1000,
                                             ending=MatchEnd.TARGET, hand_limit=1))]:
        out = RecordingOutput()
        session = Session(Match(rules, 3), Ports(out))
        answers[name] = target_answer(session, out)
    assert answers["both"] == ("Game to 500 points. Every 10 bags cost 100 points. Nil "
                               "scores 100. A side at minus 500 or below ends the match. "
                               "After 12 hands, the highest score wins.")
    assert answers["neither"] == ("Game to 500 points. Every 10 bags cost 100 points. Nil "
                                  "scores 100.")
    assert answers["one hand"].endswith(" Nil scores 100. After 1 hand, the highest score "
                                        "wins.")


@pytest.mark.parametrize(("args", "limit"), [([], 30), (["--hands", "12"], 12),
                                             (["--hands", "0"], None)])
def test_hands_on_the_command_line_sets_the_limit(tmp_path: Path, args: list[str],
                                                  limit: int | None) -> None:
    parsed = build_parser().parse_args(["--data-dir", str(tmp_path), *args])
    requested, given, _ = check_options(parsed)
    assert requested.rule_options().hand_limit == limit
    assert ("hands" in given) == bool(args)


@pytest.mark.parametrize("hands", ["-1", "1001"])
def test_hands_out_of_range_is_refused_naming_the_option(tmp_path: Path, hands: str) -> None:
    parsed = build_parser().parse_args(["--data-dir", str(tmp_path), "--hands", hands])
    with pytest.raises(InvalidInputError) as err:
        check_options(parsed)
    assert render_message(err.value.message) == \
        f"--hands must be a number of hands from 0 (no limit) to 1000, not {hands}."


def test_a_resumed_match_keeps_its_own_limit(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "savegame.json")
    settings = GameSettings(rules="playroom", players=6, seed=5, hands=12)
    store.save(Match(settings.rule_options(), 5), settings.to_dict())
    opening = open_game(store, GameSettings(rules="playroom", players=6, hands=40),
                        {"hands"}, fresh=False)
    assert opening.resumed and opening.match.rules.hand_limit == 12
    assert opening.settings.hands == 12
    assert [m.id for m in opening.notices] == ["setup.options_ignored"]
    assert opening.notices[0].fields["options"] == "--hands"
