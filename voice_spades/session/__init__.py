"""The game session: one controller turning intents into actions and answers.

Input layers push intents with :meth:`Session.submit` (thread-safe) and read what
they need to interpret the player from :meth:`Session.context`.
"""

from voice_spades.session.controller import BotFactory, Session, default_bots
from voice_spades.session.inputs import GrammarContext, InputEnded, KeyPress, QueueItem
from voice_spades.session.output import Output
from voice_spades.session.pacing import Pacer
from voice_spades.session.settings import GameSettings

__all__ = ["BotFactory", "GameSettings", "GrammarContext", "InputEnded", "KeyPress", "Output",
           "Pacer", "QueueItem", "Session", "default_bots"]
