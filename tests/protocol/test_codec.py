"""Events and views go to JSON and come back equal, for every viewer; anything else
on the wire is refused as ``net.bad_message``, never a crash."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voice_spades.engine import (
    PROFILE_NAMES,
    Bid,
    Card,
    CardDrawn,
    CardsExchanged,
    Event,
    HandDealt,
    Match,
    Message,
    PlayerView,
    Seat,
    profile,
)
from voice_spades.protocol.codec import (
    ProtocolError,
    decode_event,
    decode_message,
    decode_view,
    encode_event,
    encode_message,
    encode_view,
)
from voice_spades.protocol.redact import events_for, view_for

PLAYERS = {"playroom": (3, 4, 5, 6)}


def played(name: str, players: int, seed: int, steps: int) -> tuple[Match, list[Event],
                                                                    list[PlayerView]]:
    """A match of ``steps`` random legal actions: its events and a view at every step."""
    match = Match(profile(name, players=players), seed=seed)
    rng = random.Random(seed)
    events = list(match.opening_events())
    views = [match.view(seat) for seat in range(players)]
    for _ in range(steps):
        if match.is_over:
            break
        events += match.apply(rng.choice(match.legal_actions()))
        views.append(match.view(rng.randrange(players)))
        views.append(match.view(match.to_act if match.to_act is not None else 0))
    return match, events, views


def through_json(value: object) -> object:
    return json.loads(json.dumps(value))


games = st.sampled_from([(name, n) for name in PROFILE_NAMES
                         for n in PLAYERS.get(name, (profile(name).players,))])


@settings(max_examples=16, deadline=None)
@given(games, st.integers(0, 2**31 - 1), st.integers(0, 120))
def test_events_and_views_round_trip_for_every_viewer(
        game: tuple[str, int], seed: int, steps: int) -> None:
    name, players = game
    match, events, views = played(name, players, seed, steps)
    for viewer in [None, *range(players)]:
        for event in events_for(viewer, events):
            assert decode_event(through_json(encode_event(event))) == event
        view = view_for(viewer, match.view)
        assert decode_view(through_json(encode_view(view))) == view
    for view in views:
        assert decode_view(through_json(encode_view(view))) == view


def test_the_wire_form_names_cards_and_bids_by_code() -> None:
    match = Match(profile("pagat"), seed=7)
    dealt = next(e for e in match.opening_events() if isinstance(e, HandDealt))
    wire = encode_event(dealt)
    assert wire["type"] == "HandDealt"
    assert wire["hands"][0] == [card.code for card in dealt.hands[0]]
    view = encode_view(match.view(match.to_act or 0))
    assert view["phase"] == "bid" and "bid:nil" in view["legal"]
    assert sorted(view["hand"]) == sorted(c.code for c in dealt.hands[view["seat"]])


def test_a_hidden_card_travels_as_null_and_comes_back_as_none() -> None:
    drawn = CardDrawn(1, Card.parse("QS"), True, Card.parse("QS"), 4)
    hidden = events_for(0, [drawn])[0]
    wire = through_json(encode_event(hidden))
    assert wire == {"type": "CardDrawn", "seat": 1, "shown": None, "kept": True,
                    "received": None, "cards_in_hand": 4}
    assert decode_event(wire) == hidden
    exchanged = CardsExchanged(1, (Card.parse("2H"), Card.parse("3H")), (Card.parse("4S"),
                                                                         Card.parse("5S")))
    assert encode_event(events_for(0, [exchanged])[0])["given"] == [None, None]


BROKEN = [
    None, 3, "x", [], {}, {"type": "Nothing"}, {"type": "BidMade", "seat": 1},
    {"type": "BidMade", "seat": 1, "bid": "fourteen and a half"},
    {"type": "BidMade", "seat": True, "bid": "4"},
    {"type": "BidMade", "seat": 1, "bid": "4", "extra": 1},
    {"type": "CardPlayed", "seat": 0, "card": "ZZ", "trick_number": 1},
    {"type": "CardPlayed", "seat": 0, "card": "QS" * 50, "trick_number": 1},
    {"type": "HandDealt", "hands": [["QS"], "AS"]},
    {"type": "BidMade", "seat": 10**30, "bid": "4"},
    {"type": "BidMade", "seat": 1, "bid": "-3"},
]


@pytest.mark.parametrize("data", BROKEN)
def test_a_broken_event_is_a_protocol_error(data: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_event(data)
    assert caught.value.message_id == "net.bad_message"


def test_a_broken_view_is_a_protocol_error() -> None:
    good = encode_view(Match(profile("pagat"), seed=1).view(0))
    for key, value in [("phase", "dancing"), ("hand", ["QS", 5]), ("legal", ["fly:away"]),
                       ("rules", {"players": 99}), ("bids", "none"), ("seat", None)]:
        with pytest.raises(ProtocolError):
            decode_view({**good, key: value})
    with pytest.raises(ProtocolError):
        decode_view({k: v for k, v in good.items() if k != "scores"})
    with pytest.raises(ProtocolError):
        decode_view({**good, "seed": 7})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4), max_leaves=12)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["HandDealt", "TrickWon", "HandScored", "CardDrawn", "BidMade"]),
       st.dictionaries(st.sampled_from(["hands", "trick", "winner", "winning_card",
                                        "tricks_won", "score", "seat", "shown", "bid"]),
                       json_values, max_size=5))
def test_random_json_never_decodes_to_anything_but_a_protocol_error(
        kind: str, fields: dict[str, object]) -> None:
    with contextlib.suppress(ProtocolError):
        decode_event({"type": kind, **fields})


def test_a_refusal_travels_with_its_typed_fields() -> None:
    match = Match(profile("pagat"), seed=3)
    while not match.view(0).trick or match.to_act == 0:
        match.apply(match.legal_actions()[0])
    seat = match.to_act or 0
    wrong = next(card for card in match.view(seat).hand_cards
                 if card not in match.view(seat).legal)
    refusal = match.refusal(wrong, seat)
    assert refusal is not None
    assert decode_message(through_json(encode_message(refusal))) == refusal
    nested = Message("net.illegal", reason=refusal, turn=Seat(2), bid=Bid(0, blind=True),
                     limit=3, text="x", none=None)
    assert decode_message(through_json(encode_message(nested))) == nested
    for broken in [{"id": 3, "fields": {}}, {"id": "a"}, {"id": "a", "fields": {"x": {"y": 1}}},
                   {"id": "a", "fields": {"x": {"seat": -1}}},
                   {"id": "a", "fields": {"x": {"card": "ZZ"}}}]:
        with pytest.raises(ProtocolError):
            decode_message(broken)
