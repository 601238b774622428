"""The ``voice-spades models`` command: list speech models, download a Vosk one.

Every line it prints comes from the message catalog (``voice.models.*`` in
``narration/locales/<language>/voice.toml``). Progress is printed as whole lines,
which read well in screen readers and in logs alike.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from voice_spades.errors import SpadesError
from voice_spades.messages import Message
from voice_spades.narration.catalog import active_language, render, render_message
from voice_spades.narration.language import add_language_option
from voice_spades.voice.models import download, locations
from voice_spades.voice.models.folder import check_model_folder
from voice_spades.voice.models.locations import (
    MODEL_ENV,
    VOSK_DOWNLOADS,
    VoskDownload,
    default_models_dir,
    download_for,
)


def say(message_id: str, stream: TextIO | None = None, /, **fields: Any) -> None:
    """Print the catalog message ``message_id`` as one line (standard output by default)."""
    print(render(message_id, **fields), file=stream or sys.stdout, flush=True)


class PercentProgress:
    """Prints download progress as plain lines every ``step`` percent.

    Whole lines (no carriage-return animation) read well in screen readers
    and in logs alike.
    """

    def __init__(self, stream: TextIO | None = None, step: int = 5) -> None:
        self.stream = stream
        self.step = step
        self._last: int | None = None

    def __call__(self, done: int, total: int) -> None:
        """Report that ``done`` of ``total`` bytes have arrived."""
        if total <= 0:
            return
        percent = min(100, done * 100 // total)
        mark = percent - percent % self.step
        if self._last is None:
            self._last = mark
            if done:
                say("voice.download.resuming", self._out(), percent=percent)
            return
        if mark > self._last:
            self._last = mark
            say("voice.download.progress", self._out(), percent=mark,
                done=done / 1e6, total=total / 1e6)

    def _out(self) -> TextIO:
        return self.stream or sys.stderr


def models_main(argv: list[str]) -> int:
    """``voice-spades models list | download vosk-en|vosk-it|vosk-fr [--dest DIR]``;
    returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="voice-spades models", description=render("voice.language.models.description"),
        epilog=render("voice.models.epilog", model_env=MODEL_ENV, url_env=download.URL_ENV))
    add_language_option(parser)
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help=render("voice.models.help_list"))
    listing.add_argument("--model", metavar="DIR", help=render("voice.models.help_model"))
    getting = commands.add_parser("download", help=render("voice.models.help_download"))
    keys = ("voice.models.help_vosk_en", "voice.language.models.help_vosk_it",
            "voice.language.models.help_vosk_fr")
    getting.add_argument("model", choices=list(VOSK_DOWNLOADS),
                         help=render("word.list_sep").join(render(key) for key in keys))
    getting.add_argument("--dest", metavar="DIR",
                         help=render("voice.models.help_dest", path=default_models_dir()))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    try:
        if args.command == "list":
            return _print_list(args.model)
        return _download(VOSK_DOWNLOADS[args.model], args.dest)
    except KeyboardInterrupt:
        say("voice.models.interrupted", sys.stderr)
        return 130
    except SpadesError as error:
        print(render_message(error.message), file=sys.stderr)
        return 1
    except OSError as error:
        print(str(error), file=sys.stderr)
        return 1


def voice_main(argv: list[str]) -> int:
    """``voice-spades voice download [--dest DIR]``: the Vosk model of the game's language
    (the one voice offers once when it starts without it); returns the exit code."""
    parser = argparse.ArgumentParser(prog="voice-spades voice")
    add_language_option(parser)
    commands = parser.add_subparsers(dest="command", required=True)
    getting = commands.add_parser("download", help=render("voice.offer.help"))
    getting.add_argument("--dest", metavar="DIR",
                         help=render("voice.models.help_dest", path=default_models_dir()))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    language = args.language or active_language()
    return models_main(["download", download_for(language).key,
                        *(["--dest", args.dest] if args.dest else [])])


def _print_list(model_path: str | None) -> int:
    entries = locations.list_models(model_path)
    say("voice.models.heading")
    for entry in entries:
        kind = Message(f"voice.models.kind.{entry.kind}")
        state = (Message("voice.models.ready") if entry.usable
                 else Message("voice.models.not_usable", problem=entry.problem))
        say("voice.models.entry", name=entry.name, kind=kind, state=state, path=entry.path)
        if entry.sha256:
            say("voice.language.models.sha256", sha256=entry.sha256)
    if not any(e.usable for e in entries if e.kind == "vosk"):
        say("voice.model.none")
    folders = tuple(str(folder) for folder in locations.models_dirs())
    say("voice.models.searched", folders=folders, env=MODEL_ENV)
    return 0


def _download(spec: VoskDownload, dest: str | None) -> int:
    url = os.environ.get(download.URL_ENV) or spec.url
    folder = Path(dest).expanduser() if dest else default_models_dir()
    if not check_model_folder(folder / spec.name):
        say("voice.models.already_installed", path=folder / spec.name)
        return 0
    if spec.key == "vosk-en":  # read at call time: a test or a mirror may pin others
        spec = replace(spec, size=download.VOSK_EN_SIZE, sha256=download.VOSK_EN_SHA256)
    say("voice.models.downloading", sys.stderr, name=spec.name,
        megabytes=spec.size / 1e6 if spec.size else spec.megabytes, url=url, path=folder)
    path = download.download_model(spec, folder, url, progress=PercentProgress())
    say("voice.models.ready_in", path=path)
    return 0
