"""Which recognizer to use: Vosk when a usable model is installed, else PocketSphinx.

PocketSphinx's English model ships inside the pocketsphinx package, so voice
always works, in Italian and French too (it hears them through their words'
pronunciations in its phone set); a Vosk model is optional
(``voice-spades models download vosk-en``, ``vosk-it``, ``vosk-fr``), and only a model
of the game's language is used.
"""

from __future__ import annotations

from pathlib import Path

from voice_spades.errors import InvalidInputError, SetupError
from voice_spades.messages import Message
from voice_spades.voice.lexicon import Lexicon, lexicon_for
from voice_spades.voice.models.locations import find_vosk_model
from voice_spades.voice.recognizers.base import Recognizer

CHOICES = ("auto", "vosk", "pocketsphinx")

_CLAUSES = {
    "voice.model.unusable": "voice.because.model_unusable",
    "voice.model.unusable_get_one": "voice.because.model_unusable_get_one",
    "voice.model.none": "voice.because.no_model",
    "voice.vosk.cannot_run": "voice.because.vosk_cannot_run",
    "voice.vosk.damaged": "voice.because.vosk_damaged",
    "voice.language.model.none": "voice.language.because.no_model",
    "voice.language.model.unusable_get_one": "voice.language.because.model_unusable_get_one",
}
"""The catalog's mid-sentence form of each reason Vosk cannot be used ("Using
PocketSphinx: no Vosk model installed...")."""


def choose_recognizer(preferred: str | None = None, model_path: str | None = None,
                      language: str | None = None,
                      adaptation: Path | None = None) -> tuple[Recognizer, Message]:
    """Return the recognizer to use and a message saying which one and why.

    ``preferred`` is "vosk", "pocketsphinx" or None/"auto". Vosk is used
    when a usable Vosk model (of ``language``, when given) is found (unless
    PocketSphinx was asked for); otherwise PocketSphinx, which always works, and the
    message says what Vosk lacked. PocketSphinx is adapted to the player's voice by
    ``adaptation`` (a checked means file from voice training), when given.
    """
    choice = (preferred or "auto").strip().lower()
    if choice not in CHOICES:
        raise InvalidInputError("voice.unknown_recognizer", name=preferred)
    lexicon = lexicon_for(language)
    if choice == "pocketsphinx":
        return _pocketsphinx(lexicon, adaptation), Message("voice.using.pocketsphinx_asked")
    try:
        path = find_vosk_model(model_path, language=language)
        from voice_spades.voice.recognizers.vosk_recognizer import VoskRecognizer

        return (VoskRecognizer(path, lexicon=lexicon),
                Message("voice.using.vosk", name=path.name, path=path))
    except SetupError as error:
        clause = _CLAUSES.get(error.message_id)
        why = Message(clause, **error.fields) if clause else error.message
    fallback = "voice.using.pocketsphinx_instead" if choice == "vosk" \
        else "voice.using.pocketsphinx_because"
    return _pocketsphinx(lexicon, adaptation), Message(fallback, reason=why)


def vosk_in_use(language: str | None = None) -> Path | None:
    """The Vosk model a game in ``language`` would hear with when no recognizer is
    chosen (a usable model and the vosk package), else None: PocketSphinx, the one voice
    training adapts, would be used."""
    try:
        path = find_vosk_model(None, language=language)
        from voice_spades.voice.recognizers.vosk_recognizer import load_vosk

        load_vosk()
    except SetupError:
        return None
    return path


def _pocketsphinx(lexicon: Lexicon, adaptation: Path | None) -> Recognizer:
    try:
        from voice_spades.voice.recognizers.pocketsphinx_recognizer import (
            PocketSphinxRecognizer,
        )
    except ImportError as error:
        raise SetupError("voice.no_recognizer", error=str(error)) from error
    return PocketSphinxRecognizer(lexicon=lexicon, adaptation=adaptation)
