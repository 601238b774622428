"""Chat at a shared table: M opens a line to type, Enter sends it, the table hears it at
low priority, Shift+M mutes it; at most 200 characters and 5 messages in 10 s."""

from __future__ import annotations

from pathlib import Path

from tests.client.long_event import a_long_event_being_said
from tests.client.net import connect, eventually, running_server
from tests.session.fakes import RecordingOutput
from tests.table.test_any_seat import seated
from voice_spades.client.remote_table import RemoteTable
from voice_spades.engine import options_to_dict, profile
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.narration import Priority
from voice_spades.protocol.wire import Chat, Create, Join, SeatSpec, Start
from voice_spades.session import GameSettings, Pacer, Ports, Session

KEYMAP = load_keymap()


def seat_session(table: RemoteTable) -> tuple[Session, RecordingOutput, KeyboardInput]:
    out = RecordingOutput()
    session = Session(table, Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=GameSettings(seat=table.seat))
    session.start()
    return session, out, KeyboardInput(session, KEYMAP)


def heard(session: Session, out: RecordingOutput, message_id: str) -> bool:
    """Let the session take what came; whether ``message_id`` has been said."""
    session.step()
    return message_id in out.ids


def type_keys(session: Session, keyboard: KeyboardInput, *keys: str) -> None:
    for key in keys:
        keyboard.press(key)
    while session.step():
        pass


def test_chat_is_typed_sent_heard_low_and_muted(tmp_path: Path) -> None:
    rules = options_to_dict(profile("pagat"))
    seats = (SeatSpec("human"), SeatSpec("open"), SeatSpec("bot", "easy"),
             SeatSpec("bot", "easy"))
    with running_server(tmp_path, bot_delay=5.0) as server:
        host_line, host = connect(server.address, Create(rules, seats), name="Ada")
        assert host.code is not None
        friend_line, friend = connect(server.address, Join(host.code), name="Giulia")
        host_line.send(Start())
        eventually(lambda: host.ready.is_set() and friend.ready.is_set())
        host_session, host_out, host_keys = seat_session(host)
        friend_session, friend_out, friend_keys = seat_session(friend)

        type_keys(friend_session, friend_keys, "m")
        assert friend_out.last().message_id == "table.chat_prompt"
        type_keys(friend_session, friend_keys, "c", "i", "a", "o", "space", "A", "d", "a",
                  "enter")
        eventually(lambda: heard(host_session, host_out, "table.chat"))
        chat = host_out.last("table.chat")
        assert chat.text == "Giulia, West, says: ciao Ada"
        assert chat.priority is Priority.LOW  # never cuts a prompt or a game event

        notes: list[str] = []
        host_session.watch(lambda snapshot: notes.extend(n.message.id for n in snapshot.notes))
        type_keys(host_session, host_keys, "shift+m")
        assert host_out.last().message_id == "table.chat_muted"
        type_keys(friend_session, friend_keys, "m", "x", "enter")
        eventually(lambda: heard(host_session, host_out, "never") or "table.chat" in notes)
        assert host_out.ids.count("table.chat") == 1  # muted: the second is not said

        # Five messages in ten seconds (two sent already): the sixth is refused here.
        for word in ("a", "b", "c"):
            type_keys(friend_session, friend_keys, "m", word, "enter")
        type_keys(friend_session, friend_keys, "m", "d", "enter")
        assert friend_out.last().message_id == "net.chat_too_fast"
        assert friend_out.last().text == (
            "At most five chat messages every ten seconds: wait a moment.")
        host_line.close()
        friend_line.close()


def test_a_message_over_200_characters_is_refused_and_a_local_game_has_no_chat() -> None:
    from tests.client.stream import SeatStream
    from voice_spades.engine import Match

    sent: list[object] = []
    table = RemoteTable(sent.append)
    stream = SeatStream(Match(profile("pagat"), 1), 0)
    table.receive(stream.table())
    table.receive(stream.state(stream.match.opening_events()))
    session, out, keyboard = seat_session(table)
    type_keys(session, keyboard, "m", *("x" * 201), "enter")
    assert out.last().text == "A chat message may have at most 200 characters."
    assert not sent
    local, local_out = seated(0)
    local.start()
    local.play_bots()
    local_out.clear()
    local_keys = KeyboardInput(local, KEYMAP)
    type_keys(local, local_keys, "m", "h")
    assert "table.chat_prompt" not in local_out.ids
    assert local_out.last("table.chat_local").text.startswith("Chat is for shared tables")
    assert local_keys.typing is None  # the keys still do their jobs: H said the hand
    assert local_out.last().text.startswith("Your hand: ")


def test_chat_that_comes_while_the_game_speaks_is_said_once_it_is_quiet(
        tmp_path: Path) -> None:
    """Through the speech path the game uses (announcer, output, the speaker's queue
    and thread; the synthesizer alone is timed, not spoken), a message arriving during
    a game event is printed at once, said whole after the event, never cutting it; a
    muted one is not said."""
    with a_long_event_being_said(tmp_path) as table:
        table.friend_line.send(Chat("ciao Ada"))
        said = "Giulia, West, says: ciao Ada"
        eventually(table.printed_after_event(said))
        assert table.speaker.playing is table.speaking  # printed at once, not said over it
        assert table.output.wait_idle(10)
        assert table.speaker.whole()[-2:] == [table.event.text, said]  # after it, whole
        assert all(whole for _, whole in table.speaker.plays)  # nothing was cut

        session = table.session
        notes: list[str] = []
        session.watch(lambda snapshot: notes.extend(n.message.id for n in snapshot.notes))
        type_keys(session, KeyboardInput(session, KEYMAP), "shift+m")
        assert table.output.wait_idle(10)
        table.friend_line.send(Chat("muted?"))
        eventually(lambda: heard(session, RecordingOutput(), "") or "table.chat" in notes)
        assert table.output.wait_idle(10)
        assert not any("muted?" in text for text in table.speaker.whole())


def test_chat_said_aloud_opens_the_line_and_the_keys_then_type_the_message() -> None:
    from tests.client.stream import SeatStream
    from voice_spades.commands import Chat, ChatStep
    from voice_spades.engine import Match
    from voice_spades.protocol import wire
    from voice_spades.voice.understanding.grammar import build_phrases

    sent: list[object] = []
    table = RemoteTable(sent.append)
    stream = SeatStream(Match(profile("pagat"), 1), 0)
    table.receive(stream.table())
    table.receive(stream.state(stream.match.opening_events()))
    session, out, keyboard = seat_session(table)
    said = build_phrases(table.view(), confirming=False, cursor=None).intent("chat")
    assert said == Chat(ChatStep.OPEN)
    session.submit(said)  # as the voice listener hands it on
    while session.step():
        pass
    assert out.last().message_id == "table.chat_prompt"
    type_keys(session, keyboard, "h", "i", "enter")
    assert [m.text for m in sent if isinstance(m, wire.Chat)] == ["hi"]
    type_keys(session, keyboard, "h")  # the line is closed: H reads the hand again
    assert keyboard.typing is None
    assert out.last().text.startswith("Your hand: ")

    local, local_out = seated(0)
    local.start()
    local.play_bots()
    local_keys = KeyboardInput(local, KEYMAP)
    local.submit(Chat(ChatStep.OPEN))
    while local.step():
        pass
    assert local_out.last().message_id == "table.chat_local"
    type_keys(local, local_keys, "h")
    assert local_keys.typing is None
    assert local_out.last().text.startswith("Your hand: ")
