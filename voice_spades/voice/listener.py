"""Voice input: what the player says becomes an intent on the session's queue.

:class:`VoiceInput` owns a :class:`~voice_spades.voice.audio.microphone.Microphone` and a
recognizer. At every change of the game (``session.listeners``) it rebuilds the
phrase table of what can be said now and loads it into the recognizer; each
utterance is decoded on the voice thread (never the session's), read in that
table, passed through the confirmation policy (a bid, or a card heard
uncertainly, becomes a :class:`~voice_spades.commands.Propose`), and submitted.
Speech matching nothing becomes ``NotUnderstood`` ("Sorry, say again."); noise
(a cough, a knock) is ignored.

The sleep word: after "stop listening" only "start listening" (or "resume
listening") is listened for (everything else is dropped without a word, but the
sleep word again is answered that voice still sleeps and how to wake it), for a
table that talks among itself; both are said back, so the player knows which state
voice is in.

When the narrator plays through the game's own output (loudspeakers), echo
cancellation takes what it plays out of the microphone's sound
(:mod:`~voice_spades.voice.audio.echo`), and with barge-in (on unless
``--no-barge-in``) a command said over the narrator silences it and is heard.
Without that reference (text, a screen reader, no canceller library) the
microphone is muted while the narrator speaks, so the game never hears itself, and
barge-in listens only for a voice rising clearly above the narration. Nothing here
times out: the game waits for the player as long as it takes.

A command needs no long quiet after it: :class:`~voice_spades.voice.early_end.EarlyEnd`
decodes the utterance at its first short pause and ends it there when it already
is a whole command ("queen" waits, when "queen of hearts" may be said).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from voice_spades.commands import (
    Act,
    AnyIntent,
    Cancel,
    Command,
    Confirm,
    Control,
    NotUnderstood,
    Propose,
)
from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.narration.catalog import active_language
from voice_spades.session import GrammarContext, Session
from voice_spades.speech.base import Speaker
from voice_spades.storage.envelope import CorruptFileError
from voice_spades.storage.paths import DataPaths
from voice_spades.voice.adaptation.trained_means import load_trained_means
from voice_spades.voice.audio.echo import echo_canceller_for
from voice_spades.voice.audio.features import voiced_fraction
from voice_spades.voice.audio.microphone import Device, Microphone, probe
from voice_spades.voice.early_end import EarlyEnd
from voice_spades.voice.learning import IF_CONFIRMED, NOW, PlayLearning, teaches
from voice_spades.voice.lexicon import LANGUAGES, Lexicon, lexicon_for
from voice_spades.voice.model_offer import maybe_offer
from voice_spades.voice.recognizers.base import Recognizer, load_phrases
from voice_spades.voice.recognizers.choice import choose_recognizer
from voice_spades.voice.spoken_help import voice_help
from voice_spades.voice.understanding.confirmation import (
    ConfirmationPolicy,
    asleep_reminder,
    decide,
    offered_choices,
    over_game_policy,
    switch,
)
from voice_spades.voice.understanding.grammar import (
    Listening,
    PhraseTable,
    asleep_phrases,
    build_phrases,
)
from voice_spades.voice.understanding.irreversible import clear
from voice_spades.voice.understanding.meaning import read

_log = logging.getLogger(__name__)

NOISE_VOICING = 0.2
"""A rejected utterance with fewer voiced frames than this was noise: ignored, not
answered with "Sorry, say again"."""
RECOGNIZER_NAMES = {"pocketsphinx": Message("voice.recognizer.pocketsphinx"),
                    "vosk": Message("voice.recognizer.vosk")}
"""How the player hears the name of each recognizer."""
SLEEP_QUESTION = Message("voice.confirm.sleep")
"""Asked when "stop listening" was not heard clearly (:mod:`.understanding.irreversible`)."""
TRAINING_HINT_AFTER = 3
"""Voice that is not trained to the player's voice says once how to train it, at this
many "Sorry, say again" in a game: trained, it understood 98-99% of English commands
where it understood 93-95% untrained (README, voice training), and a player who never
read the README would not know."""


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
    language: str | None = None
    """The language voice listens for ("en", "it", "fr"); None: the game's language."""
    echo_cancellation: bool = True
    """Take the game's own sound out of the microphone's (when it plays through the
    game's output)."""
    paths: DataPaths | None = None
    """The player's files, where voice training is looked for (None: none is used)."""


class VoiceInput:
    """Feeds one :class:`Session` from the microphone (see the module doc)."""

    def __init__(self, session: Session, recognizer: Recognizer,
                 microphone: Microphone | None = None, *,
                 policy: ConfirmationPolicy | None = None,
                 listen_key: str | None = None, lexicon: Lexicon | None = None) -> None:
        self.session = session
        self.recognizer = recognizer
        self.microphone = microphone or Microphone()
        self.microphone.on_utterance = self.hear
        self.microphone.on_barge_in = session.interrupt_speech
        self.microphone.on_error = self._failed
        self.early_end = EarlyEnd(recognizer, self.microphone, self._phrases_loaded,
                                  meanings=self._meanings_loaded)
        """Ends an utterance at a short pause when it already is a whole command."""
        self.policy = policy or ConfirmationPolicy()
        self.lexicon = lexicon or lexicon_for(voice_language(None))
        """The vocabulary listened for, in the game's language."""
        self.offered: tuple[Act, ...] = ()
        """The actions the pending question offers ("Quattro? O tre?"), sayable in answer."""
        self.listen_key = listen_key if self.microphone.mode == "push" else None
        self.table: PhraseTable | None = None
        """The phrases loaded in the recognizer, for the last context loaded."""
        self.asleep = False
        """True after "stop listening": only the wake phrases are heard."""
        self._loaded: list[str] | None = None
        self._cond = threading.Condition()
        self._context: GrammarContext | None = None
        self._utterances: deque[tuple[bytes, bool]] = deque()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.suggest_training = False
        """Whether voice runs untrained where training would serve (PocketSphinx with no
        training of the player's voice): after :data:`TRAINING_HINT_AFTER` "say again"
        the player is told once how to train it."""
        self._not_understood = 0
        self.learning: PlayLearning | None = None
        """Learns the player's voice from the commands carried out, while voice is
        untrained (:mod:`~voice_spades.voice.learning`); None: not learning."""
        self._proposed: tuple[str, bytes] | None = None
        """The phrase and audio of the action asked about, learnt if confirmed."""

    # ----- life -------------------------------------------------------------------
    def start(self, speaker: Speaker | None = None) -> None:
        """Plug into the session (and the speaker, to mute while it talks) and start
        listening; SetupError if the microphone cannot record (nothing stays plugged)."""
        session = self.session
        session.listeners.append(self.context_changed)
        session.listen = self.begin_listening
        session.voice_help = self.help_text
        session.hooks.sleep = self.sleep_agreed
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
        self.early_end.close()
        if self.learning is not None:
            self.learning.close()
        if self.microphone.canceller is not None:
            self.microphone.canceller.detach()
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
        if session.hooks.sleep == self.sleep_agreed:
            session.hooks.sleep = None

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
        """An utterance from the microphone: queued for the voice thread (with whether
        it began over the game's own sound)."""
        over_game = self.microphone.heard_over_game
        with self._cond:
            self._utterances.append((pcm, over_game))
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
                item = self._utterances.popleft() if self._utterances else None
            try:
                if item is None:
                    self.load_phrases()
                else:
                    intent = self.interpret(*item)
                    if intent is not None:
                        self.session.submit(self._with_hint(intent))
            except Exception:  # a recognizer bug must not end voice for the game
                _log.exception("voice input failed on an utterance")

    def _phrases_loaded(self) -> tuple[str, ...]:
        return tuple(self._loaded or ())

    def _meanings_loaded(self) -> Mapping[str, object]:
        table = self.table  # set by the voice thread; a phrase it lacks keeps waiting
        return table.meanings if table is not None else {}

    def load_phrases(self) -> PhraseTable:
        """Load the phrases of the newest context into the recognizer (voice thread)."""
        with self._cond:
            context, self._context = self._context, None
        if context is None and self.table is not None:
            return self.table
        context = context or self.session.context()
        if context.question is None:
            self.offered = ()
            self._proposed = None
        table = build_phrases(context.view, confirming=context.question is not None,
                              cursor=context.cursor, lexicon=self.lexicon, offered=self.offered)
        if self.asleep:
            table = asleep_phrases(decoys=table.phrases, lexicon=self.lexicon)
        phrases = table.phrases
        if phrases != self._loaded:
            load_phrases(self.recognizer, phrases, [table.meanings[p] for p in phrases])
            self._loaded = phrases
        self.table = table
        return table

    def interpret(self, pcm: bytes, over_game: bool = False) -> AnyIntent | None:
        """What one utterance means now (voice thread); None for noise. An utterance
        that began over the game's own sound (barge-in with echo cancellation) may hold
        what is left of the narration ("...four of diamonds"): any action it names is
        asked about first, and asked about rather than answered "say again" when the
        grammar search fitted it well (:func:`over_game_policy`)."""
        table = self.load_phrases()
        heard = self.early_end.heard(pcm) or self.recognizer.decode(pcm)
        _log.info("heard %r (confidence %.2f%s)", heard.text, heard.confidence,
                  f", {heard.reason}" if heard.reason else "")
        if heard.rejected and voiced_fraction(pcm) < NOISE_VOICING:
            return None
        reading = read(heard, table, self.lexicon)
        if isinstance(reading.meaning, Listening):
            obeyed = switch(reading, self.lexicon)
            if obeyed is not None and not obeyed.on and not self.asleep \
                    and not clear(reading, self.lexicon):
                return Propose(Command(Control.SLEEP), SLEEP_QUESTION)
            if obeyed is not None:
                self._switch(obeyed.on)
            return None
        if self.asleep:
            if asleep_reminder(reading, self.lexicon):
                self.session.notify([Message("voice.room.still_asleep")])
            return None
        policy = over_game_policy(self.policy) if over_game else self.policy
        decided = decide(reading, table, policy, self.lexicon)
        if isinstance(decided, Propose):
            self.offered = offered_choices(reading, table, self.lexicon)
        self._learn_from(decided, reading.phrase, table, pcm, over_game)
        return decided

    def _learn_from(self, decided: AnyIntent, phrase: str | None, table: PhraseTable,
                    pcm: bytes, over_game: bool) -> None:
        """Hand :attr:`learning` what was carried out as heard (an action acted on
        unasked, a query, the answer to a question: :func:`teaches`) and the action
        asked about when the answer is yes. Speech that began over the game's sound is
        left out (it may hold the narration's remains)."""
        if self.learning is None:
            return
        if isinstance(decided, Confirm | Cancel):
            proposed, self._proposed = self._proposed, None
            if isinstance(decided, Confirm) and decided.yes and proposed is not None:
                self.learning.heard(*proposed)
        elif isinstance(decided, Propose):
            self._proposed = None  # another question replaces the one asked
        if over_game or phrase is None:
            return
        taught = teaches(decided, table)
        if taught == IF_CONFIRMED:
            self._proposed = (phrase, pcm)  # (until the question is answered or gone)
        elif taught == NOW:
            self.learning.heard(phrase, pcm)

    def _with_hint(self, intent: AnyIntent) -> AnyIntent:
        """``intent``; the :data:`TRAINING_HINT_AFTER`-th "say again" of untrained voice
        also says how to train it (after the "say again" itself)."""
        if not isinstance(intent, NotUnderstood):
            return intent
        self._not_understood += 1
        if self.suggest_training and self._not_understood == TRAINING_HINT_AFTER:
            return replace(intent, hint=Message("voice.training.hint"))
        return intent

    def _switch(self, on: bool) -> None:
        """Sleep or wake (the sleep word), and say which."""
        if on == (not self.asleep):
            return
        self.asleep = not on
        with self._cond:
            self._context = self.session.context()
        self.load_phrases()
        self.session.notify([Message("voice.room.awake" if on else "voice.room.asleep")])

    def sleep_agreed(self) -> None:
        """Sleep: "Stop listening?" was answered yes (session thread). The voice thread
        loads the sleeping phrases before the next utterance."""
        with self._cond:
            self.asleep = True
            self.table = None
        self.session.notify([Message("voice.room.asleep")])

    def _failed(self, error: SetupError) -> None:
        """The microphone died mid-game: say so once; the keys go on."""
        self.session.listen = None
        self.session.notify([Message("voice.lost", reason=error)])


def start_voice(session: Session, speaker: Speaker | None,
                options: VoiceOptions) -> tuple[VoiceInput, Message]:
    """Start voice input for ``session``; returns it and the message that says so.

    SetupError when there is no microphone (checked first: it is the cheap and
    common failure) or no recognizer can run. When the voice plays through the
    game's output but no echo canceller can be loaded, the session is told once.
    """
    probe(options.device)
    language = voice_language(options.language)
    adaptation, training_problem = voice_training(options.paths, language)
    recognizer, choice = choose_recognizer(options.recognizer or "auto",
                                           options.vosk_model, language, adaptation)
    canceller, echo_problem = echo_canceller_for(speaker) if options.echo_cancellation \
        else (None, None)
    microphone = Microphone(options.device, mode="push" if options.push_to_talk else "open",
                            barge_in=options.barge_in, canceller=canceller)
    voice = VoiceInput(session, recognizer, microphone,
                       policy=ConfirmationPolicy(confirm_bids=options.confirm_bids),
                       listen_key=options.listen_key, lexicon=lexicon_for(language))
    if options.paths is not None and recognizer.name == "pocketsphinx" \
            and adaptation is None and training_problem is None:
        voice.suggest_training = True
        voice.learning = PlayLearning(recognizer,  # type: ignore[arg-type]
                                      options.paths.voice_training_file(language),
                                      functools.partial(_learnt, voice))
    voice.start(speaker)
    session.notify([p for p in (echo_problem, training_problem) if p is not None])
    maybe_offer(session, language, options.paths,
                recognizer.name == "pocketsphinx" and options.recognizer is None)
    how = Message("voice.how.push", key=options.listen_key) if options.push_to_talk \
        else Message("voice.how.open")
    if options.recognizer is None:
        name = RECOGNIZER_NAMES.get(recognizer.name, recognizer.name)
        return voice, Message("voice.on", recognizer=name, how=how)
    return voice, Message("voice.on_chosen", choice=choice, how=how)


def _learnt(voice: VoiceInput, heard: int) -> None:
    """Voice has learnt the player's voice (the learning thread): say so, in turn."""
    voice.suggest_training = False
    voice.session.notify([Message("voice.training.learnt", heard=heard)], urgent=False)


def voice_training(paths: DataPaths | None, language: str) -> tuple[Path | None, Message | None]:
    """The player's voice training for ``language`` (a checked means file), or None;
    and what to say when it was damaged (it is then moved aside and not used)."""
    if paths is None:
        return None, None
    path = paths.voice_training_file(language)
    try:
        if not path.exists():  # (the model is read only to check a training)
            return None, None
        from voice_spades.voice.recognizers.pocketsphinx_decoders import builtin_model_dir
        model = builtin_model_dir() / "en-us"
        (model / "means").stat()
    except (ImportError, OSError):
        return None, None  # no PocketSphinx model: choosing the recognizer says so
    try:
        found = load_trained_means(path, model)
        return (path if found is not None else None), None
    except CorruptFileError as error:
        return None, Message("voice.training.set_aside", reason=error.reason,
                             where=error.where)


def voice_language(language: str | None) -> str:
    """The language voice listens for: ``language``, else the game's, if voice has a
    vocabulary for it, else English."""
    chosen = language or active_language()
    return chosen if chosen in LANGUAGES else "en"
