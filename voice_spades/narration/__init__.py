"""Narration: every sentence the game says, from one catalog, for one listener.

* :mod:`.catalog` holds every message template (brief, normal, verbose), loaded by
  :mod:`.templates`, and names engine values (cards, suits, bids) in its language;
* :class:`Phrasebook` names seats, cards, bids and scores for the listener and renders
  what lower layers report (:meth:`Phrasebook.message`, :meth:`Phrasebook.error`);
* :class:`Narrator` turns engine events into :class:`Line` objects, each with its
  :class:`Priority`;
* :func:`turn_prompt` says what the player is expected to do now;
* :class:`Answers` answers the player's questions and the hand cursor;
* :class:`History` keeps what was said, to be stepped through a message at a time;

Nothing below this layer imports it: engine, bots, storage and commands report typed
data (events, :class:`~voice_spades.messages.Message` values, errors with fields).
"""

from voice_spades.narration.answers import Answers
from voice_spades.narration.catalog import CATALOG, Verbosity, render, render_message
from voice_spades.narration.history import History
from voice_spades.narration.lines import Hints, Line, LineKind, Priority
from voice_spades.narration.narrator import Narrator, trick_tag
from voice_spades.narration.phrases import HAND_SUIT_ORDER, Phrasebook, hand_order
from voice_spades.narration.prompts import turn_prompt
from voice_spades.narration.review import HandRecord

__all__ = ["CATALOG", "HAND_SUIT_ORDER", "Answers", "HandRecord", "Hints", "History", "Line",
           "LineKind", "Narrator", "Phrasebook", "Priority", "Verbosity", "hand_order",
           "render", "render_message", "trick_tag", "turn_prompt"]
