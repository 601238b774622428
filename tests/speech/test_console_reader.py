"""A screen reader that reads the console by itself (NVDA, JAWS, Orca): each line must
reach the player once, never printed and spoken both.

The player is two fakes together: :class:`ConsoleReader`, which reads what appears on
the game's terminal (a real pseudo-terminal), and :class:`FakeReader`, the prism
backend through which the game may speak (NVDA here, with braille). The game's output
is made as ``voice-spades play`` makes it
(:func:`voice_spades.speech.from_options.make_output`), with only the reader's seams
faked: the process list says NVDA runs, and prism is the fake.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.speech.screen_reader_fakes import ConsoleReader, FakePrism, FakeReader, features
from voice_spades.messages import Message
from voice_spades.narration import Line, LineKind, Priority
from voice_spades.speech import from_options
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.choice import choose_speech
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.screen_reader import ScreenReaderSpeaker

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

EVENTS = ["West bids three.", "North bids four.", "East bids nil."]
PROMPT = "Your bid? Nil, or one to thirteen."
ANSWER = "You hold the ace and king of spades."
LATER = ["You bid four.", "West leads the two of clubs."]
ALL = [*EVENTS, PROMPT, ANSWER, *LATER]


@pytest.fixture
def console() -> Iterator[ConsoleReader]:
    reader = ConsoleReader()
    yield reader
    reader.close()


def game_output(monkeypatch: pytest.MonkeyPatch, console: ConsoleReader, nvda: FakeReader,
                reader_lines: str) -> tuple[AnnouncerOutput, list[object], FakePrism]:
    """The game's output with NVDA running, as ``play --reader-lines`` makes it."""
    prism = FakePrism({"NVDA": nvda})
    monkeypatch.setattr(from_options, "choose_speech", functools.partial(
        choose_speech, platform="win32", processes=lambda: {"nvda.exe"},
        prism=lambda: prism))
    args = argparse.Namespace(no_speech=False, speech=None, reader_lines=reader_lines,
                              seat_voices=False, rate=None, voice=None)
    output, notices = from_options.make_output(args, console.stream)
    return output, list(notices), prism


def play(output: AnnouncerOutput, reader: FakeReader | None = None) -> None:
    """Bids and a prompt, a key pressed while they are said and its answer, then the
    player's bid and the play going on."""
    output.emit([Line("bid.made", text, kind=LineKind.EVENT) for text in EVENTS])
    output.emit([Line("prompt.bid", PROMPT, Priority.HIGH, kind=LineKind.PROMPT)])
    deadline = time.monotonic() + 2
    while reader is not None and not reader.spoken_calls and time.monotonic() < deadline:
        time.sleep(0.002)  # the key comes while the reader says the first bid
    output.interrupt()
    output.emit([Line("answer.hand", ANSWER)])
    output.wait_idle(10)
    output.emit([Line("bid.made", text, kind=LineKind.EVENT) for text in LATER])
    output.wait_idle(10)


def once_each(heard: list[str]) -> None:
    counts = Counter(heard)
    assert counts == Counter(ALL), {t: counts[t] for t in ALL if counts[t] != 1}


def test_with_reader_lines_console_the_reader_reads_the_printed_lines(
        monkeypatch: pytest.MonkeyPatch, console: ConsoleReader) -> None:
    nvda = FakeReader()
    output, notices, prism = game_output(monkeypatch, console, nvda, "console")
    assert notices == [Message("speech_choice.reader_reads_console", reader="NVDA")]
    play(output)
    output.close()
    heard = console.settle()
    # The game sent NVDA nothing (nor loaded prism): NVDA read each printed line once.
    assert prism.created == [] and nvda.spoken_calls == []
    once_each(heard)


def test_by_default_the_game_speaks_through_the_reader_and_prints_nothing(
        monkeypatch: pytest.MonkeyPatch, console: ConsoleReader) -> None:
    nvda = FakeReader(seconds_per_char=0.006)
    output, notices, _ = game_output(monkeypatch, console, nvda, "speech")
    assert notices == [Message("speech_choice.using_reader", reader="NVDA")]
    play(output, nvda)
    nvda.wait_quiet()
    output.close()
    # Nothing new on the console for NVDA to read; each line spoken whole once (the bid
    # the key cut was said again whole after the answer) and brailled.
    assert console.settle() == []
    assert nvda.cut == [EVENTS[0]]
    once_each(nvda.heard)
    assert set(nvda.brailled) == set(ALL)


def test_printing_and_speaking_both_is_heard_twice(console: ConsoleReader) -> None:
    # What the game did before: the fake player hears every line twice, so the tests
    # above can fail.
    nvda = FakeReader(seconds_per_char=0.003, feats=features(braille=False))
    speaker = ScreenReaderSpeaker(nvda, "NVDA", reads_console=True)
    output = AnnouncerOutput(Announcer(speaker, stream=console.stream))
    play(output)
    nvda.wait_quiet()
    output.close()
    counts = Counter(console.settle() + nvda.heard)
    assert all(counts[text] == 2 for text in ALL), counts


def test_a_reader_lost_while_it_speaks_the_lines_prints_them(console: ConsoleReader) -> None:
    # In speech mode lines are not printed while the reader says them; once it fails,
    # the lines it did not say, and every line after, are printed, with the reason.
    nvda = FakeReader(seconds_per_char=0.003, fail_after=2)
    speaker = ScreenReaderSpeaker(nvda, "NVDA", reads_console=True)
    output = AnnouncerOutput(Announcer(speaker, stream=console.stream, print_spoken=False))
    play(output)
    deadline = time.monotonic() + 5
    while output.announcer.speaker is not None and time.monotonic() < deadline:
        output.emit([Line("bid.made", "South passes.", kind=LineKind.EVENT)])
        time.sleep(0.05)
    printed = console.settle()
    output.close()
    assert output.announcer.speaker is None
    assert any("NVDA" in line for line in printed)  # "NVDA stopped answering..."
    for text in ALL:
        assert text in nvda.heard or text in printed, text
    assert not set(nvda.heard) & set(printed)  # and none of them twice
