"""What the client's network tests share: a real server on 127.0.0.1 (the project's own,
on a thread, with its SQLite store in the test's folder), a small TCP proxy that cuts
lines as a failing network would, and a seat played by a session that acts by itself."""

from __future__ import annotations

import random
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tests.session.fakes import RecordingOutput
from voice_spades.client.line import Line, wait_until
from voice_spades.client.remote_table import RemoteTable
from voice_spades.commands import Act
from voice_spades.protocol.wire import ClientMessage
from voice_spades.server.app import ServerThread
from voice_spades.server.hub import Hub
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.session import GameSettings, Pacer, Ports, Session
from voice_spades.table import TableSnapshot


@contextmanager
def running_server(folder: Path, **hub_options: object) -> Iterator[ServerThread]:
    """A server on 127.0.0.1 (a free port), bots instant, stopped afterwards."""
    options: dict[str, object] = {"bot_delay": 0.0, **hub_options}
    server = ServerThread(lambda: Hub(SQLiteStore(folder / "tables.sqlite3"),
                                      **options)).start()  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


def connect(url: str, first: ClientMessage | None, name: str = "Ada", lang: str = "en",
            timeout: float = 5.0) -> tuple[Line, RemoteTable]:
    """A viewer's line, open and greeted (its welcome, or an error, received)."""
    holder: list[Line] = []
    table = RemoteTable(lambda message: holder[0].send(message))
    line = Line(url, name, lang, table, first)
    holder.append(line)
    line.start()
    assert line.opened.wait(timeout)
    if line.failure is None:
        assert wait_until(lambda: table.token is not None or bool(table.errors), timeout)
    return line, table


class SelfPlaying:
    """A session at a remote seat that plays a legal action (chosen from ``seed``) each
    time it is the seat's turn, on a thread of its own; lines go to a recording output."""

    def __init__(self, table: RemoteTable, seed: int, delay: float = 0.0) -> None:
        self.delay = delay
        self.output = RecordingOutput()
        self.table = table
        self.session = Session(table, Ports(self.output, pacer=Pacer(self.output.is_busy,
                                                                      min_gap=0.0)),
                               settings=GameSettings(seat=table.seat))
        self.rng = random.Random(seed)
        self.acted = 0
        self._asked_at: int | None = None
        self.session.watch(self._watch)
        self._thread = threading.Thread(target=self.session.run, daemon=True, name="self-play")

    def _watch(self, snapshot: TableSnapshot) -> None:
        view = snapshot.view
        if snapshot.to_act == snapshot.seat and view.legal and not self.table.pending() \
                and self._asked_at != self.table.last_seq:
            self._asked_at = self.table.last_seq
            self.acted += 1
            act = Act(self.rng.choice(view.legal))
            if self.delay:
                threading.Timer(self.delay, self.session.submit, (act,)).start()
            else:
                self.session.submit(act)

    def start(self) -> SelfPlaying:
        self.session.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self.session.running = False
        self._thread.join(5)


class CuttingProxy:
    """Forwards TCP connections from a port on 127.0.0.1 to ``target``; :meth:`down`
    cuts every line and refuses new ones until :meth:`up`."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.accepting = threading.Event()
        self.accepting.set()
        self._lines: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True, name="proxy").start()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.accepting.is_set():
                client.close()  # the network is down: the try fails at once
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._lines += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            with suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def down(self) -> None:
        """Cut every line now and refuse new ones."""
        self.accepting.clear()
        with self._lock:
            lines, self._lines = self._lines, []
        for s in lines:
            with suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def up(self) -> None:
        """Let lines through again."""
        self.accepting.set()

    def close(self) -> None:
        self._closed = True
        self.down()
        self.listener.close()


def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition``; fail with its name when it never holds."""
    assert wait_until(condition, timeout), getattr(condition, "__name__", "condition")
