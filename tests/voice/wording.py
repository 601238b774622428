"""What the player reads: voice messages and errors rendered through the catalog."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from voice_spades.errors import SpadesError
from voice_spades.messages import Message
from voice_spades.narration import render_message


def said(value: Message | SpadesError) -> str:
    """The sentence ``value`` (a message, or an error carrying one) renders to."""
    return render_message(value.message if isinstance(value, SpadesError) else value)


@contextlib.contextmanager
def raises_saying(kind: type[SpadesError], pattern: str) -> Iterator[None]:
    """Like ``pytest.raises(kind, match=pattern)``, matched against the sentence the
    player reads rather than the developer's ``str(error)``."""
    with pytest.raises(kind) as caught:
        yield
    text = said(caught.value)
    assert re.search(pattern, text), text
