"""The SQLite store keeps each table's log in order and durably, refuses a second entry
at one index, and keeps only tokens' hashes; ``voice-spades serve`` says where it
listens, and a busy port is one sentence with exit status 2; a server started on a
store finds its tables again, with a dropped player's grace period running anew."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.served import Served
from tests.server.wire_client import WireClient, finished, play
from voice_spades.protocol.wire import Start
from voice_spades.server.app import ServerThread
from voice_spades.server.hub import Hub
from voice_spades.server.store_sqlite import SQLiteStore


def test_the_sqlite_store_keeps_the_log_in_order_and_once(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.sqlite3")
    store.create("123456", {"name": "pagat"}, 42, 30)
    assert store.append("123456", 0, {"k": "start"})
    assert store.append("123456", 1, {"k": "act", "seat": 0, "action": "bid:3"})
    assert not store.append("123456", 1, {"k": "act", "seat": 0, "action": "bid:4"})
    assert store.entries("123456") == [{"k": "start"},
                                       {"k": "act", "seat": 0, "action": "bid:3"}]
    assert store.entries("123456", 1) == [{"k": "act", "seat": 0, "action": "bid:3"}]
    store.add_token("ab" * 32, "123456", 2, "Bea", "seat:2")
    assert store.token("ab" * 32) is not None and store.token("cd" * 32) is None
    try:
        store.create("123456", {}, 1, 1)
        raise AssertionError("a live table's code was taken again")
    except ValueError:
        pass
    store.close()
    with sqlite3.connect(tmp_path / "t.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = SQLiteStore(tmp_path / "t.sqlite3")
    assert [r.code for r in again.tables()] == ["123456"]
    assert again.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    again.close()


def test_serve_says_where_it_listens_and_a_busy_port_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "voice_spades", "serve", "--port", str(port),
             "--data-dir", str(tmp_path), "--language", "it"],
            capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Impossibile ascoltare su 127.0.0.1")
    server = subprocess.Popen([sys.executable, "-m", "voice_spades", "serve", "--port", "0",
                               "--data-dir", str(tmp_path), "--bot-delay", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("Serving tables at ws://127.0.0.1:")
        assert str(tmp_path / "tables.sqlite3") in line or "SQLite" in line
        address = line.split()[3].rstrip(",")
        client = WireClient(address).connect()
        client.send({"t": "ping"})
        assert client.until(lambda m: m["t"] == "pong")
    finally:
        server.terminate()
        server.wait(10)
    assert (tmp_path / "tables.sqlite3").exists()


def test_a_restarted_server_gives_a_dropped_player_the_grace_period_again(
        tmp_path: Path) -> None:
    first = Served(tmp_path)
    host = first.host(grace=1)
    host.send(Start())
    host.drain(0.2)
    code = host.code
    first.stop()
    second = Served(tmp_path)  # the same store: the table is loaded, Ada marked dropped
    try:
        watcher = second.client("Wes")
        watcher.send({"t": "join", "code": code, "watch": True})
        watcher.until(lambda m: m["t"] == "welcome")
        start = time.monotonic()
        watcher.until(lambda m: m["t"] == "presence" and m["state"] == "bot_standing_in",
                      timeout=5)
        assert time.monotonic() - start < 2.0
    finally:
        second.stop()


def test_a_server_on_ipv6_loopback(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.sqlite3")
    try:
        thread = ServerThread(lambda: Hub(store, bot_delay=0), host="::1").start()
    except OSError as exc:  # a machine without IPv6 on loopback
        store.close()
        pytest.skip(f"no ::1 here: {exc}")
    try:
        assert thread.address == f"ws://[::1]:{thread.port}/ws"
        client = WireClient(thread.address).connect()
        client.send({"t": "ping"})
        assert client.until(lambda m: m["t"] == "pong") == {"t": "pong"}
    finally:
        thread.stop()
        store.close()


def test_a_finished_table_leaves_memory_and_is_not_loaded_again(tmp_path: Path) -> None:
    served = Served(tmp_path, finished_keep=0.3)
    try:
        host = served.host()
        host.send(Start())
        play([host], lambda: finished(host), timeout=20)
        code = host.code
        assert code in served.thread.call(lambda hub: list(hub.tables))
        time.sleep(0.6)
        assert code not in served.thread.call(lambda hub: list(hub.tables))
        assert code not in [record.code for record in served.store.tables()]
        assert served.log(code or "") == []  # removed with its tokens: kept no longer
        late = WireClient(served.address)
        late.token, late.last_seq = host.token, host.last_seq
        late.connect(resume=True)
        assert late.until(lambda m: m["t"] == "error")["id"] == "net.bad_token"
    finally:
        served.stop()
