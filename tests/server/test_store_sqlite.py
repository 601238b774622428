"""The SQLite table store under appends from many threads at once (group commit)."""

from __future__ import annotations

import threading
from pathlib import Path

from voice_spades.server.store_sqlite import SQLiteStore

RULES = {"profile": "pagat", "players": 4}


def test_concurrent_appends_share_transactions_and_each_index_goes_once(
        tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    codes = [f"{n:06d}" for n in range(8)]
    for code in codes:
        store.create(code, RULES, 1, 30)
    store.create("999999", RULES, 1, 30)
    appends = 40
    won: list[list[int]] = [[], []]
    barrier = threading.Barrier(len(codes) + 2, timeout=10)

    def own_table(code: str) -> None:
        barrier.wait()
        for index in range(appends):
            assert store.append(code, index, {"k": "act", "seat": 0, "action": f"{index}"})

    def racer(me: int) -> None:  # two writers after the same indices of one table
        barrier.wait()
        for _ in range(appends):
            index = len(store.entries("999999"))
            if store.append("999999", index, {"k": "chat", "seat": me, "text": str(index)}):
                won[me].append(index)

    threads = [threading.Thread(target=own_table, args=(code,)) for code in codes]
    threads += [threading.Thread(target=racer, args=(me,)) for me in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        for code in codes:
            assert [e["action"] for e in store.entries(code)] == [str(i) for i in range(appends)]
        raced = store.entries("999999")
        assert sorted(won[0] + won[1]) == list(range(len(raced)))
        assert all(entry["text"] == str(i) for i, entry in enumerate(raced))
        total = len(codes) * appends + len(raced)
        # Several appends went in one transaction (one fsync), not one each.
        assert store.commits < total
    finally:
        store.close()
    reopened = SQLiteStore(tmp_path / "tables.sqlite3")
    try:
        assert len(reopened.entries(codes[3])) == appends
    finally:
        reopened.close()
