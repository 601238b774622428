"""The speech a command's options ask for: ``--speech`` (``--no-speech``), ``--rate``,
``--voice``, ``--seat-voices``, ``--reader-lines``, and the rate the player sets kept
for the next game."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from voice_spades.errors import SetupError, SpadesError
from voice_spades.messages import Message
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.base import Speaker
from voice_spades.speech.choice import choose_speech, start_own_speaker
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.storage.preferences import load_preferences, save_preferences

Notice = Message | SpadesError
"""Something to tell the player once the game starts."""
SEAT_PITCHES = (50, 35, 65, 45, 70, 30)
"""Pitch of each seat's voice with --seat-voices (seat 0, the player, keeps the default)."""


def make_output(args: argparse.Namespace, stream: TextIO,
                keep: Callable[[int], None] | None = None) \
        -> tuple[AnnouncerOutput, list[Notice]]:
    """Text output, with the speech ``--speech`` asks for (``--no-speech`` is ``text``):
    the player's screen reader, the game's own voice, or text lines only. Each failure
    is one notice, and the next is tried (:mod:`voice_spades.speech.choice`). ``keep``
    is told the rate the player sets with the faster and slower keys."""
    mode = "text" if args.no_speech else args.speech
    choice = choose_speech(mode, lambda: start_own_voice(args),
                           reader_lines=args.reader_lines)
    if choice.speaker is None:
        return AnnouncerOutput(Announcer(stream=stream)), choice.notices
    speaker = choice.speaker
    if choice.kind != "voice":  # a screen reader keeps the player's own rate and voice
        return AnnouncerOutput(Announcer(speaker, stream=stream,
                                         print_spoken=choice.print_lines)), choice.notices
    if args.seat_voices:
        for seat, pitch in enumerate(SEAT_PITCHES[1:], 1):
            speaker.set_seat_voice(seat, None, pitch)
    return AnnouncerOutput(Announcer(speaker, stream=stream), args.rate, keep), choice.notices


def keep_rate(folder: Path) -> Callable[[int], None]:
    """Save a new speech rate in the preferences in ``folder``, so the next game starts
    at it. A preferences file with problems is left as it is (the player was told at
    the start, and may want to mend it), and so is one that cannot be written."""
    def keep(rate: int) -> None:
        prefs, problems = load_preferences(folder)
        if not problems and prefs.rate != rate:
            with contextlib.suppress(OSError):
                save_preferences(folder, dataclasses.replace(prefs, rate=rate))
    return keep


def start_own_voice(args: argparse.Namespace) -> tuple[Speaker, list[Notice]]:
    """The game's own voice at ``--rate`` with ``--voice``; a voice that is not there is
    said, and the default voice speaks. Raises SetupError when there is no voice."""
    try:
        return start_own_speaker(args.rate, args.voice), []
    except SetupError as exc:
        if args.voice is None:
            raise
        try:  # perhaps only the voice was wrong: try the default one
            return start_own_speaker(args.rate, None), [exc]
        except SetupError:
            raise exc from None
