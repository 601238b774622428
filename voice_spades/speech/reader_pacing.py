"""How long a screen reader takes to say a line, and its rate in words per minute.

Used by :mod:`.screen_reader` to pace the readers that cannot say when they are done
(JAWS, Orca), as a bound for those that can, and to move Speech Dispatcher's rate
relative to the player's own.
"""

from __future__ import annotations

import itertools

GAME_RATE = 200
"""The game's default words per minute: it stands for the reader's own rate."""
ASSUMED_WPM = 200
"""The reader's rate in words per minute when the backend cannot tell it."""
SPEECHD_WPM = ((0.0, 80.0), (0.25, 120.0), (0.5, 160.0), (0.6, 210.0), (0.7, 258.0),
               (0.8, 308.0), (0.9, 350.0), (1.0, 387.0))
"""Words per minute at prism's rates on Speech Dispatcher with the espeak-ng module's
default configuration (measured: ``bench speech`` and tests/speech/test_speechd.py)."""
CHARS_PER_WORD = 6.3
"""Characters (spaces and punctuation included) per word in the rate's sense."""
ESTIMATE_MARGIN = (1.3, 0.5)
"""The estimate errs long: factor and seconds added. The seconds cover the reader's
start-up and a loaded machine (on two busy cores espeak-ng through Speech Dispatcher
took 1.59 s over "North bids four." at 160 words a minute, where the rate alone gives
1.13 s)."""


def speechd_wpm(fraction: float) -> float:
    """Words per minute of prism's rate ``fraction`` on Speech Dispatcher (espeak-ng).

    >>> speechd_wpm(0.5), speechd_wpm(1.0), round(speechd_wpm(0.55), 1)
    (160.0, 387.0, 185.0)
    """
    fraction = max(0.0, min(1.0, fraction))
    for (f0, w0), (f1, w1) in itertools.pairwise(SPEECHD_WPM):
        if fraction <= f1:
            return w0 + (fraction - f0) / (f1 - f0) * (w1 - w0)
    return SPEECHD_WPM[-1][1]


def speechd_fraction(wpm: float) -> float:
    """The inverse of :func:`speechd_wpm`, clamped to 0-1.

    >>> speechd_fraction(160.0), speechd_fraction(387.0), speechd_fraction(1000.0)
    (0.5, 1.0, 1.0)
    """
    for (f0, w0), (f1, w1) in itertools.pairwise(SPEECHD_WPM):
        if wpm <= w1:
            return max(0.0, f0 + (wpm - w0) / (w1 - w0) * (f1 - f0))
    return 1.0


def estimated_seconds(text: str, wpm: float) -> float:
    """How long a reader at ``wpm`` words a minute takes to say ``text``, erring long.

    >>> round(estimated_seconds("North bids four.", 200.0), 2)
    1.49
    """
    factor, extra = ESTIMATE_MARGIN
    return len(text) / (max(wpm, 40.0) * CHARS_PER_WORD / 60.0) * factor + extra
