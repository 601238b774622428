"""When to ask before acting on what was heard.

* A bid (and the two-player blind nil decision) is always asked about before it
  is made, unless the player switched confirmation off: "Bid four?".
* A card (a draw decision, an exchange, "play it") is asked about only when the
  recognizer was unsure, the words were not exactly a phrase, or another legal
  action was nearly heard: "Queen of hearts?". An action the rules forbid is not
  asked about: the session says why it is refused.
* Queries, answers and harmless commands go through at once. "New game" is
  asked about by the session itself; "save and quit", which ends the program,
  is taken at once only when heard with high confidence, else it is asked
  about: "Save and quit?".
"""

from __future__ import annotations

from dataclasses import dataclass

from voice_spades.commands import (
    Act,
    AnyIntent,
    Command,
    Control,
    PlayCurrent,
    Propose,
)
from voice_spades.engine import Bid, BlindNilChoice, Card, DrawChoice, Exchange, Phase
from voice_spades.messages import Message
from voice_spades.voice.lexicon import Lexicon, default_lexicon
from voice_spades.voice.lists import chain
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.understanding.grammar import Listening, PhraseTable
from voice_spades.voice.understanding.meaning import Reading, read

LOW_CONFIDENCE = 0.5
"""Recognizer confidence below which a card play is asked about. Measured with
PocketSphinx on 2,256 synthesized clips: together with the close alternatives of
:data:`~voice_spades.voice.understanding.meaning.CLOSE_PROBABILITY` it leaves 5 of 848 legal
card plays wrong and unasked (0.6%) and asks about 9% of the right ones; 0.7
would leave 3 but ask about 17%."""

QUIT_CONFIDENCE = 0.9
"""Below this recognizer confidence "save and quit" is asked about. Measured on
synthesized speech: right quits scored 0.96 to 1.0 (8 clips); other phrases heard
as a quit scored 0.59, 0.79 and 0.79."""

QUIT_QUESTION = Message("voice.confirm.quit")
"""The question asked before an uncertain "save and quit"."""


SWITCH_CONFIDENCE = 0.5
"""The sleep word ("stop listening", "start listening") changes what voice hears, so
it is obeyed only when heard exactly with at least this confidence; anything less is
dropped in silence."""


def switch(reading: Reading) -> Listening | None:
    """The sleep word to obey in ``reading``, or None (not the sleep word, or heard
    with doubt)."""
    meaning = reading.meaning
    if isinstance(meaning, Listening) and reading.cost == 0 \
            and reading.confidence >= SWITCH_CONFIDENCE:
        return meaning
    return None


@dataclass(frozen=True, slots=True)
class ConfirmationPolicy:
    """The player's confirmation settings."""

    confirm_bids: bool = True
    """Ask before every bid ("Bid four?"); off for players who find it slow."""
    min_confidence: float = LOW_CONFIDENCE
    """Below this recognizer confidence, a card play is asked about."""


DEFAULT_POLICY = ConfirmationPolicy()


def decide(reading: Reading, table: PhraseTable,
           policy: ConfirmationPolicy = DEFAULT_POLICY) -> AnyIntent:
    """The intent to hand the session: ``reading.intent`` or a :class:`Propose`
    asking about it."""
    intent = reading.intent
    unsure = (reading.confidence < policy.min_confidence or reading.cost > 0
              or bool(reading.rivals))
    if isinstance(intent, Command):
        if intent.control is Control.SAVE_AND_QUIT and (
                unsure or reading.confidence < QUIT_CONFIDENCE):
            return Propose(intent, QUIT_QUESTION)
        return intent
    if not isinstance(intent, Act | PlayCurrent) or intent not in table.legal:
        return intent
    is_bid = isinstance(intent, Act) and isinstance(intent.action, Bid | BlindNilChoice)
    if (is_bid and policy.confirm_bids) or unsure:
        return Propose(intent, question(intent, table.cursor, table.phase))
    return intent


def understand(heard: Recognition, table: PhraseTable, policy: ConfirmationPolicy = DEFAULT_POLICY,
               lexicon: Lexicon | None = None) -> AnyIntent:
    """Read ``heard`` in ``table`` and apply the confirmation policy."""
    return decide(read(heard, table, lexicon), table, policy)


def question(intent: Act | PlayCurrent, cursor: Card | None = None,
             phase: Phase | None = None, lexicon: Lexicon | None = None) -> Message:
    """The short yes/no question about an action: "Queen of hearts?", "Bid four?".

    Cards and numbers are named in the lexicon's words, the words the player said.
    """
    lex = lexicon or default_lexicon()
    if isinstance(intent, PlayCurrent):
        if phase == Phase.EXCHANGE:
            return Message("voice.confirm.exchange_marked")
        if cursor is None:
            return Message("voice.confirm.play_it")
        return Message("voice.confirm.play_card", card=spoken_card(cursor, lex))
    action = intent.action
    if isinstance(action, Card):
        return Message("voice.confirm.card", card=spoken_card(action, lex))
    if isinstance(action, Bid):
        if action.blind:
            return Message("voice.confirm.blind_nil")
        if action.is_nil:
            return Message("voice.confirm.bid_nil")
        return Message("voice.confirm.bid",
                       number=lex.numbers.get(action.tricks, str(action.tricks)))
    if isinstance(action, BlindNilChoice):
        return Message("voice.confirm.blind_nil" if action.declare
                       else "voice.confirm.no_blind_nil")
    if isinstance(action, DrawChoice):
        return Message("voice.confirm.keep" if action.keep else "voice.confirm.discard")
    if isinstance(action, Exchange) and action.cards:
        names = [spoken_card(card, lex) for card in action.cards]
        return Message("voice.confirm.exchange", cards=chain("voice.confirm.cards", names))
    return Message("voice.confirm.keep_all")


def spoken_card(card: Card, lexicon: Lexicon) -> str:
    """``card`` in the lexicon's words, as a player says it: "queen of hearts"."""
    return lexicon.actions["card"][0].format(rank=lexicon.ranks[card.rank][0],
                                             suit=card.suit.plural)
