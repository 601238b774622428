"""Issue 46, point 5: no message to a seat or a watcher carries another seat's unplayed
cards, the deck order or the seed.

200 seeded matches over every profile (pagat, classic-fr, cardgames, playroom with 3,
4, 5 and 6 players, two-player) run through the server's table core in this process,
with instant bots at every seat, a watcher, a player who drops, is stood in for and
comes back, and chat; every frame for every viewer is scanned against the server's
own match at that moment. The socket tests compare what their clients received with
this core's frames (``test_server_play.py``).
"""

from __future__ import annotations

import json
import random

import pytest

from tests.server.leak_scan import leaks, secrets_for
from voice_spades.bots import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.engine import (
    DrawFinished,
    HandDealt,
    Match,
    action_to_text,
    options_to_dict,
    profile,
)
from voice_spades.protocol.codec import encode_event
from voice_spades.protocol.redact import events_for
from voice_spades.server.streams import viewer_seat
from voice_spades.server.table_core import TableCore

GAMES = [("pagat", 4), ("classic-fr", 4), ("cardgames", 4), ("playroom", 3), ("playroom", 4),
         ("playroom", 5), ("playroom", 6), ("two-player", 2)]
MATCHES = 200
SHORT, LONG = 1, 2
"""Hands a match (a tie at the top plays on): one, and two for every fourth match, so
that the change of deal is scanned too; 200 whole matches in about 10 s of CPU."""


def scanned_match(name: str, players: int, seed: int, hands: int) -> tuple[int, int]:
    """Play one match through a table core; scan every frame. (frames, actions)."""
    rules = options_to_dict(profile(name, players=players, hand_limit=hands))
    core = TableCore("123456", rules, seed, grace=30)
    rng = random.Random(seed)
    bots = {seat: LegalMovePlayer(seed + seat) for seat in range(players)}
    frames = actions = 0

    secrets: dict[str, set[str]] = {}

    def apply(entry: dict[str, object]) -> None:
        nonlocal frames, secrets
        before = secrets  # only an action or the start changes what is secret
        out = core.apply(entry)
        if entry["k"] in ("act", "start") or set(core.streams) != set(secrets):
            secrets = {v: secrets_for(core.match, viewer_seat(v)) for v in core.streams}
        for viewer, _, frame in out:
            found = leaks(frame, secrets[viewer], seed, before.get(viewer, set()))
            assert not found, f"{name}/{players} seed {seed}: {viewer} got {found} in {frame}"
            frames += 1

    apply({"k": "presence", "seat": 0, "state": "joined", "name": "Ada", "tok": "a",
           "host": True})
    for seat in range(1, players):
        apply({"k": "seat", "seat": seat, "kind": "bot", "name": "", "level": "easy"})
    apply({"k": "presence", "seat": None, "state": "watching", "name": "Wes"})
    apply({"k": "start"})
    drop_at = rng.randrange(10, 40)
    while not core.over:
        seat = core.match.to_act
        assert seat is not None
        action = action_to_text(decide(bots[seat], core.match.view(seat)))
        if seat == 0 and not core.bot_plays(0):
            entry = core.act_entry("seat:0", action, core.streams["seat:0"].seq)
        else:
            entry = core.bot_entry(seat, action)
        apply(entry)
        actions += 1
        if actions == drop_at:
            for state in ("dropped", "bot_standing_in"):
                apply({"k": "presence", "seat": 0, "state": state, "name": "Ada"})
            apply({"k": "chat", "seat": None, "name": "Wes", "text": "back soon"})
        if actions == drop_at + 15:
            apply({"k": "presence", "seat": 0, "state": "back", "name": "Ada"})
    return frames, actions


def test_200_seeded_matches_over_every_profile_leak_nothing() -> None:
    frames = actions = 0
    for number in range(MATCHES):
        name, players = GAMES[number % len(GAMES)]
        # Seeds of 9 or 10 digits, as the server draws them: a number that short could
        # appear in a frame by chance (a score), which would be no leak.
        seed = random.Random(number).randrange(10**8, 2**31)
        got = scanned_match(name, players, seed, LONG if number % 4 == 3 else SHORT)
        frames += got[0]
        actions += got[1]
    print(f"\n{MATCHES} matches, {actions} actions, {frames} frames scanned")
    assert actions > MATCHES * 30


@pytest.mark.parametrize(("name", "players"), [("pagat", 4), ("two-player", 2)])
def test_the_scan_sees_a_leak(name: str, players: int) -> None:
    """The scan fails on an unredacted deal, the seed or a stock: it would catch a leak."""
    match = Match(profile(name, players=players), seed=123456789)
    events = list(match.opening_events())
    while not any(isinstance(e, HandDealt | DrawFinished) for e in events):
        events = match.apply(match.legal_actions()[0])
    dealt = next(e for e in events if isinstance(e, HandDealt | DrawFinished))
    frame = json.dumps({"t": "state", "seq": 1, "events": [encode_event(dealt)]})
    assert leaks(frame, secrets_for(match, 0), 123456789)
    assert not leaks(json.dumps({"t": "state", "seq": 1, "events": [
        encode_event(events_for(0, [dealt])[0])]}), secrets_for(match, 0), 123456789)
    assert leaks(json.dumps({"t": "chat", "text": "x", "n": 123456789}), set(), 123456789)
    assert leaks(json.dumps({"t": "x", "stock": []}), set(), 99)
