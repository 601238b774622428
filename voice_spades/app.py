"""`voice-spades play`: a match played by voice, keyboard and ear.

Starts (or resumes) a match, narrates every event as a printed line and speech,
reads keys from the terminal, and listens to the microphone when there is one
(``--no-voice`` turns that off). Without a terminal on standard input (a pipe, CI),
each line of standard input is read when the game waits for the player: key names
or action names separated by spaces (``h``, ``down``, ``enter``, ``table``...);
the end of input saves the game and quits.
"""

from __future__ import annotations

import argparse
import io
import math
import sys
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Protocol

from voice_spades.bots import LEVELS
from voice_spades.engine import PROFILE_NAMES, profile
from voice_spades.errors import InvalidInputError, SetupError
from voice_spades.keys import (
    KeyboardInput,
    Keymap,
    TerminalKeys,
    help_text,
    hints,
    key_help,
    key_lister,
    key_mode,
    load_keymap,
)
from voice_spades.keys.names import key_label
from voice_spades.messages import Message
from voice_spades.narration import Line, Verbosity, render, render_message
from voice_spades.narration.language import add_language_option, start_language, use_language
from voice_spades.session import GameSettings, InputHooks, Pacer, Ports, Session
from voice_spades.session.quit_signals import QuitSignals
from voice_spades.session.settings import ENDINGS
from voice_spades.session.startup import corrupt_notice, open_game
from voice_spades.session.watching import SaveWatcher, watch
from voice_spades.speech.audio_out import close_shared_audio
from voice_spades.speech.choice import MODES, READER_LINES
from voice_spades.speech.cues import DEFAULT_VOLUME, parse_volume, start_sounds
from voice_spades.speech.from_options import Notice, keep_rate, make_output
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.plain_text import show_any_text
from voice_spades.storage import CorruptFileError, DataPaths, SaveStore, Stats, data_paths
from voice_spades.storage.folder_lock import (
    FolderLock,
    FolderTakenError,
    claim_data_folder,
    other_copy_plays,
)
from voice_spades.storage.preferences import (
    apply_preferences,
    checked_rate,
    load_preferences,
)
from voice_spades.storage.problems import checked_name_length

GAME_OPTIONS = ("rules", "players", "level", "target", "seed", "no_hell", "quicksand",
                "suicide", "ending", "hands")
"""Options that define a match: saved with it and restored on resume."""
GOODBYE_WAIT = 4.0
"""Seconds to let the last sentence finish before exiting."""
LISTEN_KEY = "space"
"""The push-to-talk key when the player's keymap binds none."""
STOP_WATCHING = ("q", "escape")
"""The keys that stop ``--watch``."""
MAX_PACE = 10
"""Longest --pace, in seconds: computer players that wait longer seem stuck."""


class VoiceRunning(Protocol):
    """Voice input once started (voice is imported only when it is wanted)."""

    def stop(self) -> None:
        """Stop the microphone and the voice thread."""


def build_parser(*, watch_copy: bool = True, rule_options: bool = True
                 ) -> argparse.ArgumentParser:
    """The options of `voice-spades play` (``watch_copy``: with its ``--watch``, which
    listens to another copy's game; `join` has a ``--watch`` of its own;
    ``rule_options``: with ``--new`` and the options that choose the match, which a
    joined table takes from its host)."""
    p = argparse.ArgumentParser(
        prog="voice-spades play",
        description=render("cli.play.description"),
        epilog=render("cli.play.epilog"))
    if rule_options:
        _add_rule_options(p)
    _add_player_options(p, watch_copy)
    return p


def _add_rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--new", action="store_true", help=render("cli.play.new"))
    p.add_argument("--rules", choices=PROFILE_NAMES, help=render("cli.play.rules"))
    p.add_argument("--players", type=int, help=render("cli.play.players"))
    p.add_argument("--level", choices=LEVELS,
                   help=render("cli.play.level"))
    p.add_argument("--target", type=int, help=render("cli.play.target"))
    p.add_argument("--seed", type=int, help=render("cli.play.seed"))
    p.add_argument("--no-hell", action="store_true", help=render("cli.play.no_hell"))
    p.add_argument("--quicksand", action="store_true", help=render("cli.play.quicksand"))
    p.add_argument("--suicide", action="store_true", help=render("cli.play.suicide"))
    p.add_argument("--ending", choices=ENDINGS, help=render("cli.play.ending"))
    p.add_argument("--hands", type=int, metavar="N", help=render("cli.play.hands"))


def _add_player_options(p: argparse.ArgumentParser, watch_copy: bool) -> None:
    p.add_argument("--no-speech", action="store_true", help=render("cli.play.no_speech"))
    p.add_argument("--speech", choices=MODES, help=render("speech_choice.option_help"))
    p.add_argument("--reader-lines", choices=READER_LINES, default="speech",
                   help=render("speech_choice.reader_lines_help"))
    p.add_argument("--sounds", choices=("on", "off"), default="on",
                   help=render("sound.option.sounds"))
    p.add_argument("--sound-volume", type=parse_volume, default=DEFAULT_VOLUME,
                   metavar="0-100", help=render("sound.option.volume"))
    p.add_argument("--place-voice", action="store_true", help=render("sound.option.place_voice"))
    p.add_argument("--rate", help=render("cli.play.rate"))  # checked: one sentence
    p.add_argument("--voice", help=render("cli.play.voice"))
    p.add_argument("--seat-voices", action="store_true",
                   help=render("cli.play.seat_voices"))
    p.add_argument("--verbosity", choices=[v.value for v in Verbosity], default="normal",
                   help=render("cli.play.verbosity"))
    p.add_argument("--keymap", type=Path, help=render("cli.play.keymap"))
    p.add_argument("--data-dir", help=render("cli.play.data_dir"))
    if watch_copy:
        p.add_argument("--watch", action="store_true", help=render("cli.play.watch"))
    add_language_option(p)
    p.add_argument("--web", action="store_true", help=render("web.option_web"))
    p.add_argument("--open", action="store_true", help=render("web.option_open"))
    p.add_argument("--web-port", type=int, default=0, metavar="PORT",
                   help=render("web.option_port"))
    p.add_argument("--pace", type=float, default=None,
                   help=render("cli.play.pace"))
    voice = p.add_argument_group("voice", render("cli.play.voice_group"))
    voice.add_argument("--no-voice", action="store_true", help=render("cli.play.no_voice"))
    voice.add_argument("--push-to-talk", action="store_true",
                       help=render("cli.play.push_to_talk"))
    voice.add_argument("--barge-in", action=argparse.BooleanOptionalAction, default=True,
                       help=render("cli.play.barge_in"))
    voice.add_argument("--recognizer", choices=("pocketsphinx", "vosk", "auto"),
                       help=render("cli.play.recognizer"))
    voice.add_argument("--vosk-model", metavar="PATH", help=render("cli.play.vosk_model"))
    voice.add_argument("--mic-device", metavar="DEVICE",
                       help=render("cli.play.mic_device"))
    voice.add_argument("--no-confirm", action="store_true",
                       help=render("cli.play.no_confirm"))


def requested_settings(args: argparse.Namespace) -> tuple[GameSettings, set[str]]:
    """The match the command line asks for, and which of its options were typed."""
    given = {name for name in GAME_OPTIONS  # none at all for `join`
             if getattr(args, name, None) is not None and getattr(args, name) is not False}
    fields = {name: getattr(args, name) for name in given}
    return GameSettings(**fields), given


def check_options(args: argparse.Namespace) -> tuple[GameSettings, set[str], DataPaths]:
    """The match the command line asks for, which of its options were typed, and where
    the files go; raises InvalidInputError saying why an option makes no game."""
    pace = args.pace
    if pace is not None and not (math.isfinite(pace) and 0 <= pace <= MAX_PACE):
        raise InvalidInputError("options.bad_pace", high=MAX_PACE, value=f"{pace:g}")
    checked_rate(args.rate)
    if args.keymap is not None:
        checked_name_length("--keymap", args.keymap)
    requested, given = requested_settings(args)
    try:
        requested.check_new()
    except InvalidInputError as exc:
        raise with_players_hint(exc, requested.players) from None
    return requested, given, data_paths(args.data_dir)


def with_players_hint(exc: InvalidInputError, players: int | None) -> InvalidInputError:
    """``exc``, followed by the rules that do play with ``players`` when it says the
    rules chosen do not ("For 6 players, use --rules playroom.")."""
    if players is None or exc.message.id not in ("rules.players_exact", "rules.players_range"):
        return exc
    fits = [name for name in PROFILE_NAMES if _plays_with(name, players)]
    if not fits:
        return exc
    names = fits[0] if len(fits) == 1 else render(
        "word.or", head=render("word.list_sep").join(fits[:-1]), last=fits[-1])
    return InvalidInputError("options.players_hint", reason=exc.message, players=players,
                             names=names)


def _plays_with(name: str, players: int) -> bool:
    try:
        profile(name, players=players)
    except InvalidInputError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Run the game; 0 when the player quits, 2 for options that make no match."""
    said = start_language(sys.argv[1:] if argv is None else argv)  # the help is in it too
    parser = build_parser()
    args = parser.parse_args(argv)
    show_any_text(sys.stdout, sys.stderr)
    try:
        requested, given, paths = check_options(args)
    except InvalidInputError as exc:
        print(render("app.bad_options", reason=exc), file=sys.stderr)
        return 2
    try:  # one copy per folder: a second one would save over the first one's plays
        paths, lock, taken = (paths, FolderLock(paths.data_dir, None), []) if args.watch \
            else claim_data_folder(paths)
    except FolderTakenError:
        print(render("setup.every_folder_taken", folder=str(paths.data_dir)), file=sys.stderr)
        return 2
    args = apply_preferences(parser, argv, *load_preferences(paths.config_dir, True))
    args.rate = checked_rate(args.rate)  # checked above, or a preference checked on loading
    if args.language:  # typed as an abbreviation, or a preference read the usual way
        said += use_language(args.language)
    for problem in said:
        print(render_message(problem), file=sys.stderr)
    interactive = sys.stdin is not None and sys.stdin.isatty()
    signals = QuitSignals()
    try:
        with ExitStack() as stack:
            if interactive:  # before anything slow: keys typed from now on wait, unseen
                stack.enter_context(key_mode(sys.stdin.fileno()))
            if args.watch:
                return watch_game(args, paths.save_file, interactive, signals)
            return run_game(args, (requested, given), paths, interactive, signals, taken)
    finally:
        signals.restore()
        lock.release()


def run_game(args: argparse.Namespace, request: tuple[GameSettings, set[str]],
             paths: DataPaths, interactive: bool, signals: QuitSignals,
             said: list[Message] | None = None) -> int:
    """Open the game (``request``: the settings asked for, and which were typed), start
    speech, voice and keys, and play until the player quits; ``said`` is told first."""
    requested, given = request
    output, notices = make_output(args, sys.stdout, keep_rate(paths.config_dir))
    notices = [*(said or []), *notices, *args.preference_problems]  # the folder first
    keymap = load_keymap(args.keymap or paths.keymap_file)
    if args.keymap is not None and not args.keymap.exists():
        keymap.problems.append(Message("keymap.missing", path=str(args.keymap)))
    stats = Stats(paths.stats_file)
    try:
        stats.load()
    except CorruptFileError as exc:
        notices.append(corrupt_notice("setup.stats_corrupt", exc))
    store = SaveStore(paths.save_file)
    opening = open_game(store, requested, given, fresh=args.new)
    pace = args.pace if args.pace is not None else (0.25 if output.speaking else 0.4)
    cued, said_sounds = start_sounds(output, sounds=args.sounds == "on", volume=args.sound_volume,
                                     players=opening.match.rules.players,
                                     place_voice=args.place_voice)
    notices += said_sounds
    if args.web:
        from voice_spades.web.local_game import page_output, start_local_page
        cued = shown = page_output(cued, sys.stdout)
    ports = Ports(cued, store=store, stats=stats, pacer=Pacer(output.is_busy, min_gap=pace))
    session = Session(opening.match, ports, settings=opening.settings,
                      verbosity=Verbosity(args.verbosity), hints=hints(keymap),
                      hooks=InputHooks(help_text=lambda: help_text(keymap),
                                       key_help=key_help(keymap), key_list=key_lister(keymap)))
    signals.attach(session)
    keyboard = KeyboardInput(session, keymap)
    page, said_page = start_local_page(session, keyboard, shown, port=args.web_port,
                                       open_browser=args.open) if args.web else (None, [])
    notices += said_page
    notices += [Message("setup.keymap_problem", problem=p) for p in keymap.problems]
    notices += opening.notices
    if not interactive:
        notices.append(Message("setup.no_terminal"))
    voice, started = start_voice_input(args, session, output, keymap, paths)
    session.notify([*notices, *started])
    session.save()  # a folder that cannot be written is said now, with the notices
    session.start(resumed=opening.resumed)
    try:
        return play(session, keyboard, output, interactive, voice)
    finally:
        if page is not None:
            page.stop()


def watch_game(args: argparse.Namespace, save: Path, interactive: bool,
               signals: QuitSignals) -> int:
    """``--watch``: say the game another copy plays from the folder of ``save`` as it is
    saved (:mod:`voice_spades.session.watching`) until Q, Escape, the end of input or
    a quit signal, or until that copy stops; 1 when no copy plays there."""
    if not other_copy_plays(save.parent):
        print(render("watch.nothing", folder=str(save.parent)), file=sys.stderr)
        return 1
    output, notices = make_output(args, sys.stdout)
    said = [n if isinstance(n, Message) else n.message for n in notices]
    said.append(Message("watch.start", folder=str(save.parent)))
    output.emit([Line(message.id, render_message(message)) for message in said])
    _start_thread(lambda: read_stop_keys(interactive, signals.stopped))
    watcher = SaveWatcher(save, Verbosity(args.verbosity))
    try:
        if not watch(watcher, output, signals.stopped, lambda: other_copy_plays(save.parent)):
            output.emit([Line("watch.other_stopped", render("watch.other_stopped"))])
    finally:
        output.wait_idle(GOODBYE_WAIT)
        output.close()
        close_shared_audio()
    return 0


def read_stop_keys(interactive: bool, stop: threading.Event) -> None:
    """Set ``stop`` at Q or Escape on the terminal, or at a line of standard input that
    holds ``q`` or ``escape``, or at its end."""
    try:
        if interactive:
            keys = TerminalKeys(sys.stdin.fileno())
            while not stop.is_set():
                pressed = keys.read(0.1)
                if pressed is None or any(key in STOP_WATCHING for key in pressed):
                    break
        else:
            for line in sys.stdin or io.StringIO():
                if any(word.lower() in STOP_WATCHING for word in line.split()):
                    break
    except (OSError, ValueError):
        pass  # the terminal or the input is gone: stop as at its end
    stop.set()


def start_voice_input(args: argparse.Namespace, session: Session, output: AnnouncerOutput,
                      keymap: Keymap, paths: DataPaths | None = None
                      ) -> tuple[VoiceRunning | None, list[Notice]]:
    """Voice input unless --no-voice, and the line that says it is on (with which
    recognizer) or why it is off; the game goes on with keys either way."""
    if args.no_voice:
        return None, []
    from voice_spades.voice.audio.microphone import parse_device
    from voice_spades.voice.listener import VoiceOptions, start_voice

    key = bind_listen_key(keymap) if args.push_to_talk else None
    options = VoiceOptions(device=parse_device(args.mic_device),
                           push_to_talk=args.push_to_talk, barge_in=args.barge_in,
                           confirm_bids=not args.no_confirm,
                           recognizer=args.recognizer or ("vosk" if args.vosk_model else None),
                           vosk_model=args.vosk_model,
                           listen_key=key or key_label(LISTEN_KEY), paths=paths)
    try:
        if args.push_to_talk and key is None:
            raise SetupError("voice.push_needs_key")
        voice, message = start_voice(session, output.announcer.speaker, options)
    except SetupError as exc:
        return None, [exc]
    return voice, [message]


def bind_listen_key(keymap: Keymap) -> str | None:
    """The spoken name of the push-to-talk key: the keymap's, else Space if it is free
    (then bound now); None if there is none."""
    keys = keymap.keys_for("listen")
    if not keys and keymap.action_for(LISTEN_KEY) is None:
        keymap.bindings.setdefault("keys", {})["listen"] = keys = [LISTEN_KEY]
    return key_label(keys[0]) if keys else None


def play(session: Session, keyboard: KeyboardInput, output: AnnouncerOutput,
         interactive: bool, voice: VoiceRunning | None = None) -> int:
    """Read input on a thread (and the microphone on another) and run the session here
    until the player quits. A terminal must already be in :func:`key_mode`."""
    try:
        if interactive:
            keys = TerminalKeys(sys.stdin.fileno())
            _start_thread(lambda: keyboard.run_terminal(keys))
        else:
            _start_thread(lambda: keyboard.run_lines(sys.stdin or io.StringIO()))
        session.run()
    finally:
        if voice is not None:
            voice.stop()
        output.wait_idle(GOODBYE_WAIT)
        output.close()
        close_shared_audio()
    return 0


def _start_thread(target: Callable[[], None]) -> None:
    threading.Thread(target=target, daemon=True, name="keyboard").start()


if __name__ == "__main__":
    raise SystemExit(main())
