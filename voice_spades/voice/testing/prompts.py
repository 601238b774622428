"""Game states to test spoken phrases in: the prompt a phrase is said at.

``voice-spades bench voice`` decodes each clip with the grammar the game loads at
a prompt where its phrase can be said. A card is tried both where it may be
played and where it may not (following another suit, or a spade led before
spades are broken), so a spade misheard as another spade counts as the wrong
action it would be, and the card questions are exercised for every suit.
Speech outside the grammar (chatter, noise) is tried at every prompt a player
waits at: a bid, a card play, a pending yes/no question, the two-player draw,
the card exchange after a blind nil, and while voice sleeps ("stop listening").
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

from voice_spades.commands import Act, Cancel, Confirm, MarkCard, PlayCurrent
from voice_spades.engine import (
    CARDS,
    Bid,
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    Match,
    Phase,
    PlayerView,
    Suit,
    cards_of,
    legal_mask,
    mask_of,
    profile,
)
from voice_spades.voice.lexicon import Lexicon, default_lexicon
from voice_spades.voice.understanding.grammar import (
    Extreme,
    Listening,
    PhraseTable,
    asleep_phrases,
    build_phrases,
    full_grammar,
)

CHATTER_PROMPTS = ("bid", "play", "question", "draw", "exchange", "asleep", "blind-nil")
"""The prompts out-of-grammar speech is tried at ("exchange": choosing the cards to
give back after a blind nil; "asleep": after "stop listening", where only the wake
phrase may be heard; "blind-nil": choosing blind nil before seeing one's cards)."""


def prompt_table(phrase: str, seed: int,
                 lexicon: Lexicon | None = None) -> tuple[str, PhraseTable]:
    """The prompt's name and grammar of a state in which ``phrase`` (of the full
    grammar of ``lexicon``, English by default) can be said; ``seed`` varies the hand
    and whether a card is legal."""
    rng = random.Random(seed)
    lex = lexicon or default_lexicon()
    meaning = full_grammar(lex).meanings[phrase]
    confirming, cursor, prompt = False, None, "play"
    if meaning == Listening(True):
        return "asleep", asleep_table(seed, lex)
    if isinstance(meaning, Act) and isinstance(meaning.action, Card):
        view = play_view(rng, meaning.action, legal=seed % 2 == 0)
    elif isinstance(meaning, Extreme):
        view = play_view(rng, rng.choice(cards_of(meaning.suit.mask)))
    elif isinstance(meaning, PlayCurrent) and phrase in lex.actions["play-it"]:
        view = play_view(rng, None)
        cursor = rng.choice(view.hand_cards)
    elif isinstance(meaning, MarkCard | PlayCurrent) or meaning == Act(Exchange()):
        card = meaning.card if isinstance(meaning, MarkCard) else None
        view, prompt = exchange_view(rng, card), "exchange"
    elif isinstance(meaning, Act) and isinstance(meaning.action, Bid):
        view, prompt = bid_view(meaning.action.tricks > 13), "bid"
    elif isinstance(meaning, Act) and isinstance(meaning.action, BlindNilChoice | DrawChoice):
        draw = isinstance(meaning.action, DrawChoice)
        view, confirming = two_player_view(draw), True
        prompt = "draw" if draw else "blind-nil"
    elif isinstance(meaning, Confirm | Cancel):
        view, confirming, prompt = play_view(rng, None), True, "question"
    elif rng.random() < 0.5:
        view = play_view(rng, None)
    else:
        view, prompt = bid_view(False), "bid"
    table = build_phrases(view, confirming=confirming, cursor=cursor, lexicon=lex)
    if phrase not in table:
        raise ValueError(f"{phrase!r} is not sayable in the state built for it")
    return prompt, table


def chatter_table(prompt: str, seed: int, lexicon: Lexicon | None = None) -> PhraseTable:
    """The grammar of one of :data:`CHATTER_PROMPTS`, with a hand drawn from ``seed``."""
    rng = random.Random(seed)
    lex = lexicon or default_lexicon()
    if prompt == "bid":
        return build_phrases(bid_view(rng.random() < 0.2), confirming=False, cursor=None,
                             lexicon=lex)
    if prompt == "play":
        view = play_view(rng, None)
        return build_phrases(view, confirming=False, cursor=rng.choice(view.hand_cards),
                             lexicon=lex)
    if prompt == "question":
        return build_phrases(play_view(rng, None), confirming=True, cursor=None, lexicon=lex)
    if prompt == "draw":
        return build_phrases(two_player_view(True), confirming=True, cursor=None, lexicon=lex)
    if prompt == "exchange":
        return build_phrases(exchange_view(rng, None), confirming=False, cursor=None,
                             lexicon=lex)
    if prompt == "asleep":
        return asleep_table(seed, lex)
    if prompt == "blind-nil":
        return build_phrases(two_player_view(False), confirming=True, cursor=None,
                             lexicon=lex)
    raise ValueError(f"unknown prompt {prompt!r}")


def asleep_table(seed: int, lexicon: Lexicon | None = None) -> PhraseTable:
    """The grammar while voice sleeps at the play prompt: the wake phrases among the
    prompt's phrases as decoys, as the listener loads it."""
    view = play_view(random.Random(seed), None)
    lex = lexicon or default_lexicon()
    decoys = build_phrases(view, confirming=False, cursor=None, lexicon=lex).phrases
    return asleep_phrases(decoys=decoys, lexicon=lex)


@cache
def _base_view(rules: str, players: int, phase: Phase) -> PlayerView:
    match = Match(profile(rules, players=players), seed=1)
    rng = random.Random(1)
    while match.view(0).phase != phase:
        match.apply(rng.choice(match.legal_actions()))
    assert match.to_act is not None
    return match.view(match.to_act)


def play_view(rng: random.Random, card: Card | None, legal: bool | None = None) -> PlayerView:
    """A view at the play prompt holding 13 random cards (and ``card``).

    The trick is led by the player or follows a suit, with spades broken or not,
    drawn at random; with ``legal`` given, so that ``card`` may (True) or may not
    (False) be played, when the hand allows it.
    """
    others = [c for c in CARDS if c != card]
    hand = mask_of([card, *rng.sample(others, 12)] if card else rng.sample(CARDS, 13))
    options = [(None, False), (None, True), *((suit, False) for suit in Suit)]
    if card is not None and legal is not None:
        fitting = [o for o in options if bool(_legal(hand, *o) & card.bit) == legal]
        options = fitting or options
    led, broken = rng.choice(options)
    return replace(_base_view("pagat", 4, Phase.PLAY), hand=hand, spades_broken=broken,
                   legal=tuple(cards_of(_legal(hand, led, broken))))


def exchange_view(rng: random.Random, card: Card | None) -> PlayerView:
    """A view at the exchange after a blind nil (13 random cards and ``card``): any
    card held may be marked, and the marked ones given back."""
    return replace(play_view(rng, card), phase=Phase.EXCHANGE, legal=(Exchange(),))


def _legal(hand: int, led: Suit | None, broken: bool) -> int:
    return legal_mask(hand, None if led is None else int(led), broken)


def bid_view(seventeen: bool) -> PlayerView:
    """A view at the bid prompt (bids up to 17 with three players' hands)."""
    if seventeen:
        return _base_view("playroom", 3, Phase.BID)
    return _base_view("pagat", 4, Phase.BID)


def two_player_view(draw: bool) -> PlayerView:
    """A two-player view at the draw (``draw``) or the blind nil decision."""
    if not draw:
        return _base_view("two-player", 2, Phase.BLIND_NIL)
    match = Match(profile("two-player"), seed=1)
    while match.view(0).phase == Phase.BLIND_NIL:
        match.apply(BlindNilChoice(False))
    assert match.to_act is not None
    return match.view(match.to_act)
