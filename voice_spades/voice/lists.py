"""Lists inside sentences ("a; b; c"), as data a translator words.

A list of any length is nested pairs of one catalog entry, ``"{first}; {rest}"``,
so the separator (and any word such as "and the") lives in the catalog.

>>> chain("voice.problems", ["a", "b", "c"])
Message('voice.problems', first='a', rest=Message('voice.problems', first='b', rest='c'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from voice_spades.messages import Message

T = TypeVar("T")


def chain(message_id: str, items: Sequence[T]) -> T | Message:
    """One value listing ``items`` (at least one) in order, as nested pairs of the
    catalog entry ``message_id``; a single item is returned as it is."""
    if not items:
        raise ValueError("chain needs at least one item")
    listed: T | Message = items[-1]
    for item in reversed(items[:-1]):
        listed = Message(message_id, first=item, rest=listed)
    return listed
