"""What a viewer must never be sent, and the scan of a frame for it.

At any moment the secrets of a viewer are the cards in the other seats' hands, the
cards still in the stock (the deck's order; but the top card is shown to the seat
drawing) and the discards it did not see itself,
read from the server's own match; and always the seed. A frame carrying any of them
leaks.
"""

from __future__ import annotations

import json
import re

from voice_spades.engine import CARDS, Match, Phase

CODES = [card.code for card in CARDS]
FORBIDDEN_KEYS = frozenset({"seed", "stock", "deck", "discards", "first_dealer"})


def secrets_for(match: Match, seat: int | None) -> set[str]:
    """The card codes ``seat`` (None: a watcher) may not know now."""
    hand = match.hand
    hidden = 0
    for other, mask in enumerate(hand.hands):
        if other != seat:
            hidden |= mask
    stock = hand.stock[getattr(hand, "stock_pos", 0):]
    if stock and seat is not None and hand.phase is Phase.DRAW and hand.to_act == seat:
        stock = stock[1:]  # the top card, shown to the seat drawing
    for index in stock:
        hidden |= 1 << index
    seen = hand.seen_discards[seat] if seat is not None else 0
    for index in hand.discards:
        hidden |= (1 << index) & ~seen
    return {CODES[i] for i in range(52) if hidden >> i & 1}


_CARD = re.compile(r'"((?:10|[2-9AJQK])[CDHS])"')
_ACTIONS = re.compile(r'"(?:play|exchange):([^"]*)"')
"""A card code standing alone in a frame ("QS", "play:QS", "exchange:2H,3H")."""
_KEY = re.compile(r'"(\w+)":')


def leaks(frame: str, secret: set[str], seed: int,
          before: set[str] | None = None) -> list[str]:
    """What ``frame`` carries that it must not: secret cards, the seed, a forbidden key.

    ``secret`` holds after the action the frame tells; ``before``, the secrets before
    it, for the events of a hand that ended in this action (its cards are dealt again
    in the next hand: a card played in the last trick may now be another seat's)."""
    found = []
    if str(seed) in frame:
        found.append(f"the seed {seed}")
    found += [f"key {k!r}" for k in _KEY.findall(frame) if k in FORBIDDEN_KEYS]
    if before is not None and '"HandStarted"' in frame:
        message = json.loads(frame)
        events = message.get("events", [])
        new_hand = next((i for i, e in enumerate(events) if e.get("type") == "HandStarted"),
                        len(events))
        if 0 < new_hand < len(events):
            old = events[:new_hand]
            played = {e["card"] for e in old if e.get("type") == "CardPlayed"}
            found += _cards_in(json.dumps(old), before - played)
            frame = json.dumps({**message, "events": events[new_hand:]})
    return found + _cards_in(frame, secret)


def _cards_in(text: str, secret: set[str]) -> list[str]:
    codes = _CARD.findall(text)
    for cards in _ACTIONS.findall(text):
        codes += cards.split(",")
    return [f"card {code}" for code in codes if code in secret]
