"""Computer players: ``make_bot(level, seat, rules)`` for the levels in ``LEVELS``.

- ``knowledge``: what a seat may know from its view (unseen cards, voids).
- ``hand_value``: trick estimates and nil danger for bidding.
- ``policy``: the card-play heuristic (Medium's play, Hard's look-ahead policy).
- ``sampler``, ``rollout``, ``guards``: Hard's deals, play-outs and blunder filter.
- ``easy``, ``medium``, ``hard``: the three levels; ``two_player``: draw decisions.
"""

from voice_spades.bots.base import Bot, decide
from voice_spades.bots.levels import LEVELS, make_bot

__all__ = ["LEVELS", "Bot", "decide", "make_bot"]
