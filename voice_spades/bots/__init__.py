"""Computer players: ``make_bot(level, seat, rules)`` for the levels in ``LEVELS``.

- ``knowledge``: what a seat may know from its view (unseen cards, voids).
- ``hand_value``: trick estimates and nil danger for bidding.
- ``policy``: the card-play heuristic (Medium's play, Hard's look-ahead policy).
- ``bits``: card-mask helpers and the fast copy of the trick rules (with ``rollout``'s
  legal cards and spades broken), checked against the engine by
  ``tests/bots/test_fast_rules.py``.
- ``sampler``, ``rollout``, ``guards``: Hard's deals, play-outs and blunder filter.
- ``easy``, ``medium``, ``hard``: the three levels; ``two_player``: draw decisions;
  ``legal_player``: the simple player of simulations.

The bots read the engine through its facade, :mod:`voice_spades.engine`; the level
modules import their siblings directly, never this package, so no import cycle runs
through here.
"""

from voice_spades.bots.base import Bot, decide
from voice_spades.bots.levels import LEVELS, make_bot

__all__ = ["LEVELS", "Bot", "decide", "make_bot"]
