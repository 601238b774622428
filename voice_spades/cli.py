"""The `voice-spades` command.

    voice-spades [play options]        start or resume a match (the default)
    voice-spades simulate ...          bot-only matches, summary printed
    voice-spades bench engine|bots|voice|speech|pace|server|web ...
    voice-spades models list|download vosk-en
    voice-spades voice download        the Vosk model of the game's language
    voice-spades settings [NAME [VALUE] | --reset [NAME]]
    voice-spades train-voice [--forget]  read phrases aloud: voice input learns your voice
    voice-spades serve [--host] [--port] [--database] [--bot-delay]  a table server alone
    voice-spades host [play options] [--port N]  open a shared table; friends join it
    voice-spades join CODE [--server ADDRESS] [--seat N] [--watch]
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
    "voice": "voice_spades.voice.models.command:voice_main",
    "settings": "voice_spades.settings_command:main",
    "train-voice": "voice_spades.training_command:main",
    "serve": "voice_spades.serve_command:main",
    "host": "voice_spades.online.command:host_main",
    "join": "voice_spades.online.command:join_main",
}
_BENCHES: dict[str, str] = {
    "engine": "voice_spades.bench.engine:main",
    "bots": "voice_spades.bench.bots:main",
    "voice": "voice_spades.bench.voice:main",
    "speech": "voice_spades.bench.speech:main",
    "pace": "voice_spades.bench.pace:main",
    "server": "voice_spades.bench.server:main",
    "web": "voice_spades.bench.web:main",
}


def _text(message_id: str, **fields: object) -> str:
    # Imported here: the subcommands load the catalog themselves, and only when run.
    from voice_spades.narration import render

    return render(message_id, **fields)


def _use_language(args: list[str]) -> list[str] | None:
    """Speak the language ``--language`` in ``args``, the preferences or the system ask
    for; ``args`` without that option (the subcommands' own parsers do not take it).
    None, once said why, when ``--language`` names a language the game does not speak."""
    from voice_spades.narration import render_message
    from voice_spades.narration.language import start_language, without_language_option

    for problem in start_language(args):
        print(render_message(problem), file=sys.stderr)
    if _unknown_language_said(args):
        return None
    return without_language_option(args)


def _unknown_language_said(args: list[str]) -> bool:
    """True, once said in one sentence, when ``args`` asks for a ``--language`` the game
    does not speak."""
    from voice_spades.narration.language import start_language, unknown_language

    unknown = unknown_language(args)
    if unknown is not None:
        start_language([])  # said in the preference's or the system's language
        print(_text("app.bad_options", reason=unknown), file=sys.stderr)
    return unknown is not None


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
    if sys.platform == "win32":  # the console keeps keys unechoed for the game's reader
        yield
        return
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
        _use_language(args)
        print(_text("cli.usage"))
        return 0
    if args and args[0] == "bench":
        _use_language([])  # a bench's own --language is the language it tests
        if len(args) < 2 or args[1] not in _BENCHES:
            print(_text("cli.bench_usage"), file=sys.stderr)
            return 2
        return _load(_BENCHES[args[1]])(args[2:])
    if args and args[0] in _SUBCOMMANDS and args[0] != "play":
        rest = _use_language(args[1:])
        return 2 if rest is None else _load(_SUBCOMMANDS[args[0]])(rest)
    if _unknown_language_said(args):
        return 2
    with _keys_held():
        return _load(_SUBCOMMANDS["play"])(args[1:] if args[:1] == ["play"] else args)


if __name__ == "__main__":
    raise SystemExit(main())
