"""The `voice-spades` command.

    voice-spades [play options]        start or resume a match (the default)
    voice-spades simulate ...          bot-only matches, summary printed
    voice-spades bench engine|bots|voice ...
    voice-spades models list|download vosk-en
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

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
    if args and args[0] in _SUBCOMMANDS:
        return _load(_SUBCOMMANDS[args[0]])(args[1:])
    return _load(_SUBCOMMANDS["play"])(args)


if __name__ == "__main__":
    raise SystemExit(main())
