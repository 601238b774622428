"""Voice input: what the player says becomes an intent on the session's queue.

:class:`VoiceInput` owns a :class:`~voice_spades.voice.audio.microphone.Microphone` and a
recognizer. At every change of the game (``session.listeners``) it rebuilds the
phrase table of what can be said now and loads it into the recognizer; each
utterance is decoded on the voice thread (never the session's), read in that
table, passed through the confirmation policy (a bid, or a card heard
uncertainly, becomes a :class:`~voice_spades.commands.Propose`), and submitted.
Speech matching nothing becomes ``NotUnderstood`` ("Sorry, say again."); noise
(a cough, a knock) is ignored.

The sleep word: after "stop listening" only "start listening" is listened for
(everything else is dropped without a word), for a table that talks among
itself; both are said back, so the player knows which state voice is in.

The microphone is muted while the narrator speaks, so the game never hears
itself; with barge-in (on unless ``--no-barge-in``) the player's voice rising
clearly above the narration silences the narrator and is heard. Nothing here
times out: the game waits for the player as long as it takes.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass

from voice_spades.commands import AnyIntent
from voice_spades.engine import Phase
from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.session import GrammarContext, Session
from voice_spades.speech.base import Speaker
from voice_spades.voice.audio.features import voiced_fraction
from voice_spades.voice.audio.microphone import Device, Microphone, probe
from voice_spades.voice.recognizers.base import Recognizer
from voice_spades.voice.recognizers.choice import choose_recognizer
from voice_spades.voice.understanding.confirmation import ConfirmationPolicy, decide, switch
from voice_spades.voice.understanding.grammar import (
    Listening,
    PhraseTable,
    asleep_phrases,
    build_phrases,
)
from voice_spades.voice.understanding.meaning import read

_log = logging.getLogger(__name__)

NOISE_VOICING = 0.2
"""A rejected utterance with fewer voiced frames than this was noise: ignored, not
answered with "Sorry, say again"."""
RECOGNIZER_NAMES = {"pocketsphinx": Message("voice.recognizer.pocketsphinx"),
                    "vosk": Message("voice.recognizer.vosk")}
"""How the player hears the name of each recognizer."""


@dataclass(frozen=True)
class VoiceOptions:
    """The player's voice settings (command-line options)."""

    device: Device = None
    push_to_talk: bool = False
    barge_in: bool = True
    confirm_bids: bool = True
    recognizer: str | None = None
    """"pocketsphinx", "vosk" or "auto"; None means auto (Vosk when a model is installed)."""
    vosk_model: str | None = None
    listen_key: str = "Space"
    """The push-to-talk key, as spoken."""


class VoiceInput:
    """Feeds one :class:`Session` from the microphone (see the module doc)."""

    def __init__(self, session: Session, recognizer: Recognizer,
                 microphone: Microphone | None = None, *,
                 policy: ConfirmationPolicy | None = None,
                 listen_key: str | None = None) -> None:
        self.session = session
        self.recognizer = recognizer
        self.microphone = microphone or Microphone()
        self.microphone.on_utterance = self.hear
        self.microphone.on_barge_in = session.interrupt_speech
        self.microphone.on_error = self._failed
        self.policy = policy or ConfirmationPolicy()
        self.listen_key = listen_key if self.microphone.mode == "push" else None
        self.table: PhraseTable | None = None
        """The phrases loaded in the recognizer, for the last context loaded."""
        self.asleep = False
        """True after "stop listening": only the wake phrases are heard."""
        self._loaded: list[str] | None = None
        self._cond = threading.Condition()
        self._context: GrammarContext | None = None
        self._utterances: deque[bytes] = deque()
        self._stopping = False
        self._thread: threading.Thread | None = None

    # ----- life -------------------------------------------------------------------
    def start(self, speaker: Speaker | None = None) -> None:
        """Plug into the session (and the speaker, to mute while it talks) and start
        listening; SetupError if the microphone cannot record (nothing stays plugged)."""
        session = self.session
        session.listeners.append(self.context_changed)
        session.listen = self.begin_listening
        session.voice_help = self.help_text
        self.context_changed(session.context())
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()
        if speaker is not None:
            speaker.on_speaking_changed(self.speaking_changed)
            self.microphone.set_muted(speaker.is_speaking())
        try:
            self.microphone.start()
        except Exception:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the microphone and the voice thread, and unplug from the session."""
        self.microphone.stop()
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        session = self.session
        if self.context_changed in session.listeners:
            session.listeners.remove(self.context_changed)
        if session.listen == self.begin_listening:
            session.listen = None
        if session.voice_help == self.help_text:
            session.voice_help = None

    # ----- what the session and the speaker call ----------------------------------
    def context_changed(self, context: GrammarContext) -> None:
        """The game changed: the voice thread loads the new phrases (any thread)."""
        with self._cond:
            self._context = context
            self._cond.notify_all()

    def speaking_changed(self, speaking: bool) -> None:
        """The narrator started or stopped: mute or unmute (the speaker's thread)."""
        if not self._stopping:
            self.microphone.set_muted(speaking)

    def begin_listening(self) -> None:
        """The push-to-talk key: listen now, until the end of the next utterance."""
        self.microphone.begin_listening()

    def hear(self, pcm: bytes) -> None:
        """An utterance from the microphone: queued for the voice thread."""
        with self._cond:
            self._utterances.append(pcm)
            self._cond.notify_all()

    def help_text(self, context: GrammarContext) -> Message:
        """What can be said now, for "what can I say"."""
        if self.asleep:
            return Message("voice.room.help_asleep")
        return voice_help(context, self.listen_key)

    # ----- the voice thread ---------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._stopping or bool(self._utterances)
                                    or self._context is not None)
                if self._stopping:
                    return
                pcm = self._utterances.popleft() if self._utterances else None
            try:
                if pcm is None:
                    self.load_phrases()
                else:
                    intent = self.interpret(pcm)
                    if intent is not None:
                        self.session.submit(intent)
            except Exception:  # a recognizer bug must not end voice for the game
                _log.exception("voice input failed on an utterance")

    def load_phrases(self) -> PhraseTable:
        """Load the phrases of the newest context into the recognizer (voice thread)."""
        with self._cond:
            context, self._context = self._context, None
        if context is None and self.table is not None:
            return self.table
        context = context or self.session.context()
        table = build_phrases(context.view, confirming=context.question is not None,
                              cursor=context.cursor)
        if self.asleep:
            table = asleep_phrases(decoys=table.phrases)
        phrases = table.phrases
        if phrases != self._loaded:
            self.recognizer.set_phrases(phrases)
            self._loaded = phrases
        self.table = table
        return table

    def interpret(self, pcm: bytes) -> AnyIntent | None:
        """What one utterance means now (voice thread); None for noise."""
        table = self.load_phrases()
        heard = self.recognizer.decode(pcm)
        _log.info("heard %r (confidence %.2f%s)", heard.text, heard.confidence,
                  f", {heard.reason}" if heard.reason else "")
        if heard.rejected and voiced_fraction(pcm) < NOISE_VOICING:
            return None
        reading = read(heard, table)
        if isinstance(reading.meaning, Listening):
            obeyed = switch(reading)
            if obeyed is not None:
                self._switch(obeyed.on)
            return None
        if self.asleep:
            return None
        return decide(reading, table, self.policy)

    def _switch(self, on: bool) -> None:
        """Sleep or wake (the sleep word), and say which."""
        if on == (not self.asleep):
            return
        self.asleep = not on
        with self._cond:
            self._context = self.session.context()
        self.load_phrases()
        self.session.notify([Message("voice.room.awake" if on else "voice.room.asleep")])

    def _failed(self, error: SetupError) -> None:
        """The microphone died mid-game: say so once; the keys go on."""
        self.session.listen = None
        self.session.notify([Message("voice.lost", reason=error)])


def voice_help(context: GrammarContext, listen_key: str | None = None) -> Message:
    """A few sentences on what can be said at this point of the game."""
    view = context.view
    now: Message | None = None
    if context.question is not None:
        now = Message("voice.help.answer")
    elif context.over:
        now = Message("voice.help.over")
    elif view.is_my_turn and view.phase == Phase.BID:
        now = Message("voice.help.bid")
    elif view.is_my_turn and view.phase == Phase.EXCHANGE:
        now = Message("voice.help.exchange")
    elif view.phase == Phase.PLAY:
        now = Message("voice.help.play")
    always = Message("voice.help.always")
    if now is None:
        if listen_key:
            return Message("voice.help.anytime_push", key=listen_key, always=always)
        return Message("voice.help.anytime", always=always)
    if listen_key:
        return Message("voice.help.push", key=listen_key, now=now, always=always)
    return Message("voice.help", now=now, always=always)


def start_voice(session: Session, speaker: Speaker | None,
                options: VoiceOptions) -> tuple[VoiceInput, Message]:
    """Start voice input for ``session``; returns it and the message that says so.

    SetupError when there is no microphone (checked first: it is the cheap and
    common failure) or no recognizer can run.
    """
    probe(options.device)
    recognizer, choice = choose_recognizer(options.recognizer or "auto",
                                           options.vosk_model)
    microphone = Microphone(options.device, mode="push" if options.push_to_talk else "open",
                            barge_in=options.barge_in)
    voice = VoiceInput(session, recognizer, microphone,
                       policy=ConfirmationPolicy(confirm_bids=options.confirm_bids),
                       listen_key=options.listen_key)
    voice.start(speaker)
    how = Message("voice.how.push", key=options.listen_key) if options.push_to_talk \
        else Message("voice.how.open")
    if options.recognizer is None:
        name = RECOGNIZER_NAMES.get(recognizer.name, recognizer.name)
        return voice, Message("voice.on", recognizer=name, how=how)
    return voice, Message("voice.on_chosen", choice=choice, how=how)
