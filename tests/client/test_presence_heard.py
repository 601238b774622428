"""Who leaves or comes to a shared table is a table event: said in its turn, after the
event being said, never cutting it, and kept apart from chat, which stays low."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tests.client.long_event import a_long_event_being_said
from tests.client.net import eventually
from tests.client.stream import SeatStream
from tests.session.fakes import RecordingOutput
from voice_spades.client.remote_table import RemoteTable
from voice_spades.engine import Match, profile
from voice_spades.narration import Line, LineKind, Priority
from voice_spades.protocol.wire import Leave
from voice_spades.session import GameSettings, Pacer, Ports, Session
from voice_spades.speech.output import batch_utterances


def test_a_player_leaving_during_an_event_is_said_after_it_whole(tmp_path: Path) -> None:
    """Through the speech path the game uses (the synthesizer alone is timed), the
    friend's leaving arrives while a long game event is said: it is printed at once,
    said after the event, and nothing is cut."""
    with a_long_event_being_said(tmp_path) as table:
        table.friend_line.send(Leave())
        eventually(table.printed_after_event("Giulia"))
        assert table.speaker.playing is table.speaking  # printed at once, not said over it
        assert table.output.wait_idle(10)
        whole = table.speaker.whole()
        assert whole.index(table.event.text) < len(whole) - 1
        assert any("Giulia" in text for text in whole[whole.index(table.event.text) + 1:])
        assert all(done for _, done in table.speaker.plays)  # nothing was cut


class BatchOutput(RecordingOutput):
    """Keeps each batch the session emits, as the speech output receives it."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[Line]] = []

    def emit(self, lines: Sequence[Line]) -> None:
        self.batches.append(list(lines))
        super().emit(lines)


def test_presence_and_chat_that_come_together_are_said_as_their_own_kinds() -> None:
    """A player leaving and a chat message taken in one step: the leaving is an event
    (waits its turn, never dropped, cuts nothing), the chat an answer at low priority."""
    table = RemoteTable(lambda _message: None)
    stream = SeatStream(Match(profile("pagat"), 1), 0)
    table.receive(stream.table())
    table.receive(stream.state(stream.match.opening_events()))
    out = BatchOutput()
    session = Session(table, Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=GameSettings(seat=table.seat))
    session.start()
    while session.step():
        pass
    out.batches.clear()
    table.receive(stream.chat(1, "Giulia", "ciao"))
    table.receive(stream.presence(1, "Giulia", "left"))
    table.receive(stream.chat(1, "Giulia", "a dopo"))
    while session.step():
        pass
    heard = [batch for batch in out.batches if any("Giulia" in ln.text for ln in batch)]
    assert [[ln.message_id for ln in batch] for batch in heard] == [
        ["table.presence.left"], ["table.chat", "table.chat"]]
    said = [batch_utterances(batch) for batch in heard]
    assert [(u.priority, u.kind) for u in said[0]] == [(Priority.NORMAL, LineKind.EVENT)]
    assert [u.priority for u in said[1]] == [Priority.LOW, Priority.LOW]
