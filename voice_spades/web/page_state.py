"""What the page is sent: one viewer's table as JSON, every word already in the
viewer's language.

The page is one more client of the table: it gets the player's own view only (the
engine's :class:`PlayerView` for that seat, which never holds another seat's cards or
the seed), with each value named by the catalog, so the page's script holds no word of
any language. Each state carries the protocol's version and a sequence number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from voice_spades.engine import Bid, Card, Phase, PlayerView, Suit
from voice_spades.narration import Line, Phrasebook, Verbosity, hand_order
from voice_spades.narration.catalog import Catalog
from voice_spades.protocol.wire import VERSION

Json = dict[str, object]

SUIT_SYMBOLS = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666",
                Suit.CLUBS: "\u2663"}
"""The suit glyphs the page shows beside each suit's letter."""

LOG_KEPT = 200
"""Lines of the log a page gets when it connects (a hand is about 60 lines)."""

ERROR_PREFIXES = ("error.", "refusal.", "net.")
"""Line ids the page announces at once (assertive): refusals and failures."""


@dataclass(frozen=True, slots=True)
class Cursor:
    """The player's place in the hand and the questions waiting for them."""

    card: Card | None = None
    marked: tuple[Card, ...] = ()
    question: str | None = None
    typed_bid: str = ""


@dataclass
class PageLog:
    """The lines said so far (the newest :data:`LOG_KEPT`), each with its number."""

    lines: list[Json] = field(default_factory=list)
    count: int = 0

    def add(self, lines: Iterable[Line]) -> list[Json]:
        """Keep ``lines``; their JSON, numbered on from the last one."""
        added = []
        for line in lines:
            self.count += 1
            added.append({"n": self.count, "id": line.message_id, "text": line.text,
                          "kind": line.kind.value,
                          "error": line.message_id.startswith(ERROR_PREFIXES)})
        self.lines = [*self.lines, *added][-LOG_KEPT:]
        return added


class PageWords:
    """Names the table's values for one viewer in one language."""

    def __init__(self, words: Catalog, view: PlayerView, viewer: int | None) -> None:
        self.catalog = words
        self.phrases = Phrasebook(view.rules, viewer, Verbosity.NORMAL, words=words)

    def text(self, message_id: str, **fields: object) -> str:
        """A catalog message in this language."""
        return self.phrases.say(message_id, **fields)

    def card(self, card: Card) -> str:
        """"queen of hearts"."""
        return str(self.phrases.card(card))

    def seat(self, players: int, seat: int) -> str:
        """The compass name of ``seat``: "West"."""
        return str(self.catalog.seat(players, seat))

    def bid(self, bid: Bid | None) -> str | None:
        """"4", "nil", or None before the seat has bid."""
        return None if bid is None else self.phrases.bid(bid)


def card_json(card: Card, words: PageWords, *, playable: bool, cursor: bool,
              marked: bool) -> Json:
    """One card of the hand: rank and suit as letters and glyph, and its accessible
    name ("queen of hearts, playable")."""
    name = words.card(card)
    label = words.text("web.card_playable" if playable else "web.card_unplayable", card=name)
    if marked:
        label = words.text("web.card_marked", card=label)
    return {"code": card.code, "rank": card.code[:-1], "suit": card.suit.letter,
            "symbol": SUIT_SYMBOLS[card.suit], "name": name, "label": label,
            "playable": playable, "cursor": cursor, "marked": marked}


def table_card_json(card: Card, words: PageWords) -> Json:
    """A card on the table: rank, suit and its name."""
    return {"code": card.code, "rank": card.code[:-1], "suit": card.suit.letter,
            "symbol": SUIT_SYMBOLS[card.suit], "name": words.card(card)}


def page_state(view: PlayerView, cursor: Cursor, words: PageWords, *, seq: int,
               over: bool, lines: Sequence[Json] = (), watching: bool = False) -> Json:
    """The whole table as one page shows it, for ``view``'s seat."""
    players = view.rules.players
    legal_cards = {action for action in view.legal if isinstance(action, Card)}
    hand = [card_json(card, words, playable=card in legal_cards, cursor=card == cursor.card,
                      marked=card in cursor.marked)
            for card in hand_order(view.hand_cards)]
    on_table = dict(view.trick)
    seats = []
    for seat in range(players):
        name = words.seat(players, seat)
        you = seat == view.seat and not watching
        card = on_table.get(seat)
        bid = words.bid(view.bids[seat]) if seat < len(view.bids) else None
        seats.append({
            "seat": seat, "name": words.text("web.seat_you", seat=name) if you else name,
            "you": you, "turn": view.to_act == seat,
            "bid": bid, "bid_text": words.text("web.seat_no_bid") if bid is None
            else words.text("web.seat_bid", bid=bid),
            "tricks": view.tricks_won[seat],
            "tricks_text": words.text("web.seat_tricks", n=view.tricks_won[seat]),
            "held": view.cards_held[seat],
            "card": None if card is None else table_card_json(card, words),
            "led": bool(view.trick) and view.trick[0][0] == seat})
    sides = view.rules.sides
    scores = [{"name": " + ".join(words.seat(players, s) for s in side),
               "score": view.scores[index], "bags": view.bags[index]}
              for index, side in enumerate(sides) if index < len(view.scores)]
    bids = [{"tricks": offer.tricks, "text": words.bid(offer),
             "label": words.text("web.bid_button", bid=words.bid(offer))}
            for offer in sorted({action for action in view.legal
                               if isinstance(action, Bid) and not action.blind},
                              key=lambda b: b.tricks)]
    return {
        "v": VERSION, "t": "state", "seq": seq, "seat": view.seat,
        "you_act": bool(view.legal) and not watching,
        "watching": watching, "players": players, "hand_number": view.hand_number,
        "trick_number": min(view.trick_number, 13), "phase": str(view.phase),
        "my_turn": view.to_act == view.seat and not watching and not over,
        "turn": _turn_text(view, words, over=over, watching=watching),
        "hand": hand, "seats": seats, "scores": scores, "bids": bids,
        "question": cursor.question, "typed_bid": cursor.typed_bid,
        "turn_mark": words.text("web.seat_turn"), "over": over, "lines": list(lines),
    }


def _turn_text(view: PlayerView, words: PageWords, *, over: bool, watching: bool) -> str:
    if over or view.to_act is None or view.phase is Phase.OVER:
        return words.text("web.turn_none")
    if view.to_act == view.seat and not watching:
        return words.text("web.turn_yours", phase=words.text(f"word.phase.{view.phase}"))
    return words.text("web.turn_of", seat=words.seat(view.rules.players, view.to_act),
                      phase=words.text(f"word.phase.{view.phase}"))
