"""Each viewer sees its own cards and no one else's; a watcher sees none."""

from __future__ import annotations

import random

from voice_spades.engine import (
    CardDrawn,
    CardsExchanged,
    DrawFinished,
    Event,
    HandDealt,
    Match,
    cards_of,
    profile,
)
from voice_spades.protocol.codec import encode_event
from voice_spades.protocol.redact import events_for, view_for, watcher_view


def two_player_events(seed: int) -> tuple[Match, list[Event]]:
    """A two-player match (draws, blind nil exchanges) played at random for two hands."""
    match = Match(profile("two-player"), seed=seed)
    rng = random.Random(seed)
    events = list(match.opening_events())
    while match.hands_played < 2 and not match.is_over:
        legal = match.legal_actions()
        blind = [a for a in legal if getattr(a, "declare", False)]
        events += match.apply(blind[0] if blind else rng.choice(legal))
    return match, events


def test_private_events_keep_only_the_viewers_own_cards() -> None:
    _, events = two_player_events(11)
    kinds = {type(e) for e in events}
    assert {DrawFinished, CardDrawn, CardsExchanged} <= kinds
    for viewer in (0, 1, None):
        for full, seen in zip(events, events_for(viewer, events), strict=True):
            if isinstance(full, DrawFinished | HandDealt):
                assert isinstance(seen, DrawFinished | HandDealt)
                for seat, hand in enumerate(seen.hands):
                    assert hand == (full.hands[seat] if seat == viewer else ())
            elif isinstance(full, CardDrawn | CardsExchanged) and full.seat != viewer:
                wire = encode_event(seen)
                if isinstance(full, CardDrawn):
                    assert (wire["shown"], wire["received"]) == (None, None)
                    assert wire["kept"] == full.kept
                else:
                    assert wire["given"] == [None] * len(full.given)
                    assert wire["received"] == [None] * len(full.received)
            else:
                assert seen == full


def test_a_watcher_view_holds_nothing_private() -> None:
    match = Match(profile("pagat"), seed=5)
    for _ in range(9):
        match.apply(match.legal_actions()[0])
    seat = match.to_act or 0
    own = match.view(seat)
    assert own.hand and own.legal
    watched = view_for(None, match.view)
    assert watched == watcher_view(match.view(0))
    assert (watched.hand, watched.known_out, watched.draw_top, watched.legal) == (0, 0, None, ())
    assert watched.cards_held == own.cards_held and watched.played == own.played
    assert cards_of(view_for(seat, match.view).hand) == cards_of(own.hand)
