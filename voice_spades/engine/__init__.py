"""The Spades rules engine: pure Python, no I/O, deterministic from a seed.

Typical use::

    from voice_spades.engine import Match, profile
    match = Match(profile("pagat"), seed=7)
    while not match.is_over:
        action = match.legal_actions()[0]
        events = match.apply(action)
"""

from voice_spades.engine.actions import (
    BLIND_NIL,
    NIL,
    Action,
    Bid,
    BlindNilChoice,
    DrawChoice,
    Exchange,
)
from voice_spades.engine.cards import CARDS, Card, CardMask, Suit, cards_of, mask_of
from voice_spades.engine.events import Event, Trick
from voice_spades.engine.hand import HandState, Phase
from voice_spades.engine.match import Match
from voice_spades.engine.profiles import PROFILE_NAMES, RuleOptions, profile
from voice_spades.engine.scoring import HandScore, SideScore, score_hand
from voice_spades.engine.seats import seat_name
from voice_spades.engine.view import PlayerView

__all__ = [
    "BLIND_NIL", "CARDS", "NIL", "PROFILE_NAMES", "Action", "Bid", "BlindNilChoice", "Card",
    "CardMask", "DrawChoice", "Event", "Exchange", "HandScore", "HandState", "Match", "Phase",
    "PlayerView", "RuleOptions", "SideScore", "Suit", "Trick", "cards_of", "mask_of", "profile",
    "score_hand", "seat_name",
]
