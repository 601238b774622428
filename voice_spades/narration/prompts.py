"""The "your turn" prompts: what the player is expected to do now, and how."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import Bid, Card, Phase, PlayerView, Suit
from voice_spades.narration.lines import Hints, Line, LineKind, Priority
from voice_spades.narration.phrases import Phrasebook


def turn_prompt(view: PlayerView, words: Phrasebook, hints: Hints,
                refusals: Sequence[str] = (), cursor: Card | None = None) -> Line | None:
    """The prompt for the viewer's turn, or None when it is someone else's.

    ``refusals`` are the reasons some bids in range are not allowed (no hell,
    suicide), said with the bid prompt; ``cursor`` is the card under the hand cursor,
    named at the end of a play prompt ("Your lead. Spades are not broken. On the 9 of
    spades.") so that Enter never plays a card the player has not heard.
    """
    if not view.is_my_turn:
        return None
    message, params = _prompt(view, words, hints, refusals)
    if view.phase is Phase.PLAY:
        params["cursor"] = cursor_note(words, cursor)
    return Line(message, words.say(message, **params), Priority.HIGH, kind=LineKind.PROMPT)


def bid_notes(words: Phrasebook, refusals: Sequence[str]) -> str:
    """The refusal reasons as sentences appended to a bid prompt."""
    return "".join(words.say("prompt.bid_note", note=r) for r in dict.fromkeys(refusals))


def _prompt(view: PlayerView, w: Phrasebook, hints: Hints,
            refusals: Sequence[str]) -> tuple[str, dict[str, object]]:
    rules = view.rules
    if view.phase is Phase.BID:
        order = [(view.first_player + i) % rules.players for i in range(rules.players)]
        done = [s for s in order if view.bids[s] is not None]
        # Any bid at all, nil included: "Your bid." The range and "0 is nil" took 1.9 s
        # of the hand's turnover (200 words a minute, espeak-ng, English); the verbose
        # prompt says them, 0 then Enter asks "Bid nil?", and the help names the nil key.
        every = {a for a in view.legal if isinstance(a, Bid) and not a.blind} \
            == {Bid(n) for n in range(rules.hand_size + 1)}
        fields: dict[str, object] = {
            "choices": w.bid_choices(view.legal), "nil_note": w.nil_note(view.legal),
            "notes": bid_notes(w, refusals),
            "bids": w.bids(view.bids, done) if done else w.say("word.not_yet")}
        return ("prompt.bid_any" if every else "prompt.bid"), fields
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


def cursor_note(words: Phrasebook, card: Card | None) -> str:
    """" On the 9 of spades." (with its leading space), or "" with no card."""
    return words.say("turn.on_card", card=card) if card is not None else ""


def spades_note(view: PlayerView, words: Phrasebook) -> str:
    """"Spades are broken.", "Spades are not broken." or "You hold only spades."."""
    if view.spades_broken:
        return words.say("word.spades_broken")
    if all(c.suit == Suit.SPADES for c in view.hand_cards):
        return words.say("word.only_spades")
    return words.say("word.spades_not_broken")
