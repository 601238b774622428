"""Issue 46, point 6 (server side): a dropped line loses nothing.

A player's line is cut 20 times at chosen moments (right after a bid, mid-trick, as
the hand's last card goes and its result comes); each time the client comes back by its
token and last seq, and its stream has no gap and no duplicate (the test client checks
every seq) and equals, message for message, the stream rebuilt from the stored log.
After the table's grace period a bot plays a dropped player's seat, everyone is told,
and the player takes the seat back on return.
"""

from __future__ import annotations

import json
import statistics
import time

from tests.server.served import Served
from tests.server.wire_client import WireClient, play
from voice_spades.protocol.wire import Join, Start
from voice_spades.server.table_core import TableCore

KINDS = ("bid", "trick", "result")
LIMITS = {"bid": 7, "trick": 6, "result": 7}
"""Cuts of each kind: 20 in all, a bid and a result in 7 of the 12 hands, and one
mid-trick moment in four."""


def moment(view: dict[str, object]) -> str | None:
    """Which kind of moment acting now makes (None: none worth a cut)."""
    hand, trick = view["hand"], view["trick"]
    assert isinstance(hand, list) and isinstance(trick, list)
    if view["phase"] == "bid":
        return "bid"
    if view["phase"] == "play" and len(hand) == 1:
        return "result"
    if view["phase"] == "play" and trick:
        return "trick"
    return None


def full_stream(served: Served, code: str, viewer: str) -> list[dict[str, object]]:
    record = served.store.table(code)
    assert record is not None
    core = TableCore.rebuild(code, record.rules, record.seed, record.grace,
                             served.log(code), keep=None)
    return [json.loads(frame) for frame in core.streams[viewer].since(0) or []]


def test_twenty_cuts_lose_nothing(served: Served) -> None:
    player = served.host(hands=12, target=2000)  # no side reaches 2000 in 12 hands
    player.send(Start())
    cuts: dict[str, int] = dict.fromkeys(KINDS, 0)
    tricks_seen = 0
    took: list[float] = []
    missed: list[int] = []
    end = time.monotonic() + 120
    while len(took) < 20:
        assert time.monotonic() < end, f"only {len(took)} cuts in 120 s"
        player.drain(0.005)
        if not player.my_turn:
            continue
        assert player.view is not None
        kind = moment(player.view)
        player.act()
        if kind == "trick":
            tricks_seen += 1
        if kind is None or cuts[kind] >= LIMITS[kind] or (kind == "trick" and tricks_seen % 4):
            player.view = {**player.view, "legal": []}
            continue
        cuts[kind] += 1
        player.cut()
        time.sleep(0.05)  # the line is down while the table plays on
        took.append(player.reconnect(within=2.0))
        caught_up = player.others[-1]
        assert caught_up["t"] == "caught_up" and caught_up["seq"] == player.last_seq
        missed.append(caught_up["missed"])
    player.drain(0.3)
    print(f"\n20 cuts {cuts}: back in median {statistics.median(took) * 1000:.0f} ms, "
          f"max {max(took) * 1000:.0f} ms; {sum(missed)} messages caught up "
          f"(max {max(missed)} at once)")
    assert max(took) < 2.0
    assert sum(1 for n in missed if n) >= 15  # most cuts missed something, all got it back
    assert player.stream == full_stream(served, player.code or "", "seat:0")[
        :len(player.stream)]
    assert len(player.stream) == player.last_seq


def presence(client: WireClient, seat: int, state: str, timeout: float = 5.0) -> float:
    """Read until ``seat``'s presence ``state``; when it came."""
    client.until(lambda m: m["t"] == "presence" and m["seat"] == seat
                 and m["state"] == state, timeout)
    return time.monotonic()


def test_after_the_grace_period_a_bot_stands_in_and_the_player_takes_the_seat_back(
        served: Served) -> None:
    host = served.host(seats=("open", "bot", "bot"), grace=1, hands=4)
    friend = served.client("Bea", "it")
    friend.send(Join(host.code or ""))
    friend.until(lambda m: m["t"] == "welcome")
    host.send(Start())
    play([host, friend], lambda: bool(friend.view and friend.view["phase"] == "play"))
    friend.cut()
    dropped = presence(host, 1, "dropped")
    standing = presence(host, 1, "bot_standing_in", timeout=5)
    assert 0.8 < standing - dropped < 2.0  # the grace period is 1 s
    played_for = len([m for m in host.stream if m["t"] == "state" and any(
        e.get("seat") == 1 for e in m["events"])])
    play([host], lambda: len([m for m in host.stream if m["t"] == "state" and any(
        e.get("seat") == 1 for e in m["events"])]) >= played_for + 3, timeout=10)
    friend.reconnect(within=2.0)
    presence(host, 1, "back")
    seating = host.until(lambda m: m["t"] == "table")
    assert seating["seats"][1]["standing_in"] is False and seating["seats"][1]["connected"]
    # The seat is the friend's again: it acts on its own turns.
    acted = len(friend.stream)
    play([host, friend], lambda: any(m["t"] == "state" and any(
        e.get("seat") == 1 and e["type"] in ("CardPlayed", "BidMade") for e in m["events"])
        for m in friend.stream[acted:]), timeout=10)


def test_a_friend_takes_a_bots_seat_at_the_next_hand(served: Served) -> None:
    host = served.host(hands=3)
    host.send(Start())
    play([host], lambda: bool(host.view and host.view["phase"] == "play"))
    friend = served.client("Bea")
    friend.send(Join(host.code or "", seat=2))
    welcome = friend.until(lambda m: m["t"] == "welcome")
    assert welcome["seat"] == 2
    friend.drain(0.1)
    assert friend.view is not None and friend.view["seat"] == 2  # it hears its seat now
    friend.send({"t": "act", "action": "bid:3", "at_seq": friend.last_seq})
    assert friend.until(lambda m: m["t"] == "error")["id"] == "net.between_hands"
    play([host], lambda: any(m["t"] == "presence" and m["state"] == "took_seat"
                             for m in host.stream), timeout=20)
    took = next(m for m in host.stream if m["t"] == "presence" and m["state"] == "took_seat")
    assert (took["seat"], took["name"]) == (2, "Bea")
    play([host, friend], lambda: any(m["t"] == "state" and any(
        e.get("seat") == 2 and e["type"] == "BidMade" for e in m["events"])
        for m in friend.stream if m["seq"] > took["seq"]), timeout=10)


def test_news_of_seating_does_not_make_an_action_stale(served: Served) -> None:
    """A player who comes back acts on the state it caught up with, even if the table
    message of its own return came after (only a newer state makes an action stale)."""
    host = served.host(seats=("open", "bot", "bot"))
    friend = served.client("Bea")
    friend.send(Join(host.code or ""))
    friend.until(lambda m: m["t"] == "welcome")
    host.send(Start())
    play([host, friend], lambda: host.my_turn, timeout=10)
    at_seq = host.last_seq
    friend.cut()
    presence(host, 1, "dropped")
    host.until(lambda m: m["t"] == "table")
    assert host.view is not None
    host.send({"t": "act", "action": host.view["legal"][0], "at_seq": at_seq})
    answer = host.until(lambda m: m["t"] in ("state", "error"))
    assert answer["t"] == "state", answer
