"""The ``voice-spades train-voice`` command: the player reads a short script aloud, and
PocketSphinx is adapted to their voice from then on (:mod:`voice_spades.voice.training`).

Every phrase is said by the game (the player's screen reader, the game's voice, or a
printed line) and printed; the microphone is muted while the game speaks. Control-C
ends the reading early and keeps what was heard. ``--forget`` deletes the training.
"""

from __future__ import annotations

import argparse
import queue
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

from voice_spades.errors import SpadesError
from voice_spades.messages import Message
from voice_spades.narration import render, render_message
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.base import Speaker
from voice_spades.speech.choice import MODES, choose_speech, start_own_speaker
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.storage.paths import data_paths
from voice_spades.storage.preferences import checked_rate
from voice_spades.voice.adaptation.enrollment import SCRIPT_LENGTH, Enrollment, script
from voice_spades.voice.audio.microphone import Microphone, parse_device, probe
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.listener import voice_language
from voice_spades.voice.recognizers.choice import vosk_in_use
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.training import MIN_HEARD, train

SPOKEN_WAIT = 30.0
"""The longest a phrase is waited for to be said, before listening anyway."""


def build_parser() -> argparse.ArgumentParser:
    """The options of `voice-spades train-voice`."""
    p = argparse.ArgumentParser(prog="voice-spades train-voice",
                                description=render("voice.training.description"))
    p.add_argument("--forget", action="store_true", help=render("voice.training.forget_help"))
    p.add_argument("--phrases", type=int, default=SCRIPT_LENGTH, metavar="N",
                   help=render("voice.training.phrases_help", count=SCRIPT_LENGTH))
    p.add_argument("--speech", choices=MODES, help=render("speech_choice.option_help"))
    p.add_argument("--no-speech", action="store_true", help=render("cli.play.no_speech"))
    p.add_argument("--rate", help=render("cli.play.rate"))  # checked: one sentence
    p.add_argument("--mic-device", metavar="DEVICE", help=render("cli.play.mic_device"))
    p.add_argument("--data-dir", help=render("cli.play.data_dir"))
    return p


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command: 0 when the training was saved (or forgotten), 1 when nothing
    was saved, 2 for a setup problem (no microphone, no folder)."""
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    language = voice_language(None)
    try:
        args.rate = checked_rate(args.rate)
        path = data_paths(args.data_dir).voice_training_file(language)
    except SpadesError as error:
        print(render_message(error.message), file=out)
        return 2
    if args.forget:
        existed = path.exists()
        path.unlink(missing_ok=True)
        print(render("voice.training.forgotten" if existed else "voice.training.none"),
              file=out)
        return 0
    output = _output(args, out)
    try:
        return _read_script(args, output, language, path)
    finally:
        output.close()


def _for_training(message: Message) -> Message:
    """What to tell a player whose microphone cannot be found: the game's own sentence
    says to use the keyboard, which training cannot."""
    training = {"voice.no_microphone": "voice.training.no_microphone",
                "voice.no_microphone_named": "voice.training.no_microphone_named"}
    if message.id in training:
        return Message(training[message.id], **message.fields)
    return message


def _output(args: argparse.Namespace, out: TextIO) -> AnnouncerOutput:
    """The speech ``--speech`` asks for (printed lines alone with ``--no-speech``),
    every notice about it said first."""
    def own_voice() -> tuple[Speaker, list[Message | SpadesError]]:
        return start_own_speaker(args.rate, None), []

    choice = choose_speech("text" if args.no_speech else args.speech, own_voice)
    output = AnnouncerOutput(Announcer(choice.speaker, stream=out))
    for notice in choice.notices:
        output.announcer.say(render_message(
            notice if isinstance(notice, Message) else notice.message))
    return output


def _read_script(args: argparse.Namespace, output: AnnouncerOutput, language: str,
                 path: Path) -> int:
    heard: queue.Queue[bytes] = queue.Queue()
    stop = threading.Event()
    try:
        device = parse_device(args.mic_device)
        probe(device)
        microphone = Microphone(device, on_utterance=heard.put, mode="open")
        enrollment = Enrollment(PocketSphinxRecognizer(lexicon=lexicon_for(language)))
        microphone.start()
    except SpadesError as error:
        output.announcer.say(render_message(_for_training(error.message)))
        output.wait_idle(SPOKEN_WAIT)
        return 2

    def say(message: Message) -> None:
        microphone.set_muted(True)
        output.announcer.say(render_message(message))
        output.wait_idle(SPOKEN_WAIT)
        microphone.set_muted(False)

    def listen(seconds: float) -> bytes | None:
        while not heard.empty():  # anything heard before the phrase was asked for
            heard.get_nowait()
        end = time.monotonic() + seconds
        while not stop.is_set() and time.monotonic() < end:
            try:
                return heard.get(timeout=0.1)
            except queue.Empty:
                continue
        return None

    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        phrases = script(lexicon_for(language), max(MIN_HEARD, args.phrases))
        result = train(enrollment, phrases, path, say, listen, stop.is_set)
    finally:
        signal.signal(signal.SIGINT, previous)
        microphone.stop()
    if result.saved is not None and vosk_in_use(language) is not None:
        say(Message("voice.training.vosk_installed"))
    return 0 if result.saved is not None else 1

