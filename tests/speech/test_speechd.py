"""Speech Dispatcher for real, through the game's own client (SSIP) and its screen-reader
speaker: a daemon of our own (espeak-ng module) playing into a private PulseAudio null
sink, a virtual sound card with a clock, whose output is recorded (see
voice_spades/bench/pulse_sink.py for why not ALSA's file device). Shows that a line is
heard, that a key cuts it, that the rate changes its length, and that the game's events
are never stacked in the daemon's queue, where a key could not reach them.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.speech.speechd_fixtures import Speechd, speechd_fixture  # noqa: F401
from voice_spades.bench.sound_sink import Sound, first_sound, last_sound_end, sound_seconds
from voice_spades.bench.speechd_daemon import PrivateSpeechd
from voice_spades.errors import SetupError, SpadesError
from voice_spades.messages import Message
from voice_spades.narration.lines import LineKind
from voice_spades.speech.base import Speaker
from voice_spades.speech.choice import choose_speech
from voice_spades.speech.message import Priority, Utterance
from voice_spades.speech.reader_pacing import estimated_seconds
from voice_spades.speech.record import Outcome
from voice_spades.speech.screen_reader import ScreenReaderSpeaker
from voice_spades.speech.speechd_client import SpeechdBackend, SpeechdError, daemon_address

pytestmark = [pytest.mark.audio, pytest.mark.slow]

LONG = ("North leads the king of clubs. East follows with the four of clubs. "
        "South plays the ace of clubs and wins the trick.")
RATE_LINE = "South plays the ace of clubs and wins the trick."
SHORT = ["West bids three.", "North bids four.", "East bids nil."]


@pytest.fixture(scope="module")
def backend(speechd: Speechd) -> Iterator[SpeechdBackend]:
    """The game's Speech Dispatcher client on our daemon."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPEECHD_ADDRESS", speechd.address)
        backend = SpeechdBackend()
        # A player's daemon is already running with its voice loaded; ours starts its
        # espeak-ng module at the first line (0.6-0.7 s on some machines), so one word
        # is spoken first and the tests time a daemon as a player has it.
        start = time.monotonic()
        backend.speak("ready")
        settle(speechd, start)
        yield backend
        backend.close()


@pytest.fixture
def reader(speechd: Speechd, backend: SpeechdBackend) -> Iterator[ScreenReaderSpeaker]:
    """The game's speaker on a connection of its own (closed with it), once the module's
    backend has woken the daemon's voice."""
    speaker = ScreenReaderSpeaker(
        SpeechdBackend(daemon_address({"SPEECHD_ADDRESS": speechd.address})),
        "Speech Dispatcher")
    yield speaker
    speaker.close()


def settle(speechd: Speechd, since: float, quiet: float = 0.8, limit: float = 20) -> list[Sound]:
    """Wait until nothing has played for ``quiet`` seconds; what played since ``since``."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        played = [s for s in speechd.pulse.sounds() if s.start >= since]
        if played and time.monotonic() - played[-1].end > quiet:
            return played
        time.sleep(0.05)
    raise AssertionError("the sound never settled")


def say(speaker: ScreenReaderSpeaker, text: str, kind: LineKind = LineKind.EVENT) -> Utterance:
    u = Utterance(text, Priority.NORMAL, kind=kind)
    speaker.say(u)
    return u


def test_a_line_is_heard_soon_and_whole(speechd: Speechd, reader: ScreenReaderSpeaker) -> None:
    start = time.monotonic()
    say(reader, LONG)
    played = settle(speechd, start)
    first = first_sound(played, start)
    assert first is not None and first.start - start < 0.5
    whole = sound_seconds(played, start, time.monotonic())
    assert 4.0 < whole < 12.0  # about 7 s at the daemon's default rate


def test_a_key_cuts_the_line(speechd: Speechd, reader: ScreenReaderSpeaker) -> None:
    start = time.monotonic()
    say(reader, LONG)  # about 7 s whole (test_a_line_is_heard_soon_and_whole)
    time.sleep(1.0)
    pressed = time.monotonic()
    reader.interrupt()
    reader.stop()  # the player's skip: the cut line is not said again
    played = settle(speechd, start)
    end = last_sound_end(played, start)
    assert end is not None
    # Stopped, with about 6 s of the line left: how soon is `bench speech`'s figure
    # (~0.1 s), not a test's, which a busy machine would fail.
    assert end - pressed < 0.4
    assert sound_seconds(played, start, time.monotonic()) < 1.4


def test_the_rate_changes_the_length(speechd: Speechd, reader: ScreenReaderSpeaker) -> None:
    lengths = {}
    for wpm in (150, 300):
        reader.set_rate(wpm)
        start = time.monotonic()
        say(reader, RATE_LINE)
        lengths[wpm] = sound_seconds(settle(speechd, start), start, time.monotonic())
    reader.set_rate(200)
    assert lengths[150] > 1.6 * lengths[300]


def test_events_wait_their_turn_and_a_cut_event_is_said_again(
        speechd: Speechd, reader: ScreenReaderSpeaker) -> None:
    outcomes: list[tuple[str, Outcome]] = []
    reader.on_outcome(lambda u, o: outcomes.append((u.text, o)))
    start = time.monotonic()
    for line in SHORT:
        say(reader, line)
    time.sleep(0.4)
    reader.interrupt()  # cuts "West bids three." mid-word
    say(reader, "Your cards: ace, king of spades.", LineKind.ANSWER)
    settle(speechd, start, quiet=1.2)
    assert reader.wait_idle(10)
    texts = [t for t, o in outcomes if o is Outcome.SPOKEN]
    assert texts == ["Your cards: ace, king of spades.", *SHORT]
    assert ("West bids three.", Outcome.CUT) in outcomes


def test_the_estimate_errs_long_for_the_games_lines(speechd: Speechd,
                                                    reader: ScreenReaderSpeaker) -> None:
    for text in [RATE_LINE, *SHORT, "Spades are broken."]:
        start = time.monotonic()
        say(reader, text)
        heard = sound_seconds(settle(speechd, start, quiet=0.6), start, time.monotonic())
        # Long, so a line is never stacked behind another in the daemon's queue (where
        # a key could not reach it); not much longer, so the pauses stay short.
        assert heard < estimated_seconds(text, 160.0) < heard * 1.6 + 0.5, text


def test_the_first_line_is_heard_soon_after_launch(speechd: Speechd,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The whole choice of --speech screen-reader (the process list, the connection and its
    # check) and the first line: prism's backend took 1.5-1.7 s here to connect alone,
    # listing the daemon's 13,362 voices; the game's client 21 ms to the first sound
    # (`bench speech`, median of 5; from starting `voice-spades play` to its first sound,
    # 452 ms against 1342 ms with the game's own voice). The bound, 1.5 s, leaves
    # a busy machine room.
    monkeypatch.setenv("SPEECHD_ADDRESS", speechd.address)
    start = time.monotonic()
    chosen = choose_speech("screen-reader", no_voice, platform="linux", processes=set)
    connected = time.monotonic() - start
    assert isinstance(chosen.speaker, ScreenReaderSpeaker) and chosen.notices == []
    try:
        say(chosen.speaker, "North bids four.")
        first = first_sound(settle(speechd, start), start)
    finally:
        chosen.speaker.close()
    assert first is not None
    print(f"connected in {connected * 1000:.0f} ms, first sound after "
          f"{(first.start - start) * 1000:.0f} ms")
    assert first.start - start < 1.5


def no_voice() -> tuple[Speaker, list[Message | SpadesError]]:
    raise AssertionError("the screen reader was not chosen")


def test_a_key_after_a_line_ended_does_not_say_it_again(
        speechd: Speechd, reader: ScreenReaderSpeaker) -> None:
    # The daemon says when a line ends: a key pressed after "West bids three." ended
    # (0.95 s long) cuts nothing, where a reader paced by an estimate (1.7 s for it)
    # took it as still speaking, "cut" it, and said it whole again after the answer.
    outcomes: list[tuple[str, Outcome]] = []
    reader.on_outcome(lambda u, o: outcomes.append((u.text, o)))
    start = time.monotonic()
    say(reader, SHORT[0])
    assert reader.wait_idle(5)
    ended = time.monotonic()
    reader.interrupt()
    say(reader, "Your bid is four.", LineKind.ANSWER)
    played = settle(speechd, start, quiet=1.0)
    assert reader.wait_idle(5)
    heard = last_sound_end(played, start)
    assert heard is not None and ended - heard < 0.3  # idle as soon as it fell silent
    assert outcomes == [(SHORT[0], Outcome.SPOKEN), ("Your bid is four.", Outcome.SPOKEN)]
    # Two utterances were heard, the line and the answer, with a gap between them.
    gaps = [b.start - a.end for a, b in itertools.pairwise(played)]
    assert sum(gap > 0.15 for gap in gaps) == 1


def test_a_stop_cancels_every_line_in_the_daemon(speechd: Speechd,
                                                 backend: SpeechdBackend) -> None:
    # Two lines stacked in the daemon's own queue (the game never stacks them, but a
    # reader's pacing could): a stop silences both, so no line plays after a key.
    start = time.monotonic()
    backend.speak(RATE_LINE)
    backend.speak(SHORT[1])
    time.sleep(0.5)
    backend.stop()
    stopped = time.monotonic()
    played = settle(speechd, start)
    end = last_sound_end(played, start)
    assert end is not None and end - stopped < 0.4
    deadline = time.monotonic() + 2
    while backend.speaking and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not backend.speaking


def test_a_daemon_that_goes_away_is_a_lost_reader_not_a_lost_game(
        speechd: Speechd, tmp_path: Path) -> None:
    # A daemon of its own, ended under the speaker: the next line raises the reader's
    # SetupError (the announcer then says it and goes on in text), never hangs.
    with PrivateSpeechd(tmp_path / "gone", speechd.pulse.server) as daemon:
        backend = SpeechdBackend(daemon_address({"SPEECHD_ADDRESS": daemon.address}))
        speaker = ScreenReaderSpeaker(backend, "Speech Dispatcher")
    start = time.monotonic()
    with pytest.raises(SetupError) as lost:
        for _ in range(100):
            say(speaker, "North bids four.")
            time.sleep(0.05)
    assert lost.value.message_id == "speech_choice.reader_lost"
    assert time.monotonic() - start < 3
    speaker.close()
    with pytest.raises(SpeechdError):
        SpeechdBackend(daemon_address({"SPEECHD_ADDRESS": daemon.address}))
