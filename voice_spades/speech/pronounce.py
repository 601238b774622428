"""Respellings that make espeak-ng say a language's game words right.

espeak-ng misreads a few of the words the game says in Italian and French ("l'8"
spelled out as "elle otto", "le 6 de cœur" without its final [s], "Est" read as the
verb "est"). The fixes are data, one file per language (``pronunciations/<lang>.toml``,
format in its header): whole words, then regular expressions. They are applied to the
text given to the synthesizer only, never to what is printed or shown in braille.

>>> respell("Hai giocato l'8 di fiori, 1 presa.", "it")
"Hai giocato l'otto di fiori, una presa."
>>> respell("Est a joué le 6 de cœur.", "fr")
'Este a joué le sisse de cœur.'
>>> respell("East played the 6 of hearts.", "en")
'East played the 6 of hearts.'
"""

from __future__ import annotations

import functools
import logging
import re
import tomllib
from dataclasses import dataclass
from importlib import resources

__all__ = ["Respelling", "respell", "respellings"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Respelling:
    """One fix: where ``pattern`` matches, say ``replacement`` (``\\1`` allowed)."""

    pattern: re.Pattern[str]
    replacement: str
    keep_capital: bool = False

    def apply(self, text: str) -> str:
        """``text`` with every match replaced."""
        if not self.keep_capital:
            return self.pattern.sub(self.replacement, text)
        return self.pattern.sub(lambda m: _like(m.group(0), self.replacement), text)


def _like(original: str, replacement: str) -> str:
    """``replacement`` with a capital first letter when ``original`` has one."""
    if original[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _word(key: str, replacement: str) -> Respelling:
    lower = key == key.lower()
    pattern = re.compile(r"(?<!\w)" + re.escape(key) + r"(?!\w)", re.IGNORECASE if lower else 0)
    return Respelling(pattern, replacement, keep_capital=lower)


@functools.cache
def respellings(language: str) -> tuple[Respelling, ...]:
    """The fixes for ``language`` in their order (none for a language without a file;
    a damaged file is logged and ignored: speech goes on unfixed)."""
    entry = resources.files("voice_spades.speech").joinpath("pronunciations",
                                                             f"{language}.toml")
    try:
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        _log.warning("pronunciations for %s unusable: %s", language, exc)
        return ()
    fixes: list[Respelling] = []
    try:
        fixes += [_word(key, str(value)) for key, value in data.get("words", {}).items()]
        fixes += [Respelling(re.compile(key), str(value))
                  for key, value in data.get("patterns", {}).items()]
    except (re.error, AttributeError) as exc:
        _log.warning("pronunciations for %s unusable: %s", language, exc)
        return ()
    return tuple(fixes)


def respell(text: str, language: str) -> str:
    """``text`` as espeak-ng should be given it in ``language``."""
    for fix in respellings(language):
        text = fix.apply(text)
    return text
