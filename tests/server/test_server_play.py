"""Whole matches over a real socket: the server is authoritative, each viewer's stream
is numbered without gap, and what a client receives is exactly the stream the table
core derives from the stored log, whose every frame the leak scan checks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.server.leak_scan import leaks, secrets_for
from tests.server.served import Served
from tests.server.wire_client import WireClient, finished, play
from voice_spades.protocol.wire import Join, Start
from voice_spades.server.streams import viewer_seat
from voice_spades.server.table_core import TableCore


def replayed_and_scanned(served: Served, code: str) -> TableCore:
    """The table rebuilt from its stored log entry by entry, every frame of every viewer
    scanned for secrets as it is made."""
    record = served.store.table(code)
    assert record is not None
    core = TableCore(code, record.rules, record.seed, record.grace, keep=None)
    for entry in served.log(code):
        before = {v: secrets_for(core.match, viewer_seat(v)) for v in core.streams}
        out = core.apply(entry)
        for viewer, _, frame in out:
            found = leaks(frame, secrets_for(core.match, viewer_seat(viewer)), record.seed,
                          before.get(viewer, set()))
            assert not found, f"{viewer} was sent {found}"
    return core


def received_equals_core(client: WireClient, core: TableCore, viewer: str) -> None:
    frames = core.streams[viewer].since(client.first_seq)
    assert frames is not None
    assert client.stream == [json.loads(f) for f in frames]
    assert client.last_seq == core.streams[viewer].seq


@pytest.mark.parametrize(("rules", "players"), [("pagat", 4), ("two-player", 2),
                                                ("playroom", 6)])
def test_a_match_over_the_socket_is_the_stored_stream_and_leaks_nothing(
        served: Served, rules: str, players: int) -> None:
    host = served.host(rules, players, seats=("open",) + ("bot",) * (players - 2))
    assert host.code is not None
    friend = served.client("Bea", "it")
    friend.send(Join(host.code))
    friend.until(lambda m: m["t"] == "welcome")
    watcher = served.client("Wes", "fr")
    watcher.send(Join(host.code, watch=True))
    watcher.until(lambda m: m["t"] == "welcome")
    host.send(Start())
    rng = random.Random(players)
    play([host, friend, watcher], lambda: finished(host), timeout=30,
         choose=lambda view: rng.choice(view["legal"]))
    for client in (host, friend, watcher):
        client.drain(0.2)
    core = replayed_and_scanned(served, host.code)
    assert core.over
    received_equals_core(host, core, "seat:0")
    received_equals_core(friend, core, "seat:1")
    received_equals_core(watcher, core, "watch:0")
    assert all(m["view"]["hand"] == [] for m in watcher.stream if m["t"] == "state")


def errors(client: WireClient) -> list[dict[str, Any]]:
    return [m for m in client.others if m["t"] == "error"]


def test_refusals_name_their_error_and_change_nothing(served: Served) -> None:
    host = served.host(seats=("open", "bot", "bot"))
    assert host.code is not None
    friend = served.client("Bea", "it")
    friend.send(Join(host.code))
    friend.until(lambda m: m["t"] == "welcome")
    watcher = served.client("Wes")
    watcher.send(Join(host.code, watch=True))
    watcher.until(lambda m: m["t"] == "welcome")
    friend.send(Start())
    assert friend.until(lambda m: m["t"] == "error")["id"] == "net.not_host"
    host.send(Start())
    play([host, friend], lambda: bool(host.my_turn or friend.my_turn), timeout=10)
    actor, other = (host, friend) if host.my_turn else (friend, host)
    assert actor.view is not None and actor.seat is not None
    log_before = len(served.log(host.code))

    def refusal(client: WireClient, message: dict[str, Any]) -> dict[str, Any]:
        client.send(message)
        return client.until(lambda m: m["t"] == "error")

    turn = refusal(other, {"t": "act", "action": actor.view["legal"][0],
                           "at_seq": other.last_seq})
    assert turn == {"t": "error", "id": "net.not_your_turn",
                    "fields": {"turn": {"seat": actor.seat}}}
    assert refusal(watcher, {"t": "act", "action": actor.view["legal"][0],
                             "at_seq": watcher.last_seq})["id"] == "net.watcher_cannot_act"
    illegal = refusal(actor, {"t": "act", "action": "bid:14", "at_seq": actor.last_seq})
    assert illegal["id"] == "net.illegal"
    assert illegal["fields"]["reason"]["id"] == "refusal.bid_too_high"
    assert refusal(actor, {"t": "act", "action": actor.view["legal"][0],
                           "at_seq": actor.last_seq - 1})["id"] == "net.stale"
    assert refusal(actor, {"t": "act", "action": "fly:away", "at_seq": actor.last_seq}
                   )["id"] == "net.bad_message"
    assert refusal(actor, {"t": "chat", "text": "x" * 201})["id"] == "net.chat_too_long"
    assert len(served.log(host.code)) == log_before
    for number in range(5):
        actor.send({"t": "chat", "text": f"line {number}"})
    assert refusal(actor, {"t": "chat", "text": "one too many"})["id"] == "net.chat_too_fast"
    assert len(served.log(host.code)) == log_before + 5
    watcher.drain(0.2)
    chats = [m["text"] for m in watcher.stream if m["t"] == "chat"]
    assert chats == [f"line {n}" for n in range(5)]
    actor.act()
    assert actor.until(lambda m: m["t"] == "state")["seq"] == actor.last_seq


def test_seats_are_taken_once_and_a_full_table_can_be_watched(served: Served) -> None:
    host = served.host(seats=("open", "bot", "bot"))
    first, second = served.client("Bea"), served.client("Cy")
    first.send(Join(host.code or "", seat=1))
    assert first.until(lambda m: m["t"] == "welcome")["seat"] == 1
    second.send(Join(host.code or "", seat=1))
    assert second.until(lambda m: m["t"] == "error")["id"] == "net.seat_taken"
    second.send(Join(host.code or ""))
    assert second.until(lambda m: m["t"] == "error")["id"] == "net.table_full"
    second.send(Join(host.code or "", watch=True))
    assert second.until(lambda m: m["t"] == "welcome")["seat"] is None
