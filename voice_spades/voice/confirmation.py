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
from voice_spades.engine.actions import Bid, BlindNilChoice, DrawChoice, Exchange
from voice_spades.engine.cards import Card
from voice_spades.voice.grammar import PhraseTable
from voice_spades.voice.lexicon import Lexicon, default_lexicon
from voice_spades.voice.meaning import Reading, read
from voice_spades.voice.recognizer import Recognition

LOW_CONFIDENCE = 0.5
"""Recognizer confidence below which a card play is asked about. Measured with
PocketSphinx on 2,256 synthesized clips: together with the close alternatives of
:data:`~voice_spades.voice.meaning.CLOSE_PROBABILITY` it leaves 5 of 848 legal
card plays wrong and unasked (0.6%) and asks about 9% of the right ones; 0.7
would leave 3 but ask about 17%."""

QUIT_CONFIDENCE = 0.9
"""Below this recognizer confidence "save and quit" is asked about. Measured on
synthesized speech: right quits scored 0.96 to 1.0 (8 clips); other phrases heard
as a quit scored 0.59, 0.79 and 0.79."""


QUIT_QUESTION = "Save and quit?"


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


def question(intent: Act | PlayCurrent, cursor: Card | None = None, phase: str = "") -> str:
    """The short yes/no question about an action: "Queen of hearts?", "Bid four?"."""
    if isinstance(intent, PlayCurrent):
        if phase == "exchange":
            return "Exchange the marked cards?"
        return f"Play the {cursor.name}?" if cursor is not None else "Play it?"
    action = intent.action
    if isinstance(action, Card):
        text = action.name
    elif isinstance(action, Bid):
        text = "blind nil" if action.blind else "bid nil" if action.is_nil \
            else "bid " + default_lexicon().numbers.get(action.tricks, str(action.tricks))
    elif isinstance(action, BlindNilChoice):
        text = "blind nil" if action.declare else "no blind nil"
    elif isinstance(action, DrawChoice):
        text = "keep it" if action.keep else "discard it"
    elif isinstance(action, Exchange):
        names = [card.name for card in action.cards]
        text = "exchange the " + " and the ".join(names) if names else "keep all your cards"
    return text[0].upper() + text[1:] + "?"
