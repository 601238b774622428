"""Who else hears the table: the session's watchers, told the typed state after every
change (a voice grammar, a remote client, a browser view need facts, not sentences),
and the table's notes (presence, chat) as lines."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from voice_spades.commands import Chat, ChatStep
from voice_spades.engine import Event
from voice_spades.narration import Line, LineKind, Priority
from voice_spades.session.game import Game
from voice_spades.table import LocalTable, Note, Table, TableSnapshot

Watcher = Callable[[TableSnapshot], None]
"""Told the table's state after each change, on the session thread."""


def snapshot(table: Table, events: Sequence[Event] = (), notes: Sequence[Note] = ()) \
        -> TableSnapshot:
    """The table's state now, after ``events`` (and ``notes``)."""
    return TableSnapshot(table.seat, table.view(), tuple(events), table.to_act,
                         table.is_over, tuple(notes))


class Watchers:
    """The session's watchers, in the order they came."""

    def __init__(self) -> None:
        self._all: list[Watcher] = []
        self.chat_muted = False
        """True while chat is not said (a key mutes and unmutes it)."""
        self.line_asked = threading.Event()
        """Set when the line to type a message was opened by voice ("chat") at a shared
        table: the keyboard, which opens it itself for the chat key, then takes the keys
        pressed as the message (:meth:`take_line`)."""

    def take_line(self) -> bool:
        """True, once, after voice opened the line to type a message."""
        if not self.line_asked.is_set():
            return False
        self.line_asked.clear()
        return True

    def add(self, watcher: Watcher, table: Table) -> None:
        """Tell ``watcher`` the table now, then after every change."""
        self._all.append(watcher)
        watcher(snapshot(table))

    def publish(self, table: Table, events: Sequence[Event] = (),
                notes: Sequence[Note] = ()) -> None:
        """Tell every watcher the table after ``events``."""
        if self._all:
            state = snapshot(table, events, notes)
            for watcher in self._all:
                watcher(state)


    def hear(self, table: Table, game: Game) -> list[Line]:
        """The table's notes since the last call, as lines to say; the watchers are
        told them."""
        notes = table.notes()
        if not notes:
            return []
        self.publish(table, (), notes)
        return note_lines(game, notes, chat_muted=self.chat_muted)


    def chat(self, table: Table, game: Game, chat: Chat, *, keyed: bool = True) -> list[Line]:
        """What a chat intent says: the line to type opened, a message sent (or why
        not), chat muted or back on. The line opened by voice (not ``keyed``) waits
        for the keyboard's next key."""
        if chat.step is ChatStep.MUTE:
            self.chat_muted = not self.chat_muted
            return [game.line("table.chat_muted" if self.chat_muted else "table.chat_unmuted")]
        if chat.step is ChatStep.OPEN:  # a local table has no one to talk to
            if not keyed and not isinstance(table, LocalTable):
                self.line_asked.set()
            return [game.line("table.chat_local" if isinstance(table, LocalTable)
                              else "table.chat_prompt")]
        text = " ".join(chat.text.split())
        refusal = table.chat(text) if text else None
        return [] if refusal is None else [game.line(refusal.id, **refusal.fields)]


def note_lines(game: Game, notes: Sequence[Note], *, chat_muted: bool) -> list[Line]:
    """The lines for the table's notes. Who sat down, left or came back is a table
    event: it waits its turn behind the events being said and is never dropped. Chat
    is an answer at low priority (said once nothing else is being said, so it never
    cuts a prompt or a game event), and none while chat is muted. Say each kind as a
    batch of its own (:func:`note_batches`)."""
    return [game.line(note.message.id, priority=Priority.LOW, **note.message.fields)
            if note.chat else
            replace(game.line(note.message.id, **note.message.fields), kind=LineKind.EVENT)
            for note in notes if not (note.chat and chat_muted)]


def note_batches(lines: Sequence[Line]) -> list[list[Line]]:
    """``lines`` of :func:`note_lines` as the batches to say: the table's events, then
    the chat (a batch of events and answers would make the chat an event)."""
    events = [line for line in lines if line.kind is LineKind.EVENT]
    chat = [line for line in lines if line.kind is not LineKind.EVENT]
    return [batch for batch in (events, chat) if batch]
