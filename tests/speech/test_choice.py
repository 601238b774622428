"""Every branch of the speech choice (--speech auto|screen-reader|voice|text).

Windows and macOS readers are faked at the prism seam (tests/speech/screen_reader_fakes)
and the process list is the seam that says which reader runs. The Linux branches use the
real prism library: with no Orca and no D-Bus here, its Orca backend really fails, and
Speech Dispatcher is this test's own daemon (tests/speech/test_speechd.py starts one
the same way).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.speech.screen_reader_fakes import FakePrism, FakeReader, features
from tests.speech.speechd_fixtures import speechd_address_fixture, speechd_fixture  # noqa: F401
from voice_spades.errors import SetupError
from voice_spades.messages import Message
from voice_spades.speech import choice as choice_module
from voice_spades.speech.base import Speaker
from voice_spades.speech.choice import Choice, running_processes
from voice_spades.speech.choice import choose_speech as choose_with
from voice_spades.speech.screen_reader import ScreenReaderSpeaker
from voice_spades.speech.text_speaker import TextSpeaker


def choose_speech(mode: str | None, voice: Any, **seams: Any) -> Choice:
    """The choice with a reader that reads the console speaking the lines through its
    API (``--reader-lines speech``: these tests are about reaching readers); the
    default, the reader reading the printed lines, is tested at the end and in
    test_console_reader.py."""
    seams.setdefault("reader_lines", "speech")
    return choose_with(mode, voice, **seams)


def voice_ok() -> tuple[Speaker, list[Message | SetupError]]:
    return TextSpeaker(), []


def voice_fails() -> tuple[Speaker, list[Message | SetupError]]:
    raise SetupError("speech.no_device")


def ids(chosen: Choice) -> list[tuple[str, dict[str, object]]]:
    return [(n.id, dict(n.fields)) if isinstance(n, Message)
            else (n.message.id, dict(n.message.fields)) for n in chosen.notices]


def windows(mode: str | None, prism: FakePrism, running: set[str], voice=voice_ok) -> Choice:
    return choose_speech(mode, voice, platform="win32", processes=lambda: running,
                         prism=lambda: prism)


@pytest.fixture(autouse=True)
def close_speakers() -> Iterator[list[Choice]]:
    made: list[Choice] = []
    yield made
    for chosen in made:
        if chosen.speaker is not None:
            chosen.speaker.close()


def test_text_is_text_and_says_nothing() -> None:
    chosen = windows("text", FakePrism(), {"nvda.exe"})
    assert (chosen.speaker, chosen.kind, chosen.notices) == (None, "text", [])


def test_voice_asked_and_working_says_nothing() -> None:
    chosen = windows("voice", FakePrism({"NVDA": FakeReader()}), {"nvda.exe"})
    assert chosen.kind == "voice" and chosen.notices == []


def test_voice_that_fails_falls_back_to_text_with_its_own_sentence() -> None:
    chosen = windows("voice", FakePrism(), set(), voice_fails)
    assert chosen.kind == "text" and ids(chosen) == [("speech.no_device", {})]


def test_auto_speaks_through_a_running_nvda_and_says_so() -> None:
    prism = FakePrism({"NVDA": FakeReader()})
    chosen = windows(None, prism, {"explorer.exe", "nvda.exe"})
    assert isinstance(chosen.speaker, ScreenReaderSpeaker) and chosen.kind == "screen-reader"
    assert ids(chosen) == [("speech_choice.using_reader", {"reader": "NVDA"})]
    chosen.speaker.close()


def test_auto_never_trusts_an_nvda_backend_when_nvda_is_not_running() -> None:
    # prism issue #49: the NVDA backend initializes with NVDA not running.
    prism = FakePrism({"NVDA": FakeReader(), "JAWS": FakeReader("JAWS")})
    chosen = windows("auto", prism, {"explorer.exe"})
    assert chosen.kind == "voice" and prism.created == []
    assert ids(chosen) == [("speech_choice.using_voice", {})]


@pytest.mark.parametrize("broken", [
    FakeReader(feats=features(runtime=False)),
    FakeReader(speaking_error=RuntimeError("Prism Error Code: internal")),
    None,  # prism raises ValueError: Invalid or unsupported backend
])
def test_nvda_running_but_not_answering_is_one_sentence_then_it_reads_the_lines(
        broken: FakeReader | None) -> None:
    # Not the game's voice: NVDA reads the printed lines, so a voice would say each twice.
    prism = FakePrism({"NVDA": broken} if broken is not None else {})
    chosen = windows("auto", prism, {"nvda.exe"})
    assert (chosen.speaker, chosen.kind, chosen.print_lines) == (None, "console", True)
    assert ids(chosen) == [("speech_choice.reader_unreachable", {"reader": "NVDA"}),
                           ("speech_choice.reader_reads_lines", {"reader": "NVDA"})]


def test_a_reader_that_hangs_at_start_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(choice_module, "CREATE_TIMEOUT", 0.2)
    chosen = windows("auto", FakePrism({"NVDA": FakeReader()}, hang={"NVDA"}), {"nvda.exe"})
    assert chosen.kind == "console"
    assert ids(chosen)[0] == ("speech_choice.reader_unreachable", {"reader": "NVDA"})


def test_jaws_when_nvda_fails_and_both_run() -> None:
    prism = FakePrism({"JAWS": FakeReader("JAWS", feats=features(speaking=False))})
    chosen = windows("auto", prism, {"nvda.exe", "jfw.exe"})
    assert isinstance(chosen.speaker, ScreenReaderSpeaker) and chosen.speaker.reader == "JAWS"
    assert ids(chosen) == [("speech_choice.reader_unreachable", {"reader": "NVDA"}),
                           ("speech_choice.using_reader", {"reader": "JAWS"})]
    chosen.speaker.close()


def test_narrator_cannot_be_reached_from_a_console() -> None:
    # Narrator takes no speech from a console program but reads its lines: they are
    # printed for it, and no voice of the game's says them a second time.
    chosen = windows("auto", FakePrism(), {"narrator.exe"})
    assert (chosen.speaker, chosen.kind, chosen.print_lines) == (None, "console", True)
    assert ids(chosen) == [("speech_choice.reader_reads_lines", {"reader": "Narrator"})]


def test_voiceover_cannot_be_reached_from_a_terminal() -> None:
    prism = FakePrism({"VOICE_OVER": FakeReader("VoiceOver (macOS)")})
    chosen = choose_speech("auto", voice_ok, platform="darwin",
                           processes=lambda: {"voiceover", "finder"}, prism=lambda: prism)
    assert chosen.kind == "console" and prism.created == []
    assert ids(chosen) == [("speech_choice.reader_reads_lines", {"reader": "VoiceOver"})]


def test_no_prism_library_is_one_sentence() -> None:
    def missing() -> FakePrism:
        raise ImportError("No module named 'prism'")
    chosen = choose_speech("auto", voice_ok, platform="win32",
                           processes=lambda: {"nvda.exe"}, prism=missing)
    assert ids(chosen) == [("speech_choice.no_library", {}),
                           ("speech_choice.reader_reads_lines", {"reader": "NVDA"})]


def test_screen_reader_asked_with_none_running_says_so_then_the_voice() -> None:
    chosen = windows("screen-reader", FakePrism(), set())
    assert ids(chosen) == [("speech_choice.reader_not_running", {}),
                           ("speech_choice.using_voice", {})]


def test_screen_reader_asked_and_working_says_nothing_more() -> None:
    chosen = windows("screen-reader", FakePrism({"NVDA": FakeReader()}), {"nvda.exe"})
    assert chosen.kind == "screen-reader" and chosen.notices == []
    assert chosen.speaker is not None
    chosen.speaker.close()


def test_nothing_works_ends_in_text_with_each_reason() -> None:
    chosen = windows("screen-reader", FakePrism(), set(), voice_fails)
    assert chosen.speaker is None and chosen.kind == "text"
    assert ids(chosen) == [("speech_choice.reader_not_running", {}), ("speech.no_device", {})]


def test_the_voice_notice_is_kept_when_a_voice_name_was_wrong() -> None:
    def wrong_name() -> tuple[Speaker, list[Message | SetupError]]:
        return TextSpeaker(), [SetupError("speech.no_voice", voice="klingon")]
    chosen = windows("voice", FakePrism(), set(), wrong_name)
    assert ids(chosen) == [("speech.no_voice", {"voice": "klingon"}),
                           ("speech_choice.using_voice", {})]


def test_an_unknown_mode_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        choose_speech("loud", voice_ok)


# --- Linux, real prism --------------------------------------------------------------

def test_the_real_process_list_has_this_process() -> None:
    own = Path(f"/proc/{os.getpid()}/comm").read_text().strip().lower()
    assert own in running_processes("linux")


def test_auto_on_linux_without_orca_does_not_touch_speech_dispatcher() -> None:
    def no_prism() -> FakePrism:
        raise AssertionError("prism must not be loaded")
    chosen = choose_speech("auto", voice_ok, platform="linux", processes=set,
                           prism=no_prism)
    assert chosen.kind == "voice"


@pytest.fixture
def dead_speechd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{tmp_path / 'none.sock'}")


def test_linux_screen_reader_with_no_speech_dispatcher(dead_speechd: None) -> None:
    chosen = choose_speech("screen-reader", voice_ok, platform="linux", processes=set)
    assert chosen.kind == "voice"
    assert ids(chosen) == [("speech_choice.no_system_speech", {}),
                           ("speech_choice.using_voice", {})]


def test_linux_orca_running_but_not_on_the_bus_is_unreachable(dead_speechd: None) -> None:
    chosen = choose_speech("auto", voice_ok, platform="linux", processes=lambda: {"orca"})
    assert ids(chosen) == [("speech_choice.reader_unreachable", {"reader": "Orca"}),
                           ("speech_choice.reader_reads_lines", {"reader": "Orca"})]


@pytest.mark.audio
@pytest.mark.slow
def test_linux_speaks_through_speech_dispatcher(speechd_address: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPEECHD_ADDRESS", speechd_address)
    asked = choose_speech("screen-reader", voice_ok, platform="linux", processes=set)
    assert isinstance(asked.speaker, ScreenReaderSpeaker) and asked.notices == []
    # Speech Dispatcher alone reads no console: the lines are printed and spoken.
    assert asked.print_lines and not asked.speaker.reads_console
    assert asked.speaker.reader == "Speech Dispatcher"
    asked.speaker.close()
    # Orca running but without its D-Bus service (no session bus here): its speech
    # goes through Speech Dispatcher, which Orca itself speaks through.
    orca = choose_speech("auto", voice_ok, platform="linux", processes=lambda: {"orca"})
    assert isinstance(orca.speaker, ScreenReaderSpeaker)
    assert ids(orca) == [("speech_choice.using_reader", {"reader": "Orca"})]
    orca.speaker.close()


@pytest.mark.audio
@pytest.mark.slow
def test_linux_reaches_speech_dispatcher_without_prism(speechd_address: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # The game speaks to Speech Dispatcher itself: a missing prismatoid costs only
    # Orca's D-Bus backend, said in one sentence.
    def missing() -> FakePrism:
        raise ImportError("No module named 'prism'")
    monkeypatch.setenv("SPEECHD_ADDRESS", speechd_address)
    orca = choose_speech("auto", voice_ok, platform="linux", processes=lambda: {"orca"},
                         prism=missing)
    assert isinstance(orca.speaker, ScreenReaderSpeaker)
    assert ids(orca) == [("speech_choice.no_library", {}),
                         ("speech_choice.using_reader", {"reader": "Orca"})]
    orca.speaker.close()


# --- a reader that reads the console: by default it reads the printed lines ----------

@pytest.mark.parametrize(("platform", "process", "reader"), [
    ("win32", "nvda.exe", "NVDA"), ("win32", "jfw.exe", "JAWS"),
    ("win32", "narrator.exe", "Narrator"), ("darwin", "voiceover", "VoiceOver"),
    ("linux", "orca", "Orca")])
@pytest.mark.parametrize("mode", ["auto", "screen-reader", None])
def test_a_reader_that_reads_the_console_is_left_to_read_it(
        platform: str, process: str, reader: str, mode: str | None) -> None:
    prism = FakePrism({"NVDA": FakeReader(), "JAWS": FakeReader("JAWS")})
    chosen = choose_with(mode, voice_fails, platform=platform, reader_lines="console",
                         processes=lambda: {process}, prism=lambda: prism)
    # No speech of the game's (no voice either: that would be a second voice), lines
    # printed, and the player told why and how to have the game speak instead.
    assert (chosen.speaker, chosen.kind, chosen.print_lines) == (None, "console", True)
    assert ids(chosen) == [("speech_choice.reader_reads_console", {"reader": reader})]
    assert prism.created == []


def test_voice_and_text_are_asked_for_whatever_reader_runs() -> None:
    chosen = choose_with("voice", voice_ok, platform="win32", processes=lambda: {"nvda.exe"})
    assert chosen.kind == "voice" and chosen.print_lines
    chosen.speaker.close()  # type: ignore[union-attr]
    assert choose_with("text", voice_ok, platform="win32",
                       processes=lambda: {"nvda.exe"}).kind == "text"


def test_speaking_through_a_reader_that_reads_the_console_prints_nothing() -> None:
    nvda = FakeReader()
    chosen = windows("auto", FakePrism({"NVDA": nvda}), {"nvda.exe"})
    assert isinstance(chosen.speaker, ScreenReaderSpeaker) and chosen.speaker.reads_console
    assert not chosen.print_lines
    chosen.speaker.close()


def test_an_unknown_reader_lines_value_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        choose_with("auto", voice_ok, reader_lines="both")


@pytest.mark.parametrize(("platform", "process", "reader"), [
    ("win32", "nvda.exe", "NVDA"), ("win32", "jfw.exe", "JAWS")])
def test_by_default_a_reader_that_takes_speech_is_spoken_through(
        platform: str, process: str, reader: str) -> None:
    # The game's queue then decides (a key cuts only the line said, an event is never
    # dropped unheard), and nothing is printed for the reader to read a second time.
    prism = FakePrism({"NVDA": FakeReader(), "JAWS": FakeReader("JAWS")})
    chosen = choose_with("auto", voice_fails, platform=platform,
                         processes=lambda: {process}, prism=lambda: prism)
    assert isinstance(chosen.speaker, ScreenReaderSpeaker) and chosen.kind == "screen-reader"
    assert not chosen.print_lines and chosen.speaker.reader == reader
    chosen.speaker.close()


@pytest.mark.parametrize(("platform", "process", "reader"), [
    ("win32", "narrator.exe", "Narrator"), ("darwin", "voiceover", "VoiceOver")])
def test_by_default_a_reader_that_takes_no_speech_reads_the_lines(
        platform: str, process: str, reader: str) -> None:
    prism = FakePrism()
    chosen = choose_with("auto", voice_fails, platform=platform,
                         processes=lambda: {process}, prism=lambda: prism)
    assert (chosen.speaker, chosen.kind, chosen.print_lines) == (None, "console", True)
    assert ids(chosen) == [("speech_choice.reader_reads_lines", {"reader": reader})]
    assert prism.created == []
