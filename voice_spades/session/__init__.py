"""The game session: one controller turning intents into actions and answers.

Input layers push intents with :meth:`Session.submit` (thread-safe) and read what
they need to interpret the player from :meth:`Session.context`. The player's turn
(:mod:`.turns`) decides what an intent means from a :class:`~.decisions.TurnTable`
and returns a :class:`~.decisions.Decision`; the session carries it out through its
:class:`Ports` (output, autosave, record, pace). A speech adapter implements
:class:`Output` from above (:mod:`voice_spades.speech.output`): the session imports no
speech.
"""

from voice_spades.session.bots import HUMAN, BotFactory, default_bots
from voice_spades.session.controller import Session
from voice_spades.session.decisions import Decision, Request, TurnTable
from voice_spades.session.inputs import GrammarContext, InputEnded, KeyPress, QueueItem
from voice_spades.session.output import Output
from voice_spades.session.pacing import Pacer
from voice_spades.session.ports import InputHooks, Ports
from voice_spades.session.settings import GameSettings
from voice_spades.session.turns import PlayerTurn

__all__ = ["HUMAN", "BotFactory", "Decision", "GameSettings", "GrammarContext", "InputEnded",
           "InputHooks", "KeyPress", "Output", "Pacer", "PlayerTurn", "Ports", "QueueItem",
           "Request", "Session", "TurnTable", "default_bots"]
