"""The session plays a table from any seat, and tells its watchers the typed state."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.session.fakes import RecordingOutput
from tests.session.test_full_match import play_turn
from voice_spades.bots import Bot
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.engine import Event, HandScored, Match, RuleOptions, profile
from voice_spades.errors import InvalidStateError
from voice_spades.narration import Verbosity
from voice_spades.session import Decision, GameSettings, Pacer, Ports, Session
from voice_spades.storage import SaveStore
from voice_spades.table import LocalTable, TableSnapshot


def around(rules: RuleOptions, settings: GameSettings) -> Mapping[int, Bot]:
    """Random-legal bots in every seat but the settings' own."""
    return {seat: LegalMovePlayer(seed=settings.seed + seat)
            for seat in range(rules.players) if seat != settings.seat}


def seated(seat: int, seed: int = 5, store: SaveStore | None = None,
           match: Match | None = None) -> tuple[Session, RecordingOutput]:
    out = RecordingOutput()
    settings = GameSettings(seed=seed, seat=seat)
    session = Session(match or Match(profile("pagat"), seed),
                      Ports(out, store=store, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=settings, bot_factory=around)
    return session, out


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_whole_hand_is_played_from_another_seat(seat: int) -> None:
    session, out = seated(seat)
    session.start()
    rng = random.Random(seat)
    for _ in range(200):  # a hand is 4 bids and 52 plays: 13 bids and plays are the player's
        session.play_bots()
        if session.match.hands_played >= 1:
            break
        play_turn(session, out, rng)  # asserts "You bid" / "You played" for the player's own
    assert session.match.hands_played == 1
    assert session.human == seat and session.view.seat == seat
    first = session.match.finished[0]
    # The player's own bid, said "You bid", is the bid of the table's seat.
    assert sum(text.startswith("You bid") for text in out.texts) == 1
    assert first.bids[seat] is not None
    hand_scored = [line for line in out.lines if line.message_id.startswith("hand.")]
    assert hand_scored


def test_the_seat_is_saved_and_a_resumed_game_plays_from_it(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "save.json")
    session, _ = seated(2, store=store)
    session.start()
    session.play_bots()
    saved = json.loads(store.path.read_text(encoding="utf-8"))
    settings = GameSettings.from_dict(saved["settings"])
    assert settings.seat == 2
    match = Match.from_dict(saved["match"])
    resumed = Session(match, Ports(RecordingOutput()), settings=settings, bot_factory=around)
    assert resumed.human == 2
    assert resumed.view == session.match.view(2)
    assert resumed.match.to_act == 2


@pytest.mark.parametrize("seat", [-1, 4])
def test_a_saved_seat_off_the_table_is_refused_by_name(seat: int) -> None:
    with pytest.raises(InvalidStateError) as raised:
        GameSettings.from_dict({"rules": "pagat", "seat": seat})
    assert raised.value.message.fields["name"] == "seat"


def test_a_local_table_wants_a_bot_in_every_other_seat() -> None:
    match = Match(profile("pagat"), 1)
    with pytest.raises(ValueError, match=r"\[3\]"):
        LocalTable(match, {0: LegalMovePlayer(), 1: LegalMovePlayer()}, seat=2)
    with pytest.raises(ValueError, match="seat 4"):
        LocalTable(match, {}, seat=4)


def test_watchers_get_every_event_in_order_with_the_view_after_it() -> None:
    session, _ = seated(1, seed=9)
    snapshots: list[TableSnapshot] = []
    views_then = []

    def watcher(snapshot: TableSnapshot) -> None:
        snapshots.append(snapshot)
        views_then.append(session.match.view(1))

    session.start()
    session.watch(watcher)
    rng = random.Random(1)
    for _ in range(200):
        session.play_bots()
        if session.match.hands_played >= 1:
            break
        session.carry_out(Decision(action=rng.choice(session.view.legal)))
    assert snapshots[0].events == ()  # the state at once, before any change
    for snapshot, view in zip(snapshots, views_then, strict=True):
        assert snapshot.view == view and snapshot.seat == 1
    events: list[Event] = [e for s in snapshots for e in s.events]
    # Replayed from the same seed with the same actions, the match gives the same events.
    replay = Match(profile("pagat"), 9)
    expected: list[Event] = []
    for action in session.match.finished[0].actions:
        expected += replay.apply(action)
    assert events[:len(expected)] == expected
    assert any(isinstance(e, HandScored) for e in events)
    assert snapshots[-1].to_act == session.match.to_act


@pytest.mark.parametrize(("rules", "seat", "seating"), [
    ("pagat", 0, "You are South, partner North."),
    ("pagat", 1, "You are West, partner East."),
    ("pagat", 2, "You are North, partner South."),
    ("playroom", 2, "You sit East."),
])
def test_the_verbose_welcome_words_the_seat_the_session_plays(rules: str, seat: int,
                                                              seating: str) -> None:
    out = RecordingOutput()
    settings = GameSettings(rules=rules, seed=5, seat=seat)
    match = Match(profile(rules, players=3 if rules == "playroom" else None), 5)
    session = Session(match, Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=settings, bot_factory=around, verbosity=Verbosity.VERBOSE)
    session.start()
    assert out.ids[0] == "session.welcome"
    assert f" {seating} " in out.texts[0]
    assert session.human == seat
