"""The offer, made once, to download the Vosk model of the game's language.

Voice that starts on the built-in recognizer (PocketSphinx) because no Vosk model of
the game's language is installed says what it hears less well (in Italian and French,
most things: it hears them through its English model) and asks whether to download
the model, saying its size. Nothing is downloaded without a yes. The offer is made
once: the ``offer_voice_model`` preference is turned off as it is made, so a no (or no
answer) is never asked again; ``voice-spades voice download`` gets the model at any
time, and ``voice-spades settings offer-voice-model on`` brings the offer back.

A yes downloads in the background while the game goes on (the download of
:mod:`.download`: checked, resumable with HTTP Range, all or nothing); progress is
said at low priority, every :data:`PROGRESS_STEP` percent and at most once every
:data:`PROGRESS_SECONDS`, and printed like every line; the model is used from the next
game.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from collections.abc import Callable
from pathlib import Path

from voice_spades.commands import Command, Control, Propose
from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.narration import Priority
from voice_spades.session import Session
from voice_spades.storage.paths import DataPaths
from voice_spades.storage.preferences import load_preferences, save_preferences
from voice_spades.voice.models.download import download_model
from voice_spades.voice.models.locations import VOSK_DOWNLOADS, VoskDownload, find_vosk_model
from voice_spades.voice.recognizers.vosk_recognizer import load_vosk

PROGRESS_STEP = 10
"""Progress is said every this many percent..."""
PROGRESS_SECONDS = 15.0
"""...and at most once in this many seconds (a fast line says little, a slow one
says enough), so it never crowds out the game."""


def model_to_offer(language: str, paths: DataPaths | None) -> VoskDownload | None:
    """The model of ``language`` to offer, or None: one is installed, the player was
    asked already (the preference is off), Vosk cannot run here, or there is no
    preferences folder to keep the answer in."""
    spec = next((d for d in VOSK_DOWNLOADS.values() if d.language == language), None)
    if spec is None or paths is None:
        return None
    prefs, _ = load_preferences(paths.config_dir)
    if not prefs.offer_voice_model:
        return None
    try:
        load_vosk()  # (a model Vosk itself cannot run is no use)
    except SetupError:
        return None
    try:
        find_vosk_model(None, language=language)
    except SetupError:
        return spec
    return None


def maybe_offer(session: Session, language: str, paths: DataPaths | None,
                built_in: bool) -> ModelDownload | None:
    """Offer the model of ``language`` when voice runs on the ``built_in`` recognizer
    for want of one (not when the player chose it) and it was not offered before."""
    spec = model_to_offer(language, paths) if built_in else None
    if spec is None or paths is None:
        return None
    return offer_model(session, spec, paths)


def offer_model(session: Session, spec: VoskDownload, paths: DataPaths,
                dest: Path | None = None, url: str | None = None) -> ModelDownload:
    """Say what the built-in recognizer hears less well, ask whether to download
    ``spec`` and remember that it was asked; a yes starts the download (the session's
    ``get_voice_model`` hook)."""
    prefs, _ = load_preferences(paths.config_dir)
    # Unsaved (a read-only folder), it is asked again next time: no worse than before.
    with contextlib.suppress(OSError):
        save_preferences(paths.config_dir, dataclasses.replace(prefs, offer_voice_model=False))
    fetch = ModelDownload(session, spec, dest, url)
    session.hooks.get_voice_model = fetch.start
    session.notify([Message("voice.offer.notice", weaker=Message(
        f"voice.offer.weaker.{spec.language}"))])
    session.submit(Propose(Command(Control.GET_VOICE_MODEL),
                           Message("voice.offer.question", megabytes=spec.megabytes)))
    return fetch


class ModelDownload:
    """The download of one model in the background, its progress said to the player."""

    def __init__(self, session: Session, spec: VoskDownload, dest: Path | None = None,
                 url: str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.spec = spec
        self.dest = dest
        self.url = url
        self.clock = clock
        self.thread: threading.Thread | None = None
        self.folder: Path | None = None
        """The model's folder once installed."""
        self._said_at: float | None = None
        self._said_percent = 0

    def start(self) -> None:
        """Download in the background (once; a second yes while it runs is ignored)."""
        if self.thread is not None and self.thread.is_alive():
            return
        self.session.notify([Message("voice.offer.starting", megabytes=self.spec.megabytes)],
                            urgent=False)
        self.thread = threading.Thread(target=self._run, name="voice-model", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.folder = download_model(self.spec, self.dest, self.url, self.progress)
        except SetupError as error:
            self.session.notify([error.message, Message("voice.offer.failed")], urgent=False)
            return
        self.session.notify([Message("voice.offer.done", path=self.folder)], urgent=False)

    def progress(self, done: int, total: int) -> None:
        """Say how far the download is, at a bounded rate and low priority."""
        if total <= 0:
            return
        percent = min(100, done * 100 // total)
        now = self.clock()
        step = percent - percent % PROGRESS_STEP
        if step <= self._said_percent or percent >= 100:
            return
        if self._said_at is not None and now - self._said_at < PROGRESS_SECONDS:
            return
        self._said_at, self._said_percent = now, step
        self.session.notify([Message("voice.offer.progress", percent=step,
                                     done=done / 1e6, total=total / 1e6)],
                            priority=Priority.LOW)
