"""The phrases a player can say now, each mapped to exactly one meaning.

:func:`build_phrases` is called at every prompt: it expands the lexicon's
templates for what can be said in this state (the cards held while playing, the
legal bids while bidding, keep or discard while drawing, yes or no while a
question is pending, queries and session commands always). :func:`full_grammar`
holds every phrase sayable in any state, for the benchmark.

The blind nil exchange is spoken like it is keyed: "exchange the queen of
hearts" marks (or unmarks) a card, "exchange them" gives the marked cards back.

A phrase that two meanings would share is dropped from the table, so the table
is never ambiguous.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Chat,
    ChatStep,
    Command,
    Confirm,
    Intent,
    MarkCard,
    PlayCurrent,
    Query,
)
from voice_spades.engine import (
    CARDS,
    Action,
    Bid,
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    Phase,
    PlayerView,
    Suit,
    cards_of,
    highest,
    lowest,
)
from voice_spades.voice.lexicon import Lexicon, default_lexicon

MAX_BID = 17
"""Largest hand: three players hold 17 cards."""


@dataclass(frozen=True, slots=True)
class Extreme:
    """"highest heart", "lowest club": a card named by its place in a suit held."""

    suit: Suit
    highest: bool


@dataclass(frozen=True, slots=True)
class Listening:
    """The sleep word: "stop listening" (``on`` False), "start listening" (True).
    The voice layer keeps it: no intent reaches the session."""

    on: bool


@dataclass(frozen=True, slots=True)
class Decoy:
    """A phrase listened for while voice sleeps only so that speech resembling it is
    not taken for the wake phrase: it means nothing."""


Meaning = Intent | Extreme | Listening | Decoy
"""What a phrase names: an intent, a card reference resolved against the hand, the
sleep word, or nothing (a decoy)."""


@dataclass(frozen=True)
class PhraseTable:
    """Phrases (lower-case words) and what each means.

    ``meanings`` maps every phrase to its state-free meaning; ``resolved`` turns an
    :class:`Extreme` into the card it names in this state. A phrase may name an
    action that is not legal (a card held that cannot be played now): the session
    says why.
    """

    meanings: Mapping[str, Meaning]
    resolved: Mapping[Extreme, Intent] = field(default_factory=dict)
    legal: frozenset[Intent] = frozenset()
    """The actions (:class:`Act`, :class:`PlayCurrent`) allowed now."""
    cursor: Card | None = None
    """The card under the hand cursor, which "play it" plays."""
    phase: Phase | None = None
    """The phase of the view the table was built for (None for the full grammar)."""
    dropped: frozenset[str] = frozenset()
    """Phrases left out because two meanings claimed them."""
    offered: frozenset[Intent] = frozenset()
    """While a question offers a choice ("Quattro? O tre?"): the actions offered, which
    may be named in answer."""

    @property
    def phrases(self) -> list[str]:
        """Every phrase, sorted: the list a recognizer loads."""
        return sorted(self.meanings)

    @cached_property
    def prefixes(self) -> frozenset[str]:
        """The word sequences that start a phrase without being one."""
        starts: set[str] = set()
        for phrase in self.meanings:
            words = phrase.split()
            starts.update(" ".join(words[:end]) for end in range(1, len(words)))
        return frozenset(starts - set(self.meanings))

    def intent(self, phrase: str) -> Intent | None:
        """The intent ``phrase`` stands for now, or None if it is not in the table (or is
        the sleep word, which is no intent)."""
        meaning = self.meanings.get(phrase)
        if isinstance(meaning, Extreme):
            return self.resolved.get(meaning)
        if isinstance(meaning, Listening | Decoy):
            return None
        return meaning

    def __len__(self) -> int:
        return len(self.meanings)

    def __contains__(self, phrase: object) -> bool:
        return phrase in self.meanings


def meaning_kind(meaning: Meaning) -> str:
    """A short name of the kind of a meaning: "card", "bid", "query"..."""
    if isinstance(meaning, Act):
        action = meaning.action
        if isinstance(action, Card):
            return "card"
        if isinstance(action, Bid):
            return "bid"
        if isinstance(action, BlindNilChoice):
            return "blind-nil"
        if isinstance(action, DrawChoice):
            return "draw"
        return "exchange"
    names: dict[type, str] = {Extreme: "extreme", Listening: "listening", Decoy: "decoy",
                              PlayCurrent: "play-it", MarkCard: "mark",
                              Ask: "query", Command: "command", Chat: "command",
                              Confirm: "answer",
                              Cancel: "answer"}
    return names.get(type(meaning), type(meaning).__name__.lower())


def asleep_phrases(decoys: Iterable[str] = (), lexicon: Lexicon | None = None) -> PhraseTable:
    """While voice sleeps ("stop listening"): the wake phrases, and ``decoys`` that
    mean nothing (the phrases of the prompt, say), but for the sleep phrases that sound
    like a wake phrase (the lexicon's "like-wake").

    Alone, a wake phrase would be the best fit for all speech, and table talk woke
    voice one time in five (measured on the chatter set); among the decoys, speech
    that is not the wake phrase finds a closer phrase that is ignored.
    """
    lex = lexicon or default_lexicon()
    builder = _Builder()
    wake = lex.listening["wake"]
    builder.add_all((p, Listening(True)) for p in wake)
    left_out = {*wake, *lex.listening.get("like-wake", ())}
    builder.add_all((p, Decoy()) for p in decoys if p not in left_out)
    return builder.table()


def build_phrases(view: PlayerView, *, confirming: bool, cursor: Card | None,
                  lexicon: Lexicon | None = None,
                  offered: Iterable[Intent] = ()) -> PhraseTable:
    """The phrases sayable at this prompt for ``view``'s seat.

    Queries and session commands are always sayable. While ``confirming`` (a
    question is pending) so are the answers, the actions the question ``offered``
    ("Quattro? O tre?": a bid or a card, legal now), and no other action but the
    blind nil or draw decision the question may be about. Otherwise, in the play
    phase every card held can be named (an illegal one still maps to its
    :class:`Act`, so the session can say why it is refused); in the other phases
    the legal actions.
    """
    lex = lexicon or default_lexicon()
    builder = _Builder(view.phase)
    builder.add_all(_query_and_command_phrases(lex))
    legal: set[Intent] = {Act(action) for action in view.legal}
    if confirming:
        builder.add_all(_answer_phrases(lex))
        if view.phase in (Phase.BLIND_NIL, Phase.DRAW):
            builder.add_all(_decision_phrases(lex, view.legal))
        choices = [i for i in offered if isinstance(i, Act) and i in legal]
        for choice in choices:
            if isinstance(choice.action, Bid):
                builder.add_all(_bid_phrases(lex, choice.action))
            elif isinstance(choice.action, Card):
                builder.add_all(_card_phrases(lex, choice.action))
        return builder.table(legal=legal, cursor=cursor, offered=choices)
    if view.phase == Phase.PLAY:
        return _play_phrases(lex, builder, view, cursor, legal)
    if view.phase == Phase.EXCHANGE and view.is_my_turn:
        for card in cards_of(view.hand):
            builder.add_all(_mark_phrases(lex, card))
        builder.add_all((p, PlayCurrent()) for p in lex.actions["exchange-marked"])
        builder.add_all((p, Act(Exchange())) for p in lex.actions["no-exchange"])
        legal.update((Act(Exchange()), PlayCurrent()))
        return builder.table(legal=legal, cursor=cursor)
    for action in view.legal:
        if isinstance(action, Bid):
            builder.add_all(_bid_phrases(lex, action))
    builder.add_all(_decision_phrases(lex, view.legal))
    return builder.table(legal=legal, cursor=cursor)


def _play_phrases(lex: Lexicon, builder: _Builder, view: PlayerView, cursor: Card | None,
                  legal: set[Intent]) -> PhraseTable:
    for card in cards_of(view.hand):
        builder.add_all(_card_phrases(lex, card))
    resolved: dict[Extreme, Intent] = {}
    for suit in Suit:
        in_suit = view.hand & suit.mask
        if in_suit:
            for top in (True, False):
                extreme = Extreme(suit, top)
                resolved[extreme] = Act(highest(in_suit) if top else lowest(in_suit))
                builder.add_all(_extreme_phrases(lex, extreme))
    if cursor is not None and view.hand & cursor.bit:
        builder.add_all((p, PlayCurrent()) for p in lex.actions["play-it"])
        if Act(cursor) in legal:
            legal.add(PlayCurrent())
    return builder.table(resolved, legal=legal, cursor=cursor)


def full_grammar(lexicon: Lexicon | None = None) -> PhraseTable:
    """Every phrase sayable in some state, with its meaning; every action is legal.
    Built once per lexicon (English by default)."""
    lex = lexicon or default_lexicon()
    known = _FULL_GRAMMARS.get(id(lex))
    if known is None or known[0] is not lex:
        known = _FULL_GRAMMARS[id(lex)] = (lex, _build_full_grammar(lex))
    return known[1]


_FULL_GRAMMARS: dict[int, tuple[Lexicon, PhraseTable]] = {}


def _build_full_grammar(lex: Lexicon) -> PhraseTable:
    builder = _Builder()
    builder.add_all(_query_and_command_phrases(lex))
    builder.add_all(_answer_phrases(lex))
    builder.add_all((p, Listening(True)) for p in lex.listening["wake"])
    for card in CARDS:
        builder.add_all(_card_phrases(lex, card))
        builder.add_all(_mark_phrases(lex, card))
    for suit in Suit:
        for top in (True, False):
            builder.add_all(_extreme_phrases(lex, Extreme(suit, top)))
    builder.add_all((p, PlayCurrent()) for p in lex.actions["play-it"])
    builder.add_all((p, PlayCurrent()) for p in lex.actions["exchange-marked"])
    builder.add_all((p, Act(Exchange())) for p in lex.actions["no-exchange"])
    for tricks in range(MAX_BID + 1):
        builder.add_all(_bid_phrases(lex, Bid(tricks)))
    builder.add_all(_decision_phrases(lex, (BlindNilChoice(True), BlindNilChoice(False),
                                            DrawChoice(True), DrawChoice(False))))
    legal = {m for m in builder.meanings.values() if isinstance(m, Act | PlayCurrent)}
    return builder.table(legal=legal)


def all_phrases(lexicon: Lexicon | None = None) -> dict[str, str]:
    """Every phrase of :func:`full_grammar` with its meaning's kind."""
    table = full_grammar(lexicon)
    return {phrase: meaning_kind(meaning) for phrase, meaning in table.meanings.items()}


def shuffled_by_kind(lexicon: Lexicon, rng: random.Random,
                     wanted: Callable[[str], bool] = lambda kind: True) -> dict[str, list[str]]:
    """The phrases of each ``wanted`` kind, each kind's in an order drawn from ``rng``
    (the same for the same seed: test speech and the voice training's script are
    picked from them)."""
    by_kind: dict[str, list[str]] = {}
    for phrase, kind in sorted(all_phrases(lexicon).items()):
        if wanted(kind):
            by_kind.setdefault(kind, []).append(phrase)
    for phrases in by_kind.values():
        rng.shuffle(phrases)
    return by_kind


class _Builder:
    """Collects (phrase, meaning) pairs, dropping any phrase two meanings claim."""

    def __init__(self, phase: Phase | None = None) -> None:
        self.phase = phase
        self.meanings: dict[str, Meaning] = {}
        self.dropped: set[str] = set()

    def add_all(self, pairs: Iterable[tuple[str, Meaning]]) -> None:
        for phrase, meaning in pairs:
            phrase = " ".join(phrase.split())
            if phrase in self.dropped:
                continue
            known = self.meanings.get(phrase)
            if known is None:
                self.meanings[phrase] = meaning
            elif known != meaning:
                del self.meanings[phrase]
                self.dropped.add(phrase)

    def table(self, resolved: Mapping[Extreme, Intent] | None = None, *,
              legal: Iterable[Intent] = (), cursor: Card | None = None,
              offered: Iterable[Intent] = ()) -> PhraseTable:
        return PhraseTable(dict(self.meanings), dict(resolved or {}), frozenset(legal),
                           cursor, self.phase, frozenset(self.dropped), frozenset(offered))


def _expand(template: str, **slots: Iterable[str]) -> Iterator[str]:
    """Fill ``{name}`` slots of a template with every combination of words."""
    names = [name for name in slots if "{" + name + "}" in template]
    for words in itertools.product(*(tuple(slots[name]) for name in names)):
        text = template
        for name, word in zip(names, words, strict=True):
            text = text.replace("{" + name + "}", word)
        yield text


def _card_words(lex: Lexicon, card: Card, template: str) -> Iterator[str]:
    return _expand(template, **lex.rank_slots(card.rank), **lex.suit_slots(card.suit))


def _card_phrases(lex: Lexicon, card: Card) -> Iterator[tuple[str, Meaning]]:
    for template in lex.actions["card"]:
        for phrase in _card_words(lex, card, template):
            yield phrase, Act(card)


def _extreme_phrases(lex: Lexicon, extreme: Extreme) -> Iterator[tuple[str, Meaning]]:
    key = "highest" if extreme.highest else "lowest"
    for template in lex.actions[key]:
        for phrase in _expand(template, **lex.suit_slots(extreme.suit)):
            yield phrase, extreme


def _bid_phrases(lex: Lexicon, bid: Bid) -> Iterator[tuple[str, Meaning]]:
    if bid.blind:
        return
    if bid.is_nil:
        yield from ((p, Act(bid)) for p in lex.actions["nil"])
        return
    for template in lex.actions["bid"]:
        for phrase in _expand(template, number=(lex.numbers[bid.tricks],)):
            yield phrase, Act(bid)


def _mark_phrases(lex: Lexicon, card: Card) -> Iterator[tuple[str, Meaning]]:
    names = {slot: tuple(_card_words(lex, card, template))
             for slot, template in card_templates(lex).items()}
    for template in lex.actions["mark"]:
        for phrase in _expand(template, **names):
            yield phrase, MarkCard(card)


def card_templates(lex: Lexicon) -> dict[str, str]:
    """How a card is named in a phrase or a question: ``card`` ("queen of hearts") and,
    where the language has articles, ``the_card`` ("l'asso di picche")."""
    return {"card": lex.actions["card"][0], **lex.names}


def _decision_phrases(lex: Lexicon,
                      actions: Iterable[Action]) -> Iterator[tuple[str, Meaning]]:
    """Phrases of the two-player blind nil and draw decisions among ``actions``."""
    for action in actions:
        if isinstance(action, BlindNilChoice):
            key = "blind-nil" if action.declare else "no-blind-nil"
        elif isinstance(action, DrawChoice):
            key = "keep" if action.keep else "discard"
        else:
            continue
        yield from ((p, Act(action)) for p in lex.actions[key])


def _query_and_command_phrases(lex: Lexicon) -> Iterator[tuple[str, Meaning]]:
    for query, templates in lex.queries.items():
        for template in templates:
            if query is Query.SUIT:
                for suit in Suit:
                    for phrase in _expand(template, **lex.suit_slots(suit)):
                        yield phrase, Ask(query, suit)
            else:
                yield template, Ask(query)
    for control, phrases in lex.commands.items():
        yield from ((p, Command(control)) for p in phrases)
    yield from ((p, Chat(ChatStep.OPEN)) for p in lex.chat)
    yield from ((p, Listening(False)) for p in lex.listening["sleep"])


def _answer_phrases(lex: Lexicon) -> Iterator[tuple[str, Meaning]]:
    yield from ((p, Confirm(True)) for p in lex.answers["yes"])
    yield from ((p, Confirm(False)) for p in lex.answers["no"])
    yield from ((p, Cancel()) for p in lex.answers["cancel"])
