"""A watcher's comings and goings are told to the table, as a player's are: it starts
watching, loses its line, comes back by its token, and stops watching."""

from __future__ import annotations

from typing import Any

from tests.server.served import Served
from tests.server.wire_client import WireClient
from voice_spades.protocol.wire import Join, Leave


def watcher_news(client: WireClient, state: str) -> dict[str, Any]:
    return client.until(lambda m: m["t"] == "presence" and m["seat"] is None
                        and m["state"] == state)


def test_the_table_hears_a_watcher_drop_come_back_and_leave(served: Served) -> None:
    host = served.host()
    watcher = served.client("Jean", "fr")
    watcher.send(Join(host.code or "", watch=True))
    welcome = watcher.until(lambda m: m["t"] == "welcome")
    assert welcome["seat"] is None and welcome["watcher"] == 0
    assert watcher_news(host, "watching")["watcher"] == 0
    watcher.drain(0.1)
    watcher.cut()
    dropped = watcher_news(host, "dropped")
    assert (dropped["name"], dropped["watcher"]) == ("Jean", 0)
    watcher.reconnect(within=2.0)
    back = watcher_news(host, "back")
    assert (back["name"], back["watcher"]) == ("Jean", 0)
    # The watcher's own stream has its return too, marked as its own (the client is
    # silent about it), with no gap (the wire client checks every seq).
    assert watcher_news(watcher, "back")["watcher"] == 0
    watcher.send(Leave())
    left = watcher_news(host, "left")
    assert (left["name"], left["watcher"]) == ("Jean", 0)
    states = [e["state"] for e in served.log(host.code or "")
              if e["k"] == "presence" and e["seat"] is None]
    assert states == ["watching", "dropped", "back", "left"]


def test_a_second_line_of_the_same_watcher_is_no_drop(served: Served) -> None:
    """A watcher whose new line replaces an old one (the old one then closes) did not
    leave: the table hears nothing."""
    host = served.host()
    watcher = served.client("Jean")
    watcher.send(Join(host.code or "", watch=True))
    watcher.until(lambda m: m["t"] == "welcome")
    watcher_news(host, "watching")
    watcher.drain(0.1)
    old = watcher.ws
    watcher.ws = None
    watcher.reconnect(within=2.0)  # the server closes the old line itself
    if old is not None:
        old.close()
    host.drain(0.3)
    assert [m["state"] for m in host.stream if m["t"] == "presence" and m["seat"] is None] \
        == ["watching"]
