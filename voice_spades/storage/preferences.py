"""The player's preferences: how the game speaks and sounds, kept between games.

A small TOML file, ``preferences.toml``, in the platform's config folder (or in
``--data-dir``; see :mod:`.paths`). Options typed on the command line override it.

:func:`load_preferences` never fails: a file that cannot be read, or a value that makes
no sense, is reported as a :class:`~voice_spades.messages.Message` and the default is
used for what was wrong. :func:`save_preferences` writes atomically.

>>> prefs = Preferences()
>>> prefs.speech, prefs.sounds, prefs.sound_volume, prefs.language
('auto', True, 70, None)
>>> replace_preference(prefs, "sound_volume", "40").sound_volume
40
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_spades.errors import InvalidInputError, InvalidStateError
from voice_spades.messages import Message
from voice_spades.storage.atomic import atomic_write_text, remove_stale_temporaries
from voice_spades.storage.bounded import SETTINGS_FILE_LIMIT, read_capped_text
from voice_spades.storage.envelope import set_aside

PREFERENCES_FILE = "preferences.toml"
SPEECH_MODES = ("auto", "screen-reader", "voice", "text")
"""``auto``: the screen reader when one is running, else the game's voice, else text."""
READER_LINES = ("console", "speech")
"""With a screen reader that reads the console: it reads the printed lines, or the game
speaks them through it and does not print them (speech.choice.READER_LINES)."""
LANGUAGES = ("en", "it", "fr")
VOLUME_RANGE = (0, 100)
RATE_RANGE = (80, 500)
"""Words per minute; the same limits as the + and - keys (speech.output)."""
MAX_VOICE_NAME = 200
DEFAULT_WORD = "default"
"""Typed as a value, puts that preference back to its default."""
_ON = ("on", "true", "yes", "1")
_OFF = ("off", "false", "no", "0")


@dataclass(frozen=True, slots=True)
class Preferences:
    """What the player chose. ``None`` means "not chosen": ``language`` then follows the
    system's language, ``rate`` and ``voice`` are the speech backend's own."""

    speech: str = "auto"
    reader_lines: str = "speech"
    sounds: bool = True
    sound_volume: int = 70
    language: str | None = None
    rate: int | None = None
    voice: str | None = None
    offer_voice_model: bool = True
    """Offer, once, to download the Vosk model of the game's language when voice starts
    without one (turned off when the offer is made; ``on`` offers it again)."""


PREFERENCE_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Preferences))
"""Every preference, in the order they are shown and written."""
DEFAULTS = Preferences()


def preferences_file(folder: Path) -> Path:
    """The preferences file in ``folder``."""
    return folder / PREFERENCES_FILE


def allowed_values(name: str) -> str | Message:
    """What ``name`` accepts, as it is typed ("auto, screen-reader, voice, text")."""
    if name == "voice":
        return Message("preferences.any_voice", default=DEFAULT_WORD)
    low_rate, high_rate = RATE_RANGE
    return {
        "speech": ", ".join(SPEECH_MODES),
        "reader_lines": ", ".join(READER_LINES),
        "sounds": "on, off",
        "offer_voice_model": "on, off",
        "sound_volume": f"{VOLUME_RANGE[0]}-{VOLUME_RANGE[1]}",
        "language": ", ".join((*LANGUAGES, DEFAULT_WORD)),
        "rate": f"{low_rate}-{high_rate}, {DEFAULT_WORD}",
    }[name]


def checked_name(text: str) -> str:
    """The preference ``text`` names (``sound-volume`` and ``sound_volume`` both work);
    InvalidInputError ``preferences.unknown_name`` otherwise."""
    name = text.strip().lower().replace("-", "_")
    if name not in PREFERENCE_NAMES:
        raise InvalidInputError("preferences.unknown_name", name=_shown(text),
                                names=", ".join(n.replace("_", "-") for n in PREFERENCE_NAMES))
    return name


def checked_value(name: str, value: object) -> object:
    """``value`` for the preference ``name``, checked and converted: a TOML value, or
    text as typed on the command line (``"on"``, ``"40"``). ``"default"`` gives the
    default. InvalidInputError ``preferences.bad_value`` says what is accepted.

    >>> checked_value("sounds", "off"), checked_value("rate", 300), checked_value("language", "FR")
    (False, 300, 'fr')
    >>> checked_value("sound_volume", 120)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    voice_spades.errors.InvalidInputError: Message('preferences.bad_value', ..., allowed='0-100')
    """
    if isinstance(value, str) and value.strip().lower() == DEFAULT_WORD:
        return getattr(DEFAULTS, name)
    result = _convert(name, value)
    if result is _BAD:
        raise InvalidInputError("preferences.bad_value", name=name.replace("_", "-"),
                                value=_shown(value), allowed=allowed_values(name))
    return result


_BAD = object()


def _convert(name: str, value: object) -> object:
    text = value.strip().lower() if isinstance(value, str) else None
    if name == "speech":
        return text if text in SPEECH_MODES else _BAD
    if name == "reader_lines":
        return text if text in READER_LINES else _BAD
    if name == "language":
        return text if text in LANGUAGES else _BAD
    if name in ("sounds", "offer_voice_model"):
        if isinstance(value, bool):
            return value
        return True if text in _ON else False if text in _OFF else _BAD
    if name == "voice":
        if isinstance(value, str) and value.strip() and len(value) <= MAX_VOICE_NAME \
                and value.isprintable():
            return value.strip()
        return _BAD
    low, high = VOLUME_RANGE if name == "sound_volume" else RATE_RANGE
    number = _integer(value)
    return number if number is not None and low <= number <= high else _BAD


def _integer(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 6:
        return int(value.strip())
    return None


def _shown(value: object) -> str:
    """The value as the player wrote it, short, with no control character (which a
    terminal would obey) left raw."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    text = text if len(text) <= 40 else text[:40] + "..."
    return text if text.isprintable() else text.encode("unicode_escape").decode("ascii")


def checked_rate(value: str | int | None) -> int | None:
    """A speech rate as typed after ``--rate`` (or kept as a preference): a whole number
    of words per minute within :data:`RATE_RANGE`; None stays None. InvalidInputError
    ``options.bad_rate`` otherwise.

    >>> checked_rate("200"), checked_rate(None)
    (200, None)
    >>> checked_rate("1e20")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    voice_spades.errors.InvalidInputError: Message('options.bad_rate', ..., value='1e20')
    """
    if value is None:
        return None
    number = _integer(value)
    low, high = RATE_RANGE
    if number is None or not low <= number <= high:
        raise InvalidInputError("options.bad_rate", low=low, high=high, value=_shown(value))
    return number


def replace_preference(prefs: Preferences, name: str, value: object) -> Preferences:
    """``prefs`` with one preference changed (``name`` and ``value`` as typed); raises
    InvalidInputError for a wrong name or value."""
    name = checked_name(name)
    changed: dict[str, Any] = {name: checked_value(name, value)}
    return dataclasses.replace(prefs, **changed)


def load_preferences(folder: Path, set_aside_unusable: bool = False
                     ) -> tuple[Preferences, list[Message]]:
    """The preferences saved in ``folder``, and the problems found in the file (each a
    message; the default is used for what was wrong). No file: the defaults, no problem.

    A file Python cannot take (too deep, a number too long, no ordinary file, too big:
    :func:`unusable`) would be refused at every start: with ``set_aside_unusable`` (once
    per game, where its message is said) it is moved aside, as a damaged save is.
    """
    path = preferences_file(folder)
    try:
        table = tomllib.loads(read_capped_text(path, SETTINGS_FILE_LIMIT))
    except (FileNotFoundError, NotADirectoryError):  # no file (the saves say the folder)
        return DEFAULTS, []
    except tomllib.TOMLDecodeError as exc:  # the player may mend it: left in place
        return DEFAULTS, [Message("preferences.damaged", path=str(path), error=str(exc))]
    except (OSError, UnicodeDecodeError) as exc:
        return DEFAULTS, [Message("preferences.unreadable", path=str(path),
                                  error=_reason(exc))]
    except (InvalidStateError, RecursionError, ValueError) as exc:
        reason = unusable(exc)
        if not set_aside_unusable:
            return DEFAULTS, [Message("preferences.refused", path=str(path), reason=reason)]
        moved = set_aside(path, reason)
        if moved.moved_to is None:  # it could not be moved: still of no use
            return DEFAULTS, [Message("preferences.refused", path=str(path), reason=reason)]
        return DEFAULTS, [Message("preferences.moved_aside", path=str(path), reason=reason,
                                  name=moved.where)]
    problems: list[Message] = []
    chosen: dict[str, Any] = {}
    for key, value in table.items():
        try:
            name = checked_name(key)
            chosen[name] = checked_value(name, value)
        except InvalidInputError as exc:
            problems.append(Message("preferences.in_file", path=str(path),
                                    problem=exc.message))
    return dataclasses.replace(DEFAULTS, **chosen), problems


def unusable(exc: InvalidStateError | RecursionError | ValueError) -> Message:
    """Why a TOML file Python could not take is of no use, as the ``storage.*`` reason:
    refused by :func:`~.bounded.read_capped`, nested past the recursion limit, or holding
    a whole number of more than 4,300 digits (tomllib's ValueError)."""
    if isinstance(exc, InvalidStateError):
        return exc.message
    if isinstance(exc, RecursionError):
        return Message("storage.too_deep")
    return Message("storage.number_too_long")


def file_is_damaged(folder: Path) -> bool:
    """True when the preferences file exists but is no readable TOML (saving over it
    would lose what the player wrote: move it aside first)."""
    try:
        tomllib.loads(read_capped_text(preferences_file(folder), SETTINGS_FILE_LIMIT))
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, UnicodeDecodeError, InvalidStateError, RecursionError, ValueError):
        return True
    return False


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or exc.__class__.__name__


def preferences_toml(prefs: Preferences) -> str:
    """The file's text: one line per preference that has a value (TOML has no "none").

    >>> print(preferences_toml(Preferences(language="it")), end="")
    speech = "auto"
    reader_lines = "speech"
    sounds = true
    sound_volume = 70
    language = "it"
    offer_voice_model = true
    """
    lines = []
    for name in PREFERENCE_NAMES:
        value = getattr(prefs, name)
        if value is None:
            continue
        if isinstance(value, bool):
            shown = "true" if value else "false"
        elif isinstance(value, int):
            shown = str(value)
        else:  # a JSON string is a TOML basic string (same escapes)
            shown = json.dumps(value, ensure_ascii=False)
        lines.append(f"{name} = {shown}\n")
    return "".join(lines)


def save_preferences(folder: Path, prefs: Preferences) -> None:
    """Write ``prefs`` to ``folder`` atomically (the folder is made if missing). Raises
    OSError when it cannot be written (:func:`~.problems.write_problem` says why)."""
    path = preferences_file(folder)
    remove_stale_temporaries(path)
    atomic_write_text(path, preferences_toml(prefs))


def apply_preferences(parser: argparse.ArgumentParser, argv: list[str] | None,
                      prefs: Preferences, problems: list[Message]) -> argparse.Namespace:
    """``argv`` parsed by ``parser`` with the player's preferences in place of its
    defaults: an option typed still wins. Each preference goes to the option of the same
    ``dest`` (``sound_volume`` is ``--sound-volume``), as "on"/"off" for an option with
    those choices; the parser's options without a preference keep their defaults. The
    problems found in the preferences file are kept in ``preference_problems``."""
    dests = {action.dest: action for action in parser._actions}
    preset = argparse.Namespace(preference_problems=problems)
    for name in PREFERENCE_NAMES:
        value = getattr(prefs, name)
        action = dests.get(name)
        if value is None or action is None:
            continue
        if isinstance(value, bool) and action.choices is not None and "on" in action.choices:
            value = "on" if value else "off"
        setattr(preset, name, value)
    return parser.parse_args(argv, namespace=preset)
