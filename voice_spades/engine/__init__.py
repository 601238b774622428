"""The Spades rules engine: pure Python, no I/O, deterministic from a seed.

The rest of the package imports engine names from here, never from the modules
inside. A match is driven like a python-chess board: ask for the legal actions,
apply one, read the events; a refused action says why as a catalog message (the
engine builds no sentence, :mod:`voice_spades.narration` words it).

Inside, lowest first: ``cards`` (cards, suits, masks), ``actions`` (bids and the
other actions, their text forms), ``profiles`` (the rule options and presets),
``seats``, ``phase``, ``legal`` (trick rules on masks), ``bidding`` (which bids are
allowed), ``deck`` (the cards in play, dealing, deal checks), ``events``, ``scoring``,
``position`` (a hand's facts and what is legal in it), ``hand`` (the hand's state
machine), ``saved_hand`` and ``saved_rules`` (reading saves back, with checks),
``outcome``, ``view`` (what one seat may know) and ``match``.

>>> match = Match(profile("pagat", target=100), seed=7)
>>> match.view(0).phase is Phase.BID, match.is_legal(Bid(14))
(True, False)
>>> match.refusal(Bid(14))
Message('refusal.bid_too_high', size=13, tricks=14)
>>> while not match.is_over:
...     legal = match.legal_actions()
...     events = match.apply(Bid(3) if Bid(3) in legal else legal[0])
>>> match.outcome()
Outcome(winner=1, reason=<OutcomeReason.TARGET_REACHED: 'target-reached'>)
>>> events[-1]
MatchOver(winner=1, scores=(1, 124), hands_played=2)
>>> Card.parse("queen of hearts"), Card.parse("QH").suit is Suit.HEARTS
(Card.parse('QH'), True)
"""

from voice_spades.engine.actions import (
    BLIND_NIL,
    NIL,
    Action,
    Bid,
    BlindNilChoice,
    DrawChoice,
    Exchange,
    action_from_text,
    action_to_text,
)
from voice_spades.engine.cards import (
    ACE_OF_SPADES,
    ALL_CARDS_MASK,
    CARDS,
    FIRST_SPADE,
    KING_OF_SPADES,
    NON_SPADES_MASK,
    SPADES_MASK,
    SUIT_MASKS,
    SUIT_OF,
    TWO_OF_CLUBS,
    Card,
    CardMask,
    Suit,
    cards_of,
    highest,
    lowest,
    mask_of,
)
from voice_spades.engine.deck import deck_for, deck_mask
from voice_spades.engine.events import (
    BiddingComplete,
    BidMade,
    BlindNilDecided,
    CardDrawn,
    CardPlayed,
    CardsExchanged,
    DrawFinished,
    Event,
    HandDealt,
    HandScored,
    HandStarted,
    MatchOver,
    SpadesBroken,
    TiedAtTarget,
    Trick,
    TrickWon,
)
from voice_spades.engine.hand import HandState
from voice_spades.engine.legal import legal_mask, trick_winner_index
from voice_spades.engine.match import Match
from voice_spades.engine.outcome import Outcome, OutcomeReason, match_outcome
from voice_spades.engine.phase import Phase
from voice_spades.engine.position import HandPosition
from voice_spades.engine.profiles import (
    DEFAULT_HAND_LIMIT,
    MAX_HAND_LIMIT,
    PROFILE_NAMES,
    Deal,
    FailedNil,
    FirstLead,
    MatchEnd,
    RuleOptions,
    profile,
)
from voice_spades.engine.saved_rules import options_from_dict, options_to_dict
from voice_spades.engine.scoring import HandScore, NilResult, SideScore, score_hand
from voice_spades.engine.seats import SEAT_NAMES, Seat, seat_name
from voice_spades.engine.view import PlayerView
from voice_spades.errors import (
    IllegalActionError,
    InvalidInputError,
    InvalidStateError,
    SpadesError,
)
from voice_spades.messages import Message

__all__ = [
    "ACE_OF_SPADES", "ALL_CARDS_MASK", "BLIND_NIL", "CARDS", "DEFAULT_HAND_LIMIT",
    "FIRST_SPADE", "KING_OF_SPADES", "MAX_HAND_LIMIT", "NIL", "NON_SPADES_MASK",
    "PROFILE_NAMES", "SEAT_NAMES", "SPADES_MASK", "SUIT_MASKS",
    "SUIT_OF", "TWO_OF_CLUBS", "Action", "Bid", "BidMade", "BiddingComplete",
    "BlindNilChoice", "BlindNilDecided", "Card", "CardDrawn", "CardMask", "CardPlayed",
    "CardsExchanged", "Deal", "DrawChoice", "DrawFinished", "Event", "Exchange",
    "FailedNil", "FirstLead", "HandDealt", "HandPosition", "HandScore", "HandScored", "HandStarted",
    "HandState", "IllegalActionError", "InvalidInputError", "InvalidStateError", "Match",
    "MatchEnd", "MatchOver", "Message", "NilResult", "Outcome", "OutcomeReason", "Phase",
    "PlayerView",
    "RuleOptions", "Seat", "SideScore", "SpadesBroken", "SpadesError", "Suit",
    "TiedAtTarget", "Trick", "TrickWon", "action_from_text", "action_to_text", "cards_of",
    "deck_for", "deck_mask", "highest", "legal_mask", "lowest", "mask_of", "match_outcome",
    "options_from_dict", "options_to_dict", "profile", "score_hand", "seat_name",
    "trick_winner_index",
]
