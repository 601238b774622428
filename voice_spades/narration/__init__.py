"""Narration: every sentence the game says, from one catalog, for one listener.

* :mod:`.catalog` holds every message template (brief, normal, verbose);
* :class:`Phrasebook` names seats, cards, bids and scores for the listener;
* :class:`Narrator` turns engine events into :class:`Line` objects;
* :func:`turn_prompt` says what the player is expected to do now;
* :class:`Answers` answers the player's questions and the hand cursor.
"""

from voice_spades.narration.answers import Answers
from voice_spades.narration.catalog import CATALOG, Verbosity, render
from voice_spades.narration.lines import Hints, Line
from voice_spades.narration.narrator import Narrator, trick_tag
from voice_spades.narration.phrases import HAND_SUIT_ORDER, Phrasebook, hand_order
from voice_spades.narration.prompts import turn_prompt

__all__ = ["CATALOG", "HAND_SUIT_ORDER", "Answers", "Hints", "Line", "Narrator", "Phrasebook",
           "Verbosity", "hand_order", "render", "trick_tag", "turn_prompt"]
