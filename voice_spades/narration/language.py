"""Which language the game speaks: ``--language``, else the player's preference, else
the system's language, else English.

The language is chosen once, before any parser is built (so the command-line help is
in it too), and made active with :func:`~voice_spades.narration.catalog.set_language`;
everything rendered afterwards, on any thread, is in it. Saves and statistics hold no
text, so a game saved in one language resumes in another.

The system's language is, on POSIX, the first of ``LC_ALL``, ``LC_MESSAGES`` and
``LANG`` that is set (as the C library reads them), else Python's
:func:`locale.getlocale`; on Windows, the user's locale from
``GetUserDefaultLocaleName`` (``it-IT``). A locale that is none of the game's
languages ("de_DE", "C") gives English.

>>> [language_of_locale(name) for name in ("it_IT.UTF-8", "fr-CA", "French_France", "de")]
['it', 'fr', 'fr', None]
>>> system_language({"LANG": "fr_BE.UTF-8", "LC_ALL": ""}, platform="linux")
'fr'
>>> system_language({"LC_ALL": "C"}, platform="linux")
'en'
"""

from __future__ import annotations

import argparse
import locale
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from voice_spades.errors import InvalidInputError
from voice_spades.messages import Message
from voice_spades.narration.catalog import (
    DEFAULT_LANGUAGE,
    CatalogError,
    active_language,
    render,
    set_language,
)
from voice_spades.storage.paths import data_paths
from voice_spades.storage.preferences import LANGUAGES, load_preferences

__all__ = ["LANGUAGES", "LANGUAGE_OPTION", "active_language", "add_language_option",
           "choose_language", "language_of_locale", "requested_language", "start_language",
           "system_language", "unknown_language", "use_language", "windows_locale_name",
           "without_language_option"]

LANGUAGE_OPTION = "--language"
POSIX_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables that name the messages' locale, strongest first."""
_NAMES = {"italian": "it", "italiano": "it", "french": "fr", "francais": "fr",
          "français": "fr", "english": "en"}
"""Windows' long locale names ("Italian_Italy.1252") by their first word."""

WindowsLocale = Callable[[], str | None]


def language_of_locale(name: str | None) -> str | None:
    """The game's language for a locale name ("it_IT.UTF-8", "it-IT", "Italian_Italy",
    "fr"), or None when it is none of them (or "C", "POSIX", empty)."""
    if not name:
        return None
    head = name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    code = _NAMES.get(head, head)
    return code if code in LANGUAGES else None


def windows_locale_name() -> str | None:
    """The Windows user's locale ("it-IT"), or None (elsewhere, or if Windows says none)."""
    if sys.platform != "win32":
        return None
    import ctypes

    buffer = ctypes.create_unicode_buffer(85)  # LOCALE_NAME_MAX_LENGTH
    if ctypes.windll.kernel32.GetUserDefaultLocaleName(buffer, len(buffer)) <= 0:
        return None
    return buffer.value or None


def system_language(environ: Mapping[str, str] | None = None, *,
                    platform: str = sys.platform,
                    windows_locale: WindowsLocale = windows_locale_name) -> str:
    """The game's language that the system asks for (see the module's text), English
    when it asks for none of them."""
    if platform == "win32":
        found = language_of_locale(windows_locale())
        if found is not None:
            return found
    else:
        env = os.environ if environ is None else environ
        for variable in POSIX_VARIABLES:
            value = env.get(variable)
            if value:  # the first one set decides, as for the C library
                return language_of_locale(value) or DEFAULT_LANGUAGE
    try:
        current = locale.getlocale()[0]
    except ValueError:  # an unknown locale name in the environment
        current = None
    return language_of_locale(current) or DEFAULT_LANGUAGE


def choose_language(option: str | None, preferred: str | None,
                    system: Callable[[], str] = system_language) -> str:
    """The language to speak: the option typed, else the preference, else the system's."""
    for chosen in (option, preferred):
        if chosen in LANGUAGES:
            return chosen
    return system()


def requested_language(argv: Sequence[str]) -> tuple[str | None, str | None]:
    """``--language`` and ``--data-dir`` as typed in ``argv`` (None when absent or
    unusable), read before the real parser is built. A wrong language is left for the
    real parser to refuse."""
    typed, data_dir = _typed(argv)
    language = typed.strip().lower() if typed is not None else None
    return (language if language in LANGUAGES else None), data_dir


def unknown_language(argv: Sequence[str]) -> Message | None:
    """What to say when ``argv`` asks for a ``--language`` the game does not speak (the
    commands that leave the option to :func:`start_language` exit on it), else None.

    >>> unknown_language(["simulate", "--language", "NOPE"])
    Message('language.unknown', value='NOPE')
    >>> unknown_language(["--language", "IT"]) is None
    True
    """
    typed, _ = _typed(argv)
    if typed is None or typed.strip().lower() in LANGUAGES:
        return None
    shown = typed if len(typed) <= 40 and typed.isprintable() else repr(typed[:40])
    return Message("language.unknown", value=shown)


def _typed(argv: Sequence[str]) -> tuple[str | None, str | None]:
    """``--language`` and ``--data-dir`` as typed (None when absent)."""
    early = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    early.add_argument(LANGUAGE_OPTION)
    early.add_argument("--data-dir")
    try:
        known, _ = early.parse_known_args(list(argv))
    except SystemExit:  # "--language" with no value: the real parser says so
        return None, None
    return known.language, known.data_dir


def preferred_language(data_dir: str | None) -> str | None:
    """The ``language`` preference kept in the config folder (or ``data_dir``); None when
    unset or unreadable (the game reports a damaged preferences file itself)."""
    try:
        folder: Path = data_paths(data_dir).config_dir
    except InvalidInputError:
        return None
    return load_preferences(folder)[0].language


def start_language(argv: Sequence[str], *, system: Callable[[], str] = system_language
                   ) -> list[Message]:
    """Make the language ``argv``, the preferences or the system ask for the active one,
    before any text is rendered. Returns what to tell the player: a language whose texts
    cannot be loaded is said once, and the game speaks English."""
    option, data_dir = requested_language(argv)
    code = choose_language(option, None if option else preferred_language(data_dir), system)
    return use_language(code)


def use_language(code: str) -> list[Message]:
    """Make ``code`` the active language; on failure stay in English and say why."""
    if code == active_language():
        return []
    try:
        set_language(code)
    except CatalogError as exc:
        set_language(DEFAULT_LANGUAGE)
        name = Message(f"language.name.{code}") if code in LANGUAGES else code
        return [Message("language.unavailable", language=name, reason=str(exc))]
    return []


def without_language_option(argv: Sequence[str]) -> list[str]:
    """``argv`` without ``--language X`` (or ``--language=X``), for a command whose own
    parser does not take it once :func:`start_language` has used it.

    >>> without_language_option(["--games", "3", "--language", "it", "--seed=1"])
    ['--games', '3', '--seed=1']
    """
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == LANGUAGE_OPTION:
            skip = True
        elif not arg.startswith(LANGUAGE_OPTION + "="):
            out.append(arg)
    return out


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--language en|it|fr`` to a command's ``parser`` (help in the active language)."""
    parser.add_argument(LANGUAGE_OPTION, choices=LANGUAGES, type=str.lower,
                        help=render("language.option"))
