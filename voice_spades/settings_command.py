"""`voice-spades settings`: show, set or reset the player's preferences.

    voice-spades settings                  every preference and its value
    voice-spades settings NAME             that one
    voice-spades settings NAME VALUE       set one (checked: a wrong name or value is
                                           refused with what is accepted)
    voice-spades settings --reset [NAME]   back to the defaults (all, or that one)

``--data-dir FOLDER`` uses the preferences kept in that folder, as ``play`` does. The
file is :mod:`voice_spades.storage.preferences`; options typed when playing override it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from voice_spades.errors import InvalidInputError
from voice_spades.messages import Message
from voice_spades.narration import render, render_message
from voice_spades.narration.language import add_language_option
from voice_spades.storage import data_paths, move_aside, write_problem
from voice_spades.storage.preferences import (
    DEFAULTS,
    PREFERENCE_NAMES,
    Preferences,
    allowed_values,
    checked_name,
    file_is_damaged,
    load_preferences,
    replace_preference,
    save_preferences,
)


def build_parser() -> argparse.ArgumentParser:
    """The options of `voice-spades settings`."""
    p = argparse.ArgumentParser(prog="voice-spades settings",
                                description=render("settings_command.usage"))
    p.add_argument("words", nargs="*", metavar="NAME [VALUE]")
    p.add_argument("--reset", action="store_true")
    p.add_argument("--data-dir", help=render("cli.play.data_dir"))
    add_language_option(p)
    return p


def shown_value(name: str, prefs: Preferences) -> str | Message:
    """A preference's value as the player would type it ("on", "70", "screen-reader"),
    or what an unset one means."""
    value = getattr(prefs, name)
    if value is None:
        return Message(f"settings_command.unset.{name}")
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def preference_line(name: str, prefs: Preferences) -> Message:
    """One preference, its value and what it can be."""
    return Message("settings_command.line", name=name.replace("_", "-"),
                   value=shown_value(name, prefs), allowed=allowed_values(name))


def main(argv: list[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    """Run the command; 0 when done, 2 for a wrong name, value or option, 1 when the
    preferences could not be saved."""
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        folder = data_paths(args.data_dir).preferences_file.parent
        if len(args.words) > 2 or (args.reset and len(args.words) > 1):
            raise InvalidInputError("settings_command.one_value")
        names = [checked_name(w) for w in args.words[:1]]
    except InvalidInputError as exc:
        print(render_message(exc.message), file=err)
        return 2
    prefs, problems = load_preferences(folder)
    for problem in problems:
        print(render_message(problem), file=err)
    if args.reset or len(args.words) == 2:
        return _change(folder, prefs, args.reset, args.words, out, err)
    print(render("settings_command.file", path=str(folder / "preferences.toml")), file=out)
    for name in names or PREFERENCE_NAMES:
        print(render_message(preference_line(name, prefs)), file=out)
    return 0


def _change(folder: Path, prefs: Preferences, reset: bool, words: list[str],
            out: TextIO, err: TextIO) -> int:
    name = checked_name(words[0]) if words else None
    try:
        if reset:
            changed = DEFAULTS if name is None else replace_preference(prefs, name, "default")
        else:
            changed = replace_preference(prefs, words[0], words[1])
    except InvalidInputError as exc:
        print(render_message(exc.message), file=err)
        return 2
    try:
        if file_is_damaged(folder):  # keep what the player wrote: it may be mendable
            moved = move_aside(folder / "preferences.toml")
            print(render("settings_command.moved_aside", path=str(moved)), file=err)
        save_preferences(folder, changed)
    except OSError as exc:
        print(render_message(Message("settings_command.not_saved",
                                     problem=write_problem(exc, folder))), file=err)
        return 1
    if name is None:
        print(render("settings_command.reset"), file=out)
    else:
        said = "settings_command.reset_one" if reset else "settings_command.saved"
        print(render(said, name=name.replace("_", "-"), value=shown_value(name, changed)),
              file=out)
    return 0
