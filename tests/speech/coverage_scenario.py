"""A scripted hand with keys pressed mid-sentence, and the event-coverage figure.

Issue 10's hand: resume at trick 13 of hand 1, press Enter, then L while the last
card of the trick is spoken; F1 (a long help) while the new hand is read out, before
the bots bid; then bid, and Escape while a bot's bid is spoken (the player's own
choice to skip). Every game event line printed must be heard whole or skipped by
that Escape.

:class:`Script` runs it over any queued speaker that logs its plays (``plays``,
``wait_playing``). test_event_coverage.py runs it with a timed fake speaker, and runs
this file as a script (``python coverage_scenario.py OUT_DIR``) with the real pyttsx3
speaker, HOME's ``.asoundrc`` sending the default ALSA device to ``OUT_DIR/out.raw``
(the game's one output stream): then "heard" is proved by the device, the recording
of each sentence's clip holding every sample of it. Prints one JSON object on stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.session.fakes import fast_bots
from voice_spades.bots import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.engine import Match, Phase, PlayerView, profile
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.keys.help import help_text
from voice_spades.narration import Line, LineKind
from voice_spades.session import GameSettings, InputEnded, InputHooks, Pacer, Ports, Session
from voice_spades.speech import Announcer
from voice_spades.speech.message import Utterance
from voice_spades.speech.output import AnnouncerOutput, batch_utterances
from voice_spades.speech.record import Outcome

SEED = 21
"""Hand 1 reaches trick 13 with East leading: South plays second and North ends it;
West deals hand 2, so North and East bid before South, and West after."""
HUMAN = 0
RATE = 200
PACE = 0.25
"""The bots' quiet gap with speech, as the game sets it."""
WAIT = 240.0
"""Seconds any one step may take with real speech (the help alone is about 40)."""


class PlayLog(Protocol):
    """What the script needs of the speaker besides the Speaker protocol."""

    plays: list[tuple[Utterance, bool]]

    def wait_playing(self, u: Utterance, timeout: float) -> None:
        """Block until ``u`` (this very utterance) is being played."""
        ...

    def on_outcome(self, callback: Callable[[Utterance, Outcome], None]) -> None:
        """Hear what became of each utterance."""
        ...


def match_at_last_trick(seed: int = SEED) -> Match:
    """Hand 1 of a pagat match played by bots up to South's card in trick 13."""
    match = Match(profile("pagat"), seed)
    bots = {seat: LegalMovePlayer(seed=seed + seat) for seat in range(4)}
    while True:
        view = match.view(HUMAN)
        if match.to_act == HUMAN and view.phase is Phase.PLAY and view.trick_number == 13:
            return match
        seat = match.to_act
        assert seat is not None
        match.apply(decide(bots[seat], match.view(seat)))


@dataclass(frozen=True)
class Printed:
    """One line printed (and handed to speech), as the speaker got it."""

    message_id: str
    utterance: Utterance
    at: float
    batch: int
    """Lines said together (one emit) share a batch number."""


class LoggingOutput(AnnouncerOutput):
    """The game's output, noting every line printed with its utterance."""

    def __init__(self, announcer: Announcer, rate: int) -> None:
        super().__init__(announcer, rate)
        self.printed: list[Printed] = []
        self.lock = threading.Lock()
        self.batches = 0

    def emit(self, lines: Sequence[Line]) -> None:
        self.batches += 1
        for line, u in zip(lines, batch_utterances(lines), strict=True):
            with self.lock:
                self.printed.append(Printed(line.message_id, u, time.monotonic(),
                                            self.batches))
            with contextlib.suppress(OSError, ValueError):
                self.announcer.say(u)

    def snapshot(self) -> list[Printed]:
        with self.lock:
            return list(self.printed)


@dataclass(frozen=True)
class Coverage:
    """What became of the game's event lines."""

    printed: int
    spoken: int
    cut_and_said_again: int
    folded: int
    skipped: int
    lost: int

    def sentence(self) -> str:
        return (f"event lines printed {self.printed}: spoken whole {self.spoken} "
                f"({self.cut_and_said_again} of them cut by a key and said again), "
                f"folded into a trick summary that names them {self.folded}, "
                f"skipped by the player (Escape) {self.skipped}, lost {self.lost}")


class Script:
    """The scripted hand over ``speaker``, pressing keys the way a player would."""

    def __init__(self, speaker: PlayLog, announcer: Announcer, *, mid: float = 0.5,
                 pace: float = PACE) -> None:
        self.speaker = speaker
        self.mid = mid
        """Seconds into a sentence when a key is pressed "mid-sentence"."""
        self.pace = pace
        self.output = LoggingOutput(announcer, RATE)
        self.outcomes: list[tuple[Utterance, Outcome, float]] = []
        self._outcome_lock = threading.Lock()
        speaker.on_outcome(self._note)
        keymap = load_keymap()
        long_help = help_text(keymap, 4)
        self.session = Session(
            match_at_last_trick(), Ports(self.output, pacer=Pacer(self.output.is_busy, pace)),
            settings=GameSettings(rules="pagat", seed=SEED),
            hooks=InputHooks(help_text=lambda: long_help), bot_factory=fast_bots)
        self.keys = KeyboardInput(self.session, keymap)
        self.marks: dict[str, float] = {}
        self.help: Utterance | None = None

    def _note(self, u: Utterance, outcome: Outcome) -> None:
        with self._outcome_lock:
            self.outcomes.append((u, outcome, time.monotonic()))

    # ----- the script ---------------------------------------------------------------
    def run(self) -> None:
        session = self.session
        session.start(resumed=True)
        runner = threading.Thread(target=session.run, daemon=True, name="session")
        runner.start()
        try:
            self._play()
        finally:
            self.quiet()
            session.submit(InputEnded())
            runner.join(30)
            self.output.wait_idle(30)

    def _play(self) -> None:
        self.quiet()
        hand = self.view().hand_number
        self.press_until("enter", lambda: self.view().hand_number > hand
                         or len(self.view().hand_cards) == 0)
        # L while the last card of trick 13 is spoken ("Partner North played ..."): the
        # first line of the batch that ends the trick.
        result = self.wait_printed(lambda p: p.message_id.startswith("trick.won"))
        card = self.first_of_batch(result)
        self.speaker.wait_playing(card.utterance, WAIT)
        time.sleep(self.mid)
        self.marks["l_pressed"] = time.monotonic()
        self.keys.press_token("l")
        # F1 while the new hand is read out, before any bot bids.
        dealt = self.wait_printed(lambda p: p.message_id == "hand.dealt")
        self.speaker.wait_playing(dealt.utterance, WAIT)
        time.sleep(self.mid)
        bids_before = self.count("bid.made")
        self.marks["f1_pressed"] = time.monotonic()
        self.keys.press_token("f1")
        help_line = self.wait_printed(lambda p: p.message_id == "help.keys")
        self.help = help_line.utterance
        first_bid = self.wait_printed(lambda p: p.message_id == "bid.made", after=bids_before)
        self.marks["first_bid_printed"] = first_bid.at
        # Bid when it is the player's turn, once the prompt has been heard.
        self.wait_until(lambda: self.view().is_my_turn and self.view().phase is Phase.BID)
        self.quiet()
        bids = self.count("bid.made")
        self.keys.press_token("3")
        self.press_until("enter", lambda: self.count("bid.made") > bids)
        # Escape while the next bot's bid is spoken: skipping is the player's choice.
        bot_bid = self.wait_printed(lambda p: p.message_id == "bid.made", after=bids + 1)
        self.speaker.wait_playing(bot_bid.utterance, WAIT)
        time.sleep(self.mid)
        self.marks["escape_pressed"] = time.monotonic()
        self.keys.press_token("escape")
        self.wait_until(lambda: self.view().is_my_turn and self.view().phase is Phase.PLAY)

    # ----- helpers ------------------------------------------------------------------
    def view(self) -> PlayerView:
        return self.session.context().view

    def quiet(self) -> None:
        """Wait for speech to end and the bots to settle."""
        assert self.output.wait_idle(WAIT), "speech never ended"
        time.sleep(self.pace + 0.2)
        self.output.wait_idle(WAIT)

    def press_until(self, key: str, done: Callable[[], bool]) -> None:
        """Press ``key`` until ``done`` (a second press confirms if the first one asked)."""
        for _ in range(3):
            self.keys.press_token(key)
            with contextlib.suppress(TimeoutError):
                self.wait_until(done, 3.0)
                return
        raise AssertionError(f"{key} did nothing: {self.texts()[-3:]}")

    def wait_until(self, done: Callable[[], bool], timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout} s; last lines: {self.texts()[-3:]}")
            time.sleep(0.01)

    def wait_printed(self, which: Callable[[Printed], bool], after: int = 0) -> Printed:
        """The first line printed that ``which`` accepts, skipping ``after`` of them."""
        found: list[Printed] = []

        def seen() -> bool:
            found[:] = [p for p in self.output.snapshot() if which(p)][after:]
            return bool(found)
        self.wait_until(seen)
        return found[0]

    def first_of_batch(self, printed: Printed) -> Printed:
        return next(p for p in self.output.snapshot() if p.batch == printed.batch)

    def count(self, message_id: str) -> int:
        return sum(p.message_id == message_id for p in self.output.snapshot())

    def texts(self) -> list[str]:
        return [p.utterance.text for p in self.output.snapshot()]

    # ----- the figure ---------------------------------------------------------------
    def coverage(self, heard: Callable[[Utterance], bool]) -> tuple[Coverage, list[str]]:
        """The figure, and the event lines lost (none, we hope), by what ``heard`` says
        of each utterance (True: it was played whole). A line counts as skipped by choice
        only if speech let it go as skipped once Escape was pressed."""
        escape = self.marks.get("escape_pressed", float("inf"))
        with self._outcome_lock:
            last = {id(u): (outcome, at) for u, outcome, at in self.outcomes}
            cuts = {id(u) for u, outcome, _ in self.outcomes if outcome is Outcome.CUT}
        events = [p.utterance for p in self.output.snapshot()
                  if p.utterance.kind is LineKind.EVENT]
        spoken = [u for u in events if heard(u)]
        rest = [u for u in events if not heard(u)]
        none = (None, 0.0)
        folded = {id(u) for u in rest if last.get(id(u), none)[0] is Outcome.FOLDED}
        skipped = {id(u) for u in rest
                   if last.get(id(u), none)[0] is Outcome.SKIPPED
                   and last.get(id(u), none)[1] >= escape}
        lost = [u for u in rest if id(u) not in folded | skipped]
        figure = Coverage(len(events), len(spoken), sum(id(u) in cuts for u in spoken),
                          len(folded), len(skipped), len(lost))
        return figure, [f"{u.text} ({last.get(id(u), none)[0]})" for u in lost]

    def spoken_at(self, u: Utterance | None) -> float | None:
        """When ``u`` ended, spoken whole (None if it never was)."""
        with self._outcome_lock:
            return next((at for said, outcome, at in self.outcomes
                         if said is u and outcome is Outcome.SPOKEN), None)

    def spoken_in_order(self, heard: Callable[[Utterance], bool]) -> bool:
        """True if the events were heard whole in the order they were printed."""
        order = {id(p.utterance): i for i, p in enumerate(self.output.snapshot())}
        whole = [order[id(u)] for u, played in self.speaker.plays
                 if played and u.kind is LineKind.EVENT and heard(u)]
        return whole == sorted(dict.fromkeys(whole))


# ----- the real speaker, through the virtual sound device ------------------------------
def expected_frames(texts: set[str], out_rate: int) -> dict[str, float]:
    """How many frames at ``out_rate`` each text is when synthesized whole at :data:`RATE`."""
    from voice_spades.speech.synth import SynthClient

    client = SynthClient()
    client.start()
    result = {}
    with tempfile.TemporaryDirectory() as folder:
        for i, text in enumerate(sorted(texts)):
            path = Path(folder) / f"{i}.wav"
            client.synth(text, path, RATE, None, 50)
            with wave.open(str(path)) as wav:
                result[text] = wav.getnframes() * out_rate / wav.getframerate()
    client.close()
    return result


def run_real(out: Path) -> dict[str, Any]:
    import numpy as np
    import numpy.typing as npt

    from tests.speech.virtual_device import recording, recording_offset
    from voice_spades.speech.audio_clip import read_wav
    from voice_spades.speech.audio_out import AudioOut, Playback
    from voice_spades.speech.pyttsx3_speaker import Pyttsx3Speaker

    class LoggedAudio(AudioOut):
        """The game's output stream, noting each clip it is given."""

        def __init__(self) -> None:
            self.clips: list[Playback] = []
            super().__init__()

        def play(self, samples: npt.NDArray[Any], samplerate: int, *, pan: float = 0.0,
                 gain: float = 1.0, tag: str | None = None) -> Playback:
            handle = super().play(samples, samplerate, pan=pan, gain=gain, tag=tag)
            self.clips.append(handle)
            return handle

    audio = LoggedAudio()

    class DeviceLoggedSpeaker(Pyttsx3Speaker):
        """The game's speaker, noting which clip of the device each utterance was."""

        def __init__(self) -> None:
            self.plays: list[tuple[Utterance, bool]] = []
            self.clips: list[tuple[Utterance, float, float, Playback | None]] = []
            """Each play: the utterance, its length in the device's frames, its mean
            square, and the clip the device got for it."""
            self.playing: Utterance | None = None
            self.started = threading.Condition()
            super().__init__(RATE, audio=audio)

        def _deliver(self, u: Utterance, wav: Path, cancel: threading.Event) -> bool:
            samples, rate = read_wav(wav)
            frames = len(samples) * audio.samplerate / rate
            square = float(np.mean(samples.astype(np.float64) ** 2)) if len(samples) else 0.0
            before = len(audio.clips)
            with self.started:
                self.playing = u
                self.started.notify_all()
            whole = False
            try:
                whole = super()._deliver(u, wav, cancel)
            finally:
                with self.started:
                    self.playing = None
                    self.plays.append((u, whole))
                    clip = audio.clips[before] if len(audio.clips) > before else None
                    self.clips.append((u, frames, square, clip))
            return whole

        def wait_playing(self, u: Utterance, timeout: float) -> None:
            deadline = time.monotonic() + timeout
            with self.started:
                while self.playing is not u:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError(f"{u.text!r} was never played")
                    self.started.wait(left)

    speaker = DeviceLoggedSpeaker()
    speaker.probe()
    script = Script(speaker, Announcer(speaker, stream=io.StringIO()))
    started = time.monotonic()
    script.run()
    seconds = time.monotonic() - started
    speaker.close()
    audio.close()
    printed = script.output.snapshot()
    expected = expected_frames({p.utterance.text for p in printed}, audio.samplerate)
    rec = recording(out)
    rec = rec[recording_offset(rec, audio.frames_written):]
    whole_on_device: set[int] = set()
    for u, frames, square, clip in speaker.clips:
        # The device got every sample played for ``u`` (the recording of its clip is as
        # long and as loud as the sentence), and those were the whole sentence
        # (espeak-ng's length for a text varies by a fraction of a percent between runs).
        if clip is None or not clip.whole or clip.start_frame is None:
            continue
        got = rec[clip.start_frame:clip.start_frame + clip.frames, 0].astype(np.float64)
        if len(got) == clip.frames and abs(clip.frames - frames) <= 2 \
                and abs(float(np.mean(got ** 2)) - square) <= 0.1 * square \
                and abs(frames - expected[u.text]) <= 0.05 * expected[u.text]:
            whole_on_device.add(id(u))
    by_speaker = {id(u) for u, whole in speaker.plays if whole}

    def heard(u: Utterance) -> bool:
        return id(u) in whole_on_device

    figure, lost = script.coverage(heard)
    help_u = script.help
    help_seconds = max((clip.frames / audio.samplerate for u, _, _, clip in speaker.clips
                        if u is help_u and clip is not None), default=0.0)
    help_end = script.spoken_at(help_u)
    return {
        "coverage": asdict(figure),
        "sentence": figure.sentence(),
        "lost": lost,
        "in_order": script.spoken_in_order(heard),
        "device_agrees_with_speaker": whole_on_device == by_speaker,
        "help_seconds": round(help_seconds, 1),
        "first_bid_after_f1": round(script.marks["first_bid_printed"]
                                    - script.marks["f1_pressed"], 1),
        "first_bid_after_help_end": None if help_end is None
        else round(script.marks["first_bid_printed"] - help_end, 2),
        "seconds": round(seconds, 1),
        "printed": [[p.message_id, p.utterance.kind.value, p.utterance.text] for p in printed],
    }


if __name__ == "__main__":
    print(json.dumps(run_real(Path(sys.argv[1]))))
