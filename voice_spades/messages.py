"""A sentence the game will say, as data: a catalog id and its named fields.

Every layer reports what it has to say as a :class:`Message` (errors carry one too, see
:mod:`voice_spades.errors`); only :mod:`voice_spades.narration` turns messages into
words, in the player's language and verbosity. A field may itself be a
:class:`Message` (a reason inside a sentence); it is rendered first.

>>> Message("storage.bad_record", name="pagat")
Message('storage.bad_record', name='pagat')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Message:
    """One catalog message id with the values of its named fields."""

    __slots__ = ("fields", "id")

    def __init__(self, message_id: str, /, **fields: Any) -> None:
        self.id = message_id
        self.fields: Mapping[str, Any] = fields

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.id, dict(self.fields)) == (
            other.id, dict(other.fields))

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted((k, repr(v)) for k, v in self.fields.items()))))

    def __repr__(self) -> str:
        args = "".join(f", {key}={value!r}" for key, value in self.fields.items())
        return f"Message({self.id!r}{args})"
