"""The PostgreSQL table store and feed, against a real private PostgreSQL server."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

psycopg = pytest.importorskip("psycopg")

from voice_spades.server.store import TableRecord, TokenRecord  # noqa: E402
from voice_spades.server.store_postgres import (  # noqa: E402
    PostgresFeed,
    PostgresStore,
    is_postgres_address,
    open_postgres,
)

RULES = {"profile": "pagat", "players": 4, "target": 500}


def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
    """Poll ``condition`` every 10 ms until it holds or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture(name="store")
def store_fixture(pg_dsn: str) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_dsn)
    yield store
    store.close()


def terminate_others(dsn: str) -> int:
    """End every other session of this database (as a PostgreSQL restart would)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = current_database() "
                            "AND pid <> pg_backend_pid()").fetchall()
    return len(rows)


def test_addresses_that_mean_postgres() -> None:
    assert is_postgres_address("postgresql://db.example/spades")
    assert is_postgres_address("postgres://u@h/d")
    assert not is_postgres_address("/home/me/tables.sqlite3")
    assert not is_postgres_address(None)


def test_tables_entries_and_tokens_come_back_as_stored(store: PostgresStore,
                                                       pg_dsn: str) -> None:
    store.create("123456", RULES, 2**31 - 1, 30)
    store.create("000042", {"profile": "playroom", "players": 6}, 7, 5)
    log = [{"k": "seat", "seat": 1, "kind": "bot", "name": "Bot", "level": "hard"},
           {"k": "start"},
           {"k": "chat", "seat": 0, "name": "Zoé", "text": "ciao 'à' tous \"😀\""},
           {"k": "act", "seat": 0, "action": "bid 3"}]
    for index, entry in enumerate(log):
        assert store.append("123456", index, entry)
    assert store.entries("123456") == log
    assert store.entries("123456", 2) == log[2:]
    assert store.entries("123456", 9) == []
    assert store.entries("000042") == []
    store.add_token("a" * 64, "123456", 0, "Zoé", "seat:0")
    store.add_token("b" * 64, "123456", None, "Watcher", "watch:0")
    assert store.token("a" * 64) == TokenRecord("123456", 0, "Zoé", "seat:0")
    assert store.token("b" * 64) == TokenRecord("123456", None, "Watcher", "watch:0")
    with pytest.raises(ValueError, match="exists"):
        store.create("123456", RULES, 5, 30)
    assert store.token("c" * 64) is None
    # A second process opening the same database sees it all (the schema is kept).
    other = PostgresStore(pg_dsn)
    try:
        assert other.tables() == [TableRecord("123456", RULES, 2**31 - 1, 30),
                                  TableRecord("000042",
                                              {"profile": "playroom", "players": 6}, 7, 5)]
        assert other.entries("123456") == log
        assert other.table("000042") == TableRecord(
            "000042", {"profile": "playroom", "players": 6}, 7, 5)
        assert other.table("654321") is None
    finally:
        other.close()


def test_a_taken_index_is_refused_and_a_gap_is_an_error(store: PostgresStore) -> None:
    store.create("111111", RULES, 1, 30)
    assert store.append("111111", 0, {"k": "start"})
    assert not store.append("111111", 0, {"k": "act", "seat": 0, "action": "bid 4"})
    with pytest.raises(ValueError, match="gap"):
        store.append("111111", 5, {"k": "start"})
    assert store.entries("111111") == [{"k": "start"}]
    # A table that was never created has no log to append to.
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        store.append("999999", 0, {"k": "start"})


def test_two_writers_racing_for_each_index_store_exactly_one(pg_dsn: str) -> None:
    """Two connections (as two server processes) append to one table at the same
    moment, index after index: each index goes to one of them, the other is told."""
    stores = [PostgresStore(pg_dsn), PostgresStore(pg_dsn)]
    stores[0].create("222222", RULES, 1, 30)
    rounds = 150
    barrier = threading.Barrier(2, timeout=10)
    won: list[list[int]] = [[], []]

    def writer(me: int) -> None:
        for _ in range(rounds):
            barrier.wait()
            index = len(stores[me].entries("222222"))
            barrier.wait()  # both have read the same length: now both try it
            if stores[me].append("222222", index, {"k": "act", "seat": me,
                                                   "action": f"{index}"}):
                won[me].append(index)

    threads = [threading.Thread(target=writer, args=(me,)) for me in (0, 1)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        log = stores[1].entries("222222")
    finally:
        for store in stores:
            store.close()
    assert len(log) == rounds
    assert sorted(won[0] + won[1]) == list(range(rounds))
    for index, entry in enumerate(log):
        assert entry["action"] == f"{index}"
        assert index in won[entry["seat"]]
    # Both writers won some races: the test did race them.
    assert won[0] and won[1]


def test_the_feed_tells_every_stored_entry_in_order(store: PostgresStore,
                                                    pg_dsn: str) -> None:
    heard: list[tuple[str, int]] = []
    feed = PostgresFeed(pg_dsn)
    feed.subscribe(lambda code, index: heard.append((code, index)))
    try:
        store.create("333333", RULES, 1, 30)
        store.create("444444", RULES, 2, 30)
        for index in range(20):
            assert store.append("333333", index, {"k": "start"})
            assert store.append("444444", index, {"k": "start"})
        assert not store.append("333333", 3, {"k": "start"})  # refused: not told
        assert wait_for(lambda: len(heard) >= 40, 5)
        time.sleep(0.1)
    finally:
        feed.close()
    assert [i for code, i in heard if code == "333333"] == list(range(20))
    assert [i for code, i in heard if code == "444444"] == list(range(20))
    assert len(heard) == 40


def test_the_feed_stops_promptly(pg_dsn: str) -> None:
    feed = PostgresFeed(pg_dsn)
    feed.subscribe(lambda code, index: None)
    started = time.monotonic()
    feed.close()
    assert time.monotonic() - started < PostgresFeed.WAIT + 0.5
    assert feed._thread is not None and not feed._thread.is_alive()


def test_a_process_hears_the_others_appends_not_its_own(pg_dsn: str) -> None:
    mine, feed = open_postgres(pg_dsn)
    other = PostgresStore(pg_dsn)
    heard: list[tuple[str, int]] = []
    feed.subscribe(lambda code, index: heard.append((code, index)))
    try:
        mine.create("666666", RULES, 1, 30)
        for index in range(10):
            writer = mine if index % 2 == 0 else other
            assert writer.append("666666", index, {"k": "start"})
        assert wait_for(lambda: len(heard) >= 5, 5)
        time.sleep(0.2)  # time enough for the others to arrive, were any coming
    finally:
        feed.close()
        mine.close()
        other.close()
    assert heard == [("666666", i) for i in (1, 3, 5, 7, 9)]


def test_store_and_feed_come_back_after_their_connections_drop(pg_dsn: str) -> None:
    store = PostgresStore(pg_dsn)
    heard: list[tuple[str, int]] = []
    feed = PostgresFeed(pg_dsn)
    feed.subscribe(lambda code, index: heard.append((code, index)))
    try:
        store.create("555555", RULES, 1, 30)
        assert store.append("555555", 0, {"k": "start"})
        assert wait_for(lambda: heard == [("555555", 0)], 5)
        assert terminate_others(pg_dsn) >= 2  # the store's and the feed's
        # The store reconnects within the call. The feed is away for RETRY seconds:
        # what is appended meanwhile reaches it when it is back, by its catch-up.
        assert store.append("555555", 1, {"k": "act", "seat": 0, "action": "bid:2"})
        assert wait_for(lambda: ("555555", 1) in heard, PostgresFeed.RETRY + 5)
        assert store.append("555555", 2, {"k": "act", "seat": 1, "action": "bid:3"})
        assert wait_for(lambda: ("555555", 2) in heard, 5)
    finally:
        feed.close()
    assert feed.errors  # the drop was seen, and survived
    assert len(store.entries("555555")) == 3
    store.close()


def test_two_processes_making_the_schema_at_once_both_start(pg_dsn: str) -> None:
    opened: list[PostgresStore] = []
    failures: list[BaseException] = []
    barrier = threading.Barrier(4, timeout=10)

    def open_one() -> None:
        barrier.wait()
        try:
            opened.append(PostgresStore(pg_dsn))
        except BaseException as error:  # the test reports it below
            failures.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for store in opened:
        store.close()
    assert failures == []
    assert len(opened) == 4


def test_one_store_leads_a_table_until_it_is_gone(pg_dsn: str) -> None:
    first, second = PostgresStore(pg_dsn), PostgresStore(pg_dsn)
    try:
        gone = "voice-spades-1-00000000"
        assert first.alive({first.process(), gone}) == {first.process()}
        assert first.lead("123456") and first.lead("123456")  # held: still this one's
        assert not second.lead("123456")
        assert second.lead("654321")  # another table: free
        first.release("123456")
        assert second.lead("123456") and not first.lead("123456")
        second.close()  # its connection gone (as when its process dies): the lead frees
        end = time.monotonic() + 5  # once PostgreSQL's backend for it has ended
        while not first.lead("123456"):
            assert time.monotonic() < end, "the lead of a closed store never freed"
            time.sleep(0.02)
    finally:
        first.close()
        second.close()


def test_a_finished_table_is_not_loaded_and_is_removed_with_its_log_and_tokens(
        store: PostgresStore, pg_dsn: str) -> None:
    for code in ("111111", "222222"):
        store.create(code, RULES, 1, 30)
        assert store.append(code, 0, {"k": "start"})
        store.add_token(code * 8 + "0" * 16, code, 0, "Zoé", "seat:0")
    store.finish("111111")
    other = PostgresStore(pg_dsn)  # a server process starting now
    try:
        assert [record.code for record in other.tables()] == ["222222"]
        assert other.table("111111") is not None  # still served for its review
        other.remove_finished(3600.0)  # finished less than an hour ago: kept
        assert store.entries("111111")
        other.remove_finished(0.0)
        assert other.table("111111") is None and store.entries("111111") == []
        assert store.token("111111" * 8 + "0" * 16) is None
        store.remove("222222")  # an abandoned table
        assert other.tables() == [] and store.token("222222" * 8 + "0" * 16) is None
    finally:
        other.close()
