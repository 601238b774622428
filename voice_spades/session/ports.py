"""What the session is plugged into: its ports (where its effects go) and the hooks the
input layers lend it (help texts, push-to-talk)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from voice_spades.messages import Message
from voice_spades.session.decisions import Request
from voice_spades.session.inputs import GrammarContext
from voice_spades.session.output import Output
from voice_spades.session.pacing import Pacer
from voice_spades.storage import SaveStore, Stats


class Ports:
    """Where the session's effects go: the lines it says (``output``), the autosave
    (``store``), the player's record (``stats``) and the bots' pace (``pacer``, by
    default one that waits for ``output`` to fall quiet). Tests leave out what they
    do not need."""

    __slots__ = ("output", "pacer", "stats", "store")

    def __init__(self, output: Output, *, store: SaveStore | None = None,
                 stats: Stats | None = None, pacer: Pacer | None = None) -> None:
        self.output = output
        self.store = store
        self.stats = stats
        self.pacer = pacer if pacer is not None else Pacer(output.is_busy)


@dataclass(slots=True)
class InputHooks:
    """What the input layers lend the session; each is None until a layer gives it.

    The keyboard gives ``help_text`` at start-up; the voice layer sets ``voice_help``
    and ``listen`` once it runs and takes them back when it stops.
    """

    help_text: Callable[[], str] | None = None
    """The keys, spoken (the help key)."""
    key_help: Callable[[GrammarContext, int | None], str] | None = None
    """The keys for now, page ``n`` counted from 0 (wrapping round), or every key with
    None; used before ``help_text`` when given."""
    key_list: Callable[[GrammarContext, int, bool], list[str]] | None = None
    """Every key, item ``n`` counted from 0 (wrapping round), a line a key; with True,
    the list was just opened and a line saying how to step it comes first. Used for
    every key before ``key_help`` and ``help_text`` when given."""
    voice_help: Callable[[GrammarContext], Message] | None = None
    """What can be said now ("what can I say")."""
    listen: Callable[[], None] | None = None
    """Start listening (push to talk)."""
    sleep: Callable[[], None] | None = None
    """Stop listening (the sleep word heard unclearly, asked about, answered yes)."""
    get_voice_model: Callable[[], None] | None = None
    """Download the Vosk model the voice layer offered (answered yes)."""

    def run(self, request: Request) -> bool:
        """Carry out a voice request (:data:`VOICE_REQUESTS`) with the hook a layer
        lent; False when none did (voice is off)."""
        hook = {Request.LISTEN: self.listen, Request.SLEEP: self.sleep,
                Request.GET_VOICE_MODEL: self.get_voice_model}.get(request)
        if hook is None:
            return False
        hook()
        return True


VOICE_REQUESTS = frozenset({Request.LISTEN, Request.SLEEP, Request.GET_VOICE_MODEL})
"""The requests the voice layer carries out, through :class:`InputHooks`."""
