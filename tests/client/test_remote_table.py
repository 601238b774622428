"""The session plays a remote table from its stream and says what a local game says."""

from __future__ import annotations

import random

from tests.client.stream import SeatStream
from tests.session.fakes import RecordingOutput
from tests.table.test_any_seat import seated
from voice_spades.client.remote_table import RemoteTable
from voice_spades.engine import (
    Action,
    BidMade,
    CardPlayed,
    Event,
    Match,
    action_from_text,
    profile,
)
from voice_spades.narration.catalog import Catalog
from voice_spades.protocol.wire import Act, ClientMessage
from voice_spades.session import Decision, GameSettings, Pacer, Ports, Session

SEED = 5


def local_game(seat: int, hands: int = 1) -> tuple[list[Action], list[str]]:
    """A local game at ``seat`` played until ``hands`` are over: every action of the
    match, and every line said."""
    session, out = seated(seat, seed=SEED)
    session.start()
    rng = random.Random(seat)
    while True:
        session.play_bots()
        if session.match.hands_played >= hands:
            break
        session.carry_out(Decision(action=rng.choice(session.view.legal)))
    match = session.match
    return [a for hand in [*match.finished, match.hand] for a in hand.actions], out.texts


class Wire:
    """The server's side of one seat: applies what the client sends, streams back."""

    def __init__(self, seat: int) -> None:
        self.match = Match(profile("pagat"), SEED)
        self.stream = SeatStream(self.match, seat)
        self.sent: list[ClientMessage] = []
        self.table = RemoteTable(self.sent.append)

    def deliver(self, message: dict[str, object]) -> None:
        assert self.table.receive(message)  # type: ignore[arg-type]

    def apply(self, action: Action) -> None:
        self.deliver(self.stream.state(self.match.apply(action)))


def remote_session(wire: Wire) -> tuple[Session, RecordingOutput]:
    out = RecordingOutput()
    session = Session(wire.table, Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=GameSettings(seed=SEED, seat=wire.stream.seat or 0))
    return session, out


def test_a_remote_seat_hears_a_whole_hand_as_the_local_game_says_it() -> None:
    seat = 2
    actions, local = local_game(seat)
    wire = Wire(seat)
    wire.deliver(wire.stream.welcome())
    wire.deliver(wire.stream.table())
    wire.deliver(wire.stream.state(wire.match.opening_events()))
    session, out = remote_session(wire)
    session.start()
    for action in actions:
        session.play_bots()
        if wire.match.to_act == seat:
            session.carry_out(Decision(action=action))
            sent = wire.sent.pop()
            assert isinstance(sent, Act) and action_from_text(sent.action) == action
            assert sent.at_seq == wire.stream.seq
        wire.apply(action)
    session.play_bots()
    assert session.human == seat
    assert out.texts == local
    assert session.view == wire.match.view(seat)
    # The review keys read the hand rebuilt from the stream's public events.
    previous = wire.table.previous()
    assert previous is not None and previous.number == 1
    assert previous.tricks == tuple(wire.match.finished[0].completed)
    assert previous.bids == tuple(wire.match.finished[0].bids)


def test_a_catch_up_that_brings_the_state_before_the_table_is_ready_once_both_came(
        ) -> None:
    """A game restarted with a kept seat gets the table as it stands, whose first frame
    may be the hand's state and the rules only after it: ready once it has both, even
    when nothing more happens (the table waits for this very player)."""
    wire = Wire(1)
    wire.stream.table()  # sent before the kept snapshot starts
    wire.deliver(wire.stream.state(wire.match.opening_events()))
    assert not wire.table.ready.is_set()  # no rules yet: no session can be built
    wire.deliver(wire.stream.presence(1, "Bea", "dropped"))
    wire.deliver(wire.stream.table(("", "Bea")))
    assert wire.table.ready.is_set() and wire.table.started


def test_duplicates_are_dropped_and_a_gap_is_reported() -> None:
    wire = Wire(1)
    wire.deliver(wire.stream.table())
    first = wire.stream.state(wire.match.opening_events())
    wire.deliver(first)
    assert wire.table.receive(first)  # the same seq again: dropped
    assert wire.table.duplicates == 1
    wire.stream.presence(3, "Ann", "dropped")  # seq 3 never arrives
    assert not wire.table.receive(wire.stream.presence(3, "Ann", "back"))
    assert wire.table.gaps == 1 and wire.table.last_seq == 2


def test_presence_and_chat_are_notes_chat_at_low_priority_and_mutable() -> None:
    wire = Wire(0)
    wire.deliver(wire.stream.table())
    wire.deliver(wire.stream.state(wire.match.opening_events()))
    session, out = remote_session(wire)
    session.start()
    wire.deliver(wire.stream.presence(1, "Giulia", "joined"))
    wire.deliver(wire.stream.chat(1, "Giulia", "ciao a tutti"))
    session.step()
    said = {line.message_id: line for line in out.lines}
    assert said["table.presence.joined"].text == "Giulia sat down as West."
    assert said["table.chat"].text == "Giulia, West, says: ciao a tutti"
    assert said["table.chat"].priority < said["table.presence.joined"].priority
    session.watchers.chat_muted = True
    out.clear()
    wire.deliver(wire.stream.chat(1, "Giulia", "muted?"))
    wire.deliver(wire.stream.presence(1, "Giulia", "dropped"))
    session.step()
    assert out.ids == ["table.presence.dropped"]
    out.clear()
    for state in ("bot_standing_in", "back", "left"):
        wire.deliver(wire.stream.presence(1, "Giulia", state))
    wire.deliver(wire.stream.presence(None, "Jean", "watching"))
    session.step()
    assert out.texts == ["A bot plays for Giulia, West, until they return.",
                         "Giulia, West, is back.",
                         "Giulia left the table; a bot plays West.",
                         "Jean is watching."]


def test_missed_messages_become_a_short_catch_up_and_the_view_jumps() -> None:
    seat = 1
    wire = Wire(seat)
    wire.deliver(wire.stream.table())
    wire.deliver(wire.stream.state(wire.match.opening_events()))
    session, out = remote_session(wire)
    session.start()
    rng = random.Random(3)
    while wire.match.to_act != seat:
        wire.apply(rng.choice(wire.match.legal_actions()))
    session.play_bots()
    wire.table.resuming()
    missed: list[Event] = []
    while not missed or wire.match.to_act != seat:  # the player's own bid, then to their turn
        events = wire.match.apply(rng.choice(wire.match.legal_actions()))
        missed += events
        wire.deliver(wire.stream.state(events))
    wire.deliver(wire.stream.chat(3, "Jean", "bonjour"))
    out.clear()
    wire.deliver({"t": "caught_up", "seq": wire.stream.seq, "missed": 5})
    assert session.step()  # the catch-up is said first, then the table jumps to now
    assert out.ids[0] == "table.away", out.ids
    bids = sum(isinstance(e, BidMade) for e in missed)
    plays = sum(isinstance(e, CardPlayed) for e in missed)
    assert bids and plays
    assert out.texts[0] == f"While you were away: {bids} bids, {plays} cards played."
    assert "table.chat" in out.ids
    assert session.view == wire.match.view(seat)
    assert out.lines[-1].message_id.startswith("prompt."), out.ids


def test_a_watcher_hears_every_seat_by_name_no_hand_and_no_prompt() -> None:
    match = Match(profile("pagat"), SEED)
    stream = SeatStream(match, None)
    table = RemoteTable(lambda message: None)
    for message in (stream.welcome(), stream.table(), stream.state(match.opening_events())):
        assert table.receive(message)
    assert table.watching
    out = RecordingOutput()
    session = Session(table, Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)))
    session.start(greeting=session.line("table.started"))
    rng = random.Random(4)
    while match.hands_played < 1:
        assert table.receive(stream.state(match.apply(rng.choice(match.legal_actions()))))
    session.play_bots()
    said = out.texts
    assert said[0] == "The match begins."
    assert not any(line.message_id.startswith(("prompt.", "hand.dealt")) for line in out.lines)
    assert not any(text.startswith(("You ", "Your ")) for text in said), said
    bids = [text for text in said if " bid " in text and text.endswith(".")][:4]
    assert len(bids) == 4 and all(text.split()[0] in ("North", "East", "South", "West")
                                  for text in bids), bids
    assert any(message_id.startswith("hand.") for message_id in out.ids[-6:])


def watcher_presence(wire: Wire, name: str, state: str, watcher: int) -> dict[str, object]:
    return {**wire.stream.presence(None, name, state), "watcher": watcher}


def test_a_watchers_drop_return_and_leaving_are_said_in_each_language() -> None:
    wire = Wire(0)
    wire.deliver(wire.stream.table())
    wire.deliver(wire.stream.state(wire.match.opening_events()))
    session, out = remote_session(wire)
    session.start()
    out.clear()
    for state in ("watching", "dropped", "back", "left"):
        wire.deliver(watcher_presence(wire, "Jean", state, 0))
    session.step()
    assert out.texts == ["Jean is watching.", "Jean, watching, lost the connection.",
                         "Jean, watching, is back.", "Jean stopped watching."]
    words = {"it": Catalog("it", strict=True), "fr": Catalog("fr", strict=True)}
    heard = {lang: [catalog.render(line.message_id, name="Jean") for line in out.lines]
             for lang, catalog in words.items()}
    assert heard["it"] == ["Jean sta guardando.", "Jean, che guarda, ha perso la connessione.",
                           "Jean, che guarda, è di nuovo collegato.",
                           "Jean ha smesso di guardare."]
    assert heard["fr"][1:] == ["Jean, qui regarde, a perdu la connexion.",
                               "Jean, qui regarde, est de retour.",
                               "Jean ne regarde plus la partie."]


def test_a_watcher_is_silent_about_its_own_return_not_about_another_watchers() -> None:
    wire = Wire(0)
    table = RemoteTable(wire.sent.append)
    table.receive({**wire.stream.welcome(), "seat": None, "watcher": 1})  # type: ignore[dict-item]
    for watcher in (1, 0):
        assert table.receive(watcher_presence(wire, "Jean", "back", watcher))  # type: ignore[arg-type]
    assert [note.message.id for note in table.notes()] == ["table.presence.watcher_back"]


def test_a_line_refused_for_too_many_connections_is_told_once() -> None:
    wire = Wire(0)
    refused = {"t": "error", "id": "net.too_many_connections", "fields": {"limit": 20}}
    for _ in range(3):  # each try to come back, a second apart
        assert wire.table.receive(refused)  # type: ignore[arg-type]
    assert [note.message.id for note in wire.table.notes()] == ["net.too_many_connections"]
    assert len(wire.table.errors) == 3
