"""Running room-bench scenes: what the game made of each, and a runner without devices.

A :class:`Book` follows one scene: every utterance the microphone delivers is
decoded at once with the scene's grammar (as the game's voice thread does) and
sorted: the one that overlaps the command is the command's outcome, any other was
caused by the narration. :class:`OfflineRunner` plays scenes on a virtual clock,
block by block, through the real microphone gate, echo canceller and recognizer but
no sound device (``--offline``: fast, for comparing cancellers);
:mod:`.voice_room_live` plays them in real time through the virtual sound device.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from voice_spades.bench.decode_time import decode_clock
from voice_spades.bench.voice import Outcome, decode_one
from voice_spades.bench.voice_room_scenes import Scene, command_samples
from voice_spades.voice.audio.echo import EchoCanceller
from voice_spades.voice.audio.microphone import Microphone
from voice_spades.voice.early_end import EarlyEnd
from voice_spades.voice.recognizers.base import BYTES_PER_SECOND, Recognizer
from voice_spades.voice.testing.prompts import CHATTER_PROMPTS, chatter_table, prompt_table
from voice_spades.voice.testing.room import (
    ECHO_DBFS,
    RATE,
    Floats,
    RoomLoop,
    Scheduled,
    active_rms,
    gain_for,
    speech_span,
)
from voice_spades.voice.understanding.confirmation import (
    DEFAULT_POLICY,
    over_game_policy,
)
from voice_spades.voice.understanding.grammar import (
    Listening,
    PhraseTable,
    full_grammar,
    meaning_kind,
)
from voice_spades.voice.understanding.meaning import normalize

BLOCK = 320
"""Samples per block of the offline runner (20 ms)."""
OVERLAP_SLACK = 0.4
"""Seconds an utterance's estimated span may miss the command's and still be it."""
WAIT_AFTER = 3.5
"""Seconds after the command's end within which its outcome must come."""
NARRATION_PLACES = (("small", "quiet"), ("medium", "fan"), ("large", "rumble"))
"""Where the narration-only run is heard, a third of the time each."""
NARRATION_LEVELS = (0.0, 6.0, -6.0)
"""The narration-only run's echo, clip after clip in turn, against the usual level (dB):
louder speakers are the harder case for telling echo from a voice."""
CLIPS_CAP = 160
"""At most this many distinct narration clips are made (each is synthesized once, then
cached)."""


def clip_count(scenes: int, narration_seconds: float) -> int:
    """How many distinct narration clips a run needs: one a scene, and enough for the
    narration-only part to repeat none for its first ten minutes or so."""
    return max(scenes, 6, min(CLIPS_CAP, int(narration_seconds / 4.0) + 1))


def narration_gain(samples: Floats, number: int) -> float:
    """The echo gain of the ``number``-th clip of the narration-only run."""
    return echo_gain(samples) * 10 ** (NARRATION_LEVELS[number % len(NARRATION_LEVELS)] / 20)
SETTLE = 1.0
"""Seconds of a new room's noise heard before its first narration."""
WARM_UP = 2
"""Narration clips a new room hears before its first scene (a game opens by talking
for a while; the canceller needs some ten seconds of speech to learn a room)."""


@dataclass(slots=True)
class SceneResult:
    """What became of one scene's command (see :mod:`.voice_room` for the figures)."""

    number: int
    kind: str
    room: str
    ratio_db: float
    noise: str
    transcript: str
    prompt: str
    answer: str = "missed"
    """"act", "ask", "query", "sorry", "ignore", or "missed" (no utterance)."""
    correct: bool = False
    wrong_unasked: bool = False
    heard: str = ""
    barged: bool = False
    barge_seconds: float | None = None
    """From the start of the command's speech to the narrator's silence."""
    latency: float | None = None
    """From the end of the command's speech to the intent."""
    decode_latency: float | None = None
    extra: list[str] = field(default_factory=list)
    """What the game did with other utterances of the scene (heard from the narration)."""


@dataclass(slots=True)
class NarrationResult:
    """Narration with nobody talking: what the game did with what it heard."""

    seconds: float = 0.0
    answers: list[tuple[float, str]] = field(default_factory=list)
    """(time from the start, answer) of each utterance heard."""
    barge_ins: int = 0

    def bad_minutes(self) -> int:
        """Minutes in which something heard acted or asked a question."""
        return len({int(at // 60) for at, answer in self.answers if answer in ("act", "ask")})


class Book:
    """One scene in progress: its grammar, the command's times, what was heard."""

    def __init__(self, scene: Scene, recognizer: Recognizer, seed: int) -> None:
        self.scene = scene
        self.recognizer = recognizer
        text = normalize(scene.clip.transcript)
        self.prompt, self.table = prompt_table(text, seed + scene.number)
        meaning = full_grammar().meanings.get(text)
        self.kind = meaning_kind(meaning) if meaning is not None else "chatter"
        self.expected: object = meaning if isinstance(meaning, Listening) \
            else self.table.intent(text) if meaning is not None else None
        dry = command_samples(scene.clip)
        self.command: Floats = dry * gain_for(dry, ECHO_DBFS + scene.ratio_db)
        self.span = speech_span(dry)
        """Where the speech lies in the command clip (seconds)."""
        self.clip: Scheduled | None = None
        """The command, once scheduled in the room."""
        self.barge_at: float | None = None
        self.silence_at: float | None = None
        self.result = SceneResult(scene.number, scene.kind, scene.room, scene.ratio_db,
                                  scene.noise, scene.clip.transcript, self.prompt)
        self.decided = False

    @property
    def speech(self) -> tuple[float, float] | None:
        """When the command's speech started and ended (the runner's clock), once its
        clip reached the microphone."""
        if self.clip is None or self.clip.written_start is None:
            return None
        start = self.clip.written_start
        return start + self.span[0], start + self.span[1]

    def barge_in(self, at: float, silence_at: float) -> None:
        """The microphone heard the player over the narrator at ``at``; the narrator
        was silent from ``silence_at``."""
        if self.barge_at is None:
            self.barge_at, self.silence_at = at, silence_at

    def utterance(self, pcm: bytes, delivered: float, clock: Callable[[], float],
                  over_game: bool = False) -> None:
        """Decode one utterance delivered at ``delivered``; ``clock`` tells the time
        once it is decided. One that began over the game's sound is decided as the
        listener does (:func:`over_game_policy`)."""
        seconds = len(pcm) / BYTES_PER_SECOND
        start, end = delivered - seconds - 0.35, delivered
        speech = self.speech
        ours = speech is not None and not self.decided \
            and start <= speech[1] + OVERLAP_SLACK and end >= speech[0]
        self.recognizer.set_phrases(self.table.phrases)
        policy = over_game_policy(DEFAULT_POLICY) if over_game else DEFAULT_POLICY
        outcome = decode_one(self.recognizer, self.table, pcm, self.scene.clip.transcript,
                             self.expected if ours else None, False, self.kind, self.prompt,
                             policy=policy)
        if not ours:
            self.result.extra.append(outcome.answer)
            return
        assert speech is not None
        self.decided = True
        self._record(outcome, clock() - speech[1], speech)

    def _record(self, outcome: Outcome, latency: float, speech: tuple[float, float]) -> None:
        r = self.result
        r.answer, r.correct, r.heard = outcome.answer, outcome.correct, outcome.heard
        r.wrong_unasked = outcome.unasked
        r.latency, r.decode_latency = latency, outcome.latency
        if self.barge_at is not None and self.barge_at >= speech[0] - OVERLAP_SLACK \
                and self.silence_at is not None:
            r.barged = True
            r.barge_seconds = self.silence_at - speech[0]


def chatter_answer(recognizer: Recognizer, pcm: bytes, number: int, seed: int) -> str:
    """What the game would do with ``pcm`` heard while nobody spoke, at one of the
    prompts a player waits at (taken in turn)."""
    prompt = CHATTER_PROMPTS[number % len(CHATTER_PROMPTS)]
    table: PhraseTable = chatter_table(prompt, seed + number)
    recognizer.set_phrases(table.phrases)
    return decode_one(recognizer, table, pcm, "", None, False, "chatter", prompt).answer


def echo_gain(narration: Floats) -> float:
    """The gain that puts the narration's echo at :data:`ECHO_DBFS` at the microphone
    (the impulse responses keep the energy)."""
    level = active_rms(narration)
    return 10 ** (ECHO_DBFS / 20) / level if level > 0 else 0.0


def to_16k(samples: Floats, rate: int) -> Floats:
    """``samples`` at 16 kHz."""
    if rate == RATE:
        return samples
    import soxr

    return np.asarray(soxr.resample(samples, rate, RATE, quality="HQ"), dtype=np.float32)


class OfflineRunner:
    """Plays scenes on a virtual clock (see the module doc). ``aec`` names the echo
    canceller ("speex", "webrtc"), or None for none; ``delay`` is the device's extra
    output-to-input delay to simulate.

    Each room (and noise) is a game of its own: a new microphone and canceller hear
    a moment of the room's noise, then :data:`WARM_UP` narration clips, before the
    first scene there (the game starts by talking too)."""

    def __init__(self, recognizer: Recognizer, aec: str | None, seed: int,
                 delay: float = 0.1, keep_audio: bool = False) -> None:
        self.recognizer = recognizer
        self.keep_audio = keep_audio
        self.heard: list[tuple[float, bytes]] = []
        """With ``keep_audio``: each frame the detector was given (after cancellation)
        during the last scene, with the time it was recorded."""
        self.delivered: list[tuple[float, bytes]] = []
        """With ``keep_audio``: the utterances of the last scene, with their delivery time."""
        self.book: Book | None = None
        """The last scene's book (its command, grammar and times)."""
        self.aec = aec
        self.seed = seed
        self.delay = delay
        self.t = 0.0
        self.canceller: EchoCanceller | None = None
        self.microphone = Microphone()
        self.delays: list[float] = []
        """The echo delay measured in each room (seconds)."""
        self._loop: RoomLoop | None = None
        self._early: EarlyEnd | None = None
        self._book: Book | None = None
        self._narration: Floats | None = None
        self._position = 0
        self._stop = False
        self._chatter: NarrationResult | None = None
        self._heard = 0
        self._begin = 0.0
        self._place = ("", "")
        self.before_speech: Callable[[str, str, str | None], None] = lambda *_: None
        """Called with the room, the noise and the speaker's voice before each scene,
        and with no voice before narration alone in a room: a bench training voice
        input per speaker and room chooses the training there
        (:mod:`.voice_room_training`)."""

    def _enter(self, room: str, noise: str, narration: Floats, seed: int) -> RoomLoop:
        """Start a game in ``room`` with ``noise``, the narrator saying ``narration``."""
        if (room, noise) == self._place and self._loop is not None:
            return self._loop
        if self.canceller is not None:
            self.delays.append(self.canceller.delay)
        self._place = (room, noise)
        self._loop = RoomLoop(room, echo_gain(narration), noise, seed, extra_delay=self.delay)
        self.canceller = EchoCanceller(self.aec) if self.aec else None
        if self.canceller is not None and self.keep_audio:
            self.canceller.on_cleaned = self._keep
        self.microphone = Microphone(barge_in=True, canceller=self.canceller,
                                     clock=lambda: self.t)
        if self._early is not None:
            self._early.close()
        self._early = EarlyEnd(self.recognizer, self.microphone, self._phrases,
                               meanings=self._meanings,
                               synchronous=True, clock=lambda: self.t,
                               timer=decode_clock(self.recognizer))
        self.microphone.on_utterance = self._utterance
        self.microphone.on_barge_in = self._barge
        self._advance(SETTLE)
        for _ in range(WARM_UP):
            self._speak(narration)
            self._advance(0.25)
        return self._loop

    def run_scene(self, scene: Scene, narration: tuple[Floats, int]) -> SceneResult:
        """Play one scene; what became of its command."""
        samples = to_16k(*narration)
        self.before_speech(scene.room, scene.noise, scene.clip.params.voice)
        loop = self._enter(scene.room, scene.noise, samples, self.seed + scene.number)
        loop.echo_gain = echo_gain(samples)
        book = self._book = self.book = Book(scene, self.recognizer, self.seed)
        self.heard, self.delivered = [], []
        self.recognizer.set_phrases(book.table.phrases)
        self._advance(0.5)
        start = self.t
        at = start + scene.offset + (0.0 if scene.kind == "during" else len(samples) / RATE)
        book.clip = loop.say(book.command, at)
        self._speak(samples)
        deadline = at + len(book.command) / RATE + WAIT_AFTER
        while self.t < deadline and not book.decided:
            self._step()
        self._advance(0.3)
        self._book = None
        return book.result

    def run_narration(self, clips: list[tuple[Floats, int]], seconds: float) -> NarrationResult:
        """Narration alone for ``seconds``, clip after clip (as the game speaks line
        after line), in each of :data:`NARRATION_PLACES` in turn; what was heard and
        done meanwhile."""
        self._chatter = result = NarrationResult()
        self._begin = begin = self.t
        number = 0
        while self.t - begin < seconds:
            samples = to_16k(*clips[number % len(clips)])
            room, noise = NARRATION_PLACES[min(2, int(3 * (self.t - begin) / seconds))]
            self.before_speech(room, noise, None)
            self._enter(room, noise, samples, self.seed + number).echo_gain = \
                narration_gain(samples, number)
            self._speak(samples)
            self._advance(0.25)
            number += 1
        result.seconds = self.t - begin
        self._chatter = None
        return result

    # ----- the clock -----------------------------------------------------------------
    def _speak(self, samples: Floats) -> None:
        self._narration, self._position, self._stop = samples, 0, False
        self.microphone.set_muted(True)

    def _advance(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end or self._narration is not None:
            self._step()

    def _step(self) -> None:
        played = np.zeros(BLOCK, dtype=np.float32)
        if self._narration is not None:
            if self._stop:
                self._narration = None
                self.microphone.set_muted(False)
            else:
                part = self._narration[self._position:self._position + BLOCK]
                played[:len(part)] = part
                self._position += BLOCK
                if self._position >= len(self._narration):
                    self._narration = None
                    self.microphone.set_muted(False)
        assert self._loop is not None
        if self.canceller is not None:
            self.canceller.add_reference(played, RATE, self.t)
        self._loop.add_reference(played, RATE, self.t)
        pcm = self._loop.next_block(timeout=0.0, now=self.t)
        assert pcm is not None
        if self.canceller is None and self.keep_audio:
            self._keep(pcm)
        self.microphone.process(pcm, self.t)
        self.t += BLOCK / RATE

    def _keep(self, frame: bytes) -> None:
        self.heard.append((self.t, frame))

    def _barge(self) -> None:
        if self._narration is not None:
            self._stop = True
        if self._book is not None:
            self._book.barge_in(self.t, self.t + BLOCK / RATE)
        if self._chatter is not None:
            self._chatter.barge_ins += 1

    def _phrases(self) -> tuple[str, ...]:
        """The phrases loaded for the scene in progress (none: pauses go undecoded)."""
        return tuple(self._book.table.phrases) if self._book is not None else ()

    def _meanings(self) -> Mapping[str, object]:
        """What the phrases of the scene in progress mean."""
        return self._book.table.meanings if self._book is not None else {}

    def _utterance(self, pcm: bytes) -> None:
        cpu = decode_clock(self.recognizer)
        began = cpu()
        # a pause decoded while the virtual clock stood still: done only that much later
        last = self._early.last_decode if self._early is not None else None
        spent = max(0.0, last.done - self.t) if last is not None and last.utterance == pcm \
            else 0.0

        def clock() -> float:
            return self.t + cpu() - began + spent

        if self.keep_audio:
            self.delivered.append((self.t, pcm))
        if self._book is not None:
            self._book.utterance(pcm, self.t, clock, self.microphone.heard_over_game)
        elif self._chatter is not None:
            answer = chatter_answer(self.recognizer, pcm, self._heard, self.seed)
            self._chatter.answers.append((self.t - self._begin, answer))
        self._heard += 1
