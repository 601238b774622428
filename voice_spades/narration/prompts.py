"""The "your turn" prompts: what the player is expected to do now, and how."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import Phase, PlayerView, Suit
from voice_spades.narration.lines import Hints, Line, Priority
from voice_spades.narration.phrases import Phrasebook


def turn_prompt(view: PlayerView, words: Phrasebook, hints: Hints,
                refusals: Sequence[str] = ()) -> Line | None:
    """The prompt for the viewer's turn, or None when it is someone else's.

    ``refusals`` are the reasons some bids in range are not allowed (no hell,
    suicide), said with the bid prompt.
    """
    if not view.is_my_turn:
        return None
    message, params = _prompt(view, words, hints, refusals)
    return Line(message, words.say(message, **params), Priority.HIGH)


def bid_notes(words: Phrasebook, refusals: Sequence[str]) -> str:
    """The refusal reasons as sentences appended to a bid prompt."""
    return "".join(words.say("prompt.bid_note", note=r) for r in dict.fromkeys(refusals))


def _prompt(view: PlayerView, w: Phrasebook, hints: Hints,
            refusals: Sequence[str]) -> tuple[str, dict[str, object]]:
    rules = view.rules
    if view.phase is Phase.BID:
        order = [(view.first_player + i) % rules.players for i in range(rules.players)]
        done = [s for s in order if view.bids[s] is not None]
        return "prompt.bid", {"choices": w.bid_choices(view.legal),
                              "nil_note": w.nil_note(view.legal),
                              "notes": bid_notes(w, refusals),
                              "bids": w.bids(view.bids, done) if done else w.say("word.not_yet")}
    if view.phase is Phase.BLIND_NIL:
        return "prompt.blind_nil", {"made": rules.blind_nil_points,
                                    "limit": rules.blind_nil_exchange}
    if view.phase is Phase.DRAW:
        assert view.draw_top is not None
        return "prompt.draw", {"card": w.card(view.draw_top),
                               "count": w.count(view.cards_held[view.seat])}
    if view.phase is Phase.EXCHANGE:
        return "prompt.exchange", {"limit": rules.blind_nil_exchange, "mark": hints.mark,
                                   "confirm": hints.confirm}
    led = view.led_suit
    if led is None:
        return "prompt.lead", {"spades": spades_note(view, w), "trick": view.trick_number}
    suit = Suit(led)
    follows = any(c.suit == suit for c in view.hand_cards)
    return ("prompt.follow" if follows else "prompt.void"), {
        "suit": suit, "table": w.plays(view.trick)}


def spades_note(view: PlayerView, words: Phrasebook) -> str:
    """"Spades are broken.", "Spades are not broken." or "You hold only spades."."""
    if view.spades_broken:
        return words.say("word.spades_broken")
    if all(c.suit == Suit.SPADES for c in view.hand_cards):
        return words.say("word.only_spades")
    return words.say("word.spades_not_broken")
