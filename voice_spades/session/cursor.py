"""The hand cursor: a position in the hand, moved by card and by suit; and whether the
player heard the card under it named."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from voice_spades.commands import Move
from voice_spades.engine import Card, CardMask, Suit, cards_of
from voice_spades.narration import HAND_SUIT_ORDER, Line, LineKind, hand_order
from voice_spades.session.output import Output

PLAY_PROMPTS = frozenset({"prompt.lead", "prompt.follow", "prompt.void"})
"""The prompts of the player's turn to play; each ends naming the card under the cursor."""


class HandCursor:
    """Points at one card of the hand, in reading order (spades, hearts, clubs,
    diamonds; highest first). Survives the hand changing under it."""

    def __init__(self) -> None:
        self.card: Card | None = None

    def sync(self, hand: CardMask) -> None:
        """Keep pointing at a held card: if ours went, take the next one in reading
        order (the next lower of its suit, if any)."""
        cards = hand_order(cards_of(hand))
        if not cards:
            self.card = None
            return
        if self.card in cards:
            return
        if self.card is None:
            self.card = cards[0]
            return
        old = self.card
        key = (HAND_SUIT_ORDER.index(old.suit), -old.rank)
        later = [c for c in cards if (HAND_SUIT_ORDER.index(c.suit), -c.rank) > key]
        self.card = later[0] if later else cards[-1]

    def focus(self, playable: CardMask, hand: CardMask) -> None:
        """On the player's turn: if the cursor is on a card that cannot be played,
        move it to the first playable one, so Enter plays something legal."""
        self.sync(hand)
        if not playable or (self.card is not None and playable & self.card.bit):
            return
        self.card = hand_order(cards_of(playable))[0]

    def move(self, move: Move, hand: CardMask) -> tuple[Card | None, bool]:
        """Apply ``move``; returns the card reached and whether the suit changed."""
        self.sync(hand)
        cards = hand_order(cards_of(hand))
        if self.card is None:
            return None, False
        old = self.card
        i = cards.index(old)
        same_suit = [c for c in cards if c.suit == old.suit]
        if move is Move.NEXT_CARD:
            self.card = cards[min(i + 1, len(cards) - 1)]
        elif move is Move.PREVIOUS_CARD:
            self.card = cards[max(i - 1, 0)]
        elif move is Move.HIGHEST:
            self.card = same_suit[0]
        elif move is Move.LOWEST:
            self.card = same_suit[-1]
        else:
            self.card = self._other_suit(cards, old.suit, 1 if move is Move.NEXT_SUIT else -1)
        return self.card, self.card.suit != old.suit

    def jump(self, suit: Suit, hand: CardMask) -> Card | None:
        """Put the cursor on the highest card of ``suit``; None (cursor unmoved) if void."""
        self.sync(hand)
        cards = [c for c in hand_order(cards_of(hand)) if c.suit == suit]
        if cards:
            self.card = cards[0]
            return cards[0]
        return None

    @staticmethod
    def _other_suit(cards: list[Card], suit: Suit, step: int) -> Card:
        held = [s for s in HAND_SUIT_ORDER if any(c.suit == s for c in cards)]
        target = held[(held.index(suit) + step) % len(held)]
        return next(c for c in cards if c.suit == target)


class CursorHearing:
    """Whether the player has heard the card under the cursor named since it last moved.

    The session tells it when a batch of lines naming the cursor card goes out
    (:meth:`named`, then :meth:`sent` once the output has it) and what it sees of the
    speech afterwards: speech found idle (:meth:`settle` with ``busy=False``) means
    everything said so far was heard whole; a cut (:meth:`cut`: a key, an answer said
    at once) while speech was busy, or before the lines were even sent, means the naming
    may have been cut off, so it does not count. Only speech seen idle after the naming,
    with no cut in between, makes it heard. Thread-safe: keys cut speech from their own
    thread.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._card: Card | None = None
        self._state = _NOT_NAMED
        self._sent = False
        self._texts: tuple[str, ...] = ()
        self.probe: Callable[[Sequence[str]], bool | None] | None = None
        """Asks the output whether these lines were spoken whole (None: it cannot tell),
        for outputs that record what became of each line; the look at idle speech and
        cuts above is the fallback."""

    def named(self, card: Card | None, texts: Sequence[str] = ()) -> None:
        """Lines naming ``card`` (the card under the cursor), with these ``texts``, are
        about to be said."""
        with self._lock:
            self._card, self._sent, self._texts = card, False, tuple(texts)
            self._state = _NOT_NAMED if card is None else _PENDING

    def sent(self) -> None:
        """The lines of the last :meth:`named` are with the output now."""
        with self._lock:
            self._sent = True

    def settle(self, busy: bool) -> None:
        """Speech was looked at: idle means the naming, if pending, was heard whole."""
        with self._lock:
            if not busy and self._sent and self._state is _PENDING:
                self._state = _HEARD

    def cut(self, busy: bool) -> None:
        """Speech is being cut now; if it was ``busy``, a pending naming is lost."""
        with self._lock:
            if self._state is _PENDING:
                self._state = _LOST if busy or not self._sent else _HEARD

    def heard(self, card: Card | None) -> bool:
        """True when ``card`` was named in lines the player heard whole."""
        with self._lock:
            if card is None or card != self._card or self._state is _NOT_NAMED:
                return False
            if self._state is _HEARD:
                return True
            texts, probe = self._texts, self.probe
        return bool(texts) and probe is not None and probe(texts) is True


_NOT_NAMED, _PENDING, _HEARD, _LOST = "not named", "pending", "heard", "lost"


@runtime_checkable
class RecordedOutput(Protocol):
    """An output that keeps what became of each line it said (the speech adapter's
    ``record``): entries with a ``text`` and an ``outcome`` whose ``value`` is
    "spoken", "printed", "interrupted"..."""

    def record(self, count: int) -> Sequence[Any]:
        """The last ``count`` lines said, oldest first."""
        ...


HEARD_OUTCOMES = frozenset({"spoken", "printed"})
"""Outcomes of a line heard (or read) whole."""
LOST_OUTCOMES = frozenset({"interrupted", "replaced", "skipped", "dropped", "failed", "folded"})
"""Outcomes of a line not heard whole, for good."""
RECORD_LOOKBACK = 60
"""Lines of the output's record searched for the lines that named the cursor card."""


def spoken_whole(output: object) -> Callable[[Sequence[str]], bool | None] | None:
    """For an output that records what became of each line, a probe saying whether all
    of some lines (the newest with each text) were spoken whole: True, False (one was
    cut off or skipped), or None (not settled yet, or not found). None for other outputs."""
    if not isinstance(output, RecordedOutput):
        return None
    recorder = output

    def probe(texts: Sequence[str]) -> bool | None:
        entries = list(recorder.record(RECORD_LOOKBACK))
        outcomes = []
        for text in texts:
            entry = next((e for e in reversed(entries) if getattr(e, "text", None) == text),
                         None)
            outcome = getattr(getattr(entry, "outcome", None), "value", None)
            outcomes.append(outcome)
        if any(o in LOST_OUTCOMES for o in outcomes):
            return False
        if outcomes and all(o in HEARD_OUTCOMES for o in outcomes):
            return True
        return None
    return probe


def watch_naming(heard: CursorHearing, lines: Sequence[Line], names: Card | None,
                 cursor: Card | None, output: Output) -> None:
    """Before ``lines`` go to ``output``: answers said at once cut
    what is playing, other lines wait their turn; then note whether the lines name the
    card under the cursor (``names``, or ``cursor`` when they hold a play prompt)."""
    busy = output.is_busy()
    if all(line.kind is LineKind.ANSWER for line in lines):
        heard.cut(busy)
    else:
        heard.settle(busy)
    card: Card | None = names
    if names is not None:
        texts = tuple(line.text for line in lines)
    else:
        texts = tuple(line.text for line in lines if line.message_id in PLAY_PROMPTS)
        card = cursor if texts else None
    if card is not None:
        heard.named(card, texts)
        heard.probe = spoken_whole(output)
