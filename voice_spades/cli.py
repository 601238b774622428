"""The `voice-spades` command.

    voice-spades [play options]        start or resume a match (the default)
    voice-spades simulate ...          bot-only matches, summary printed
    voice-spades bench engine|bots|voice ...
    voice-spades models list|download vosk-en
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable, Iterator

_SUBCOMMANDS: dict[str, str] = {
    "play": "voice_spades.app:main",
    "simulate": "voice_spades.simulate:main",
    "models": "voice_spades.voice.models.command:models_main",
}
_BENCHES: dict[str, str] = {
    "engine": "voice_spades.bench.engine:main",
    "bots": "voice_spades.bench.bots:main",
    "voice": "voice_spades.bench.voice:main",
}


def _text(message_id: str) -> str:
    # Imported here: the subcommands load the catalog themselves, and only when run.
    from voice_spades.narration import render

    return render(message_id)


def _load(target: str) -> Callable[[list[str]], int]:
    module_name, _, func = target.partition(":")
    module = importlib.import_module(module_name)
    entry: Callable[[list[str]], int] = getattr(module, func)
    return entry


@contextlib.contextmanager
def _keys_held() -> Iterator[None]:
    """While the game loads (its modules take a quarter of a second to import, before it
    sets the terminal's key mode itself), keys are neither echoed nor held back for a
    whole line: typed early, they wait unseen for the game. The terminal is put back as
    it was afterwards. Nothing is done without a terminal (or without termios)."""
    restore: Callable[[], None] | None = None
    try:
        import termios

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        mode = termios.tcgetattr(fd)
        mode[3] &= ~(termios.ICANON | termios.ECHO)
        termios.tcsetattr(fd, termios.TCSANOW, mode)
        restore = lambda: termios.tcsetattr(fd, termios.TCSADRAIN, saved)  # noqa: E731
    except Exception:  # no terminal (a pipe, a closed stdin) or no termios (Windows)
        restore = None
    try:
        yield
    finally:
        if restore is not None:
            with contextlib.suppress(Exception):  # a terminal that is gone needs nothing
                restore()


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a subcommand; with no subcommand, play."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help", "help"):
        print(_text("cli.usage"))
        return 0
    if args and args[0] == "bench":
        if len(args) < 2 or args[1] not in _BENCHES:
            print(_text("cli.bench_usage"), file=sys.stderr)
            return 2
        return _load(_BENCHES[args[1]])(args[2:])
    if args and args[0] in _SUBCOMMANDS and args[0] != "play":
        return _load(_SUBCOMMANDS[args[0]])(args[1:])
    with _keys_held():
        return _load(_SUBCOMMANDS["play"])(args[1:] if args[:1] == ["play"] else args)


if __name__ == "__main__":
    raise SystemExit(main())
