"""The Windows console reader, with a fake ``msvcrt`` (the one seam: Windows' console
cannot run here). The fake gives what ``getwch`` gives for each key on a Windows
console: one character, or a prefix ("\\x00" or "\\xe0") and a code."""

from __future__ import annotations

import sys
import types
from collections import deque

import pytest

from voice_spades.keys import TerminalKeys, key_mode, parse_key
from voice_spades.keys.terminal import reader_for, uses_console
from voice_spades.keys.terminal_windows import EXTENDED, GREY_KEYS, WindowsKeys


class FakeConsole:
    """``kbhit`` and ``getwch`` over the characters of keys pressed."""

    def __init__(self, *presses: str) -> None:
        self.chars: deque[str] = deque("".join(presses))
        self.calls = 0

    def press(self, *presses: str) -> None:
        self.chars.extend("".join(presses))

    def kbhit(self) -> bool:
        self.calls += 1
        return bool(self.chars)

    def getwch(self) -> str:
        if not self.chars:
            raise AssertionError("getwch would block: the reader asked for a key not there")
        return self.chars.popleft()


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert 0 < seconds <= 0.011
        self.now += seconds


def read(*presses: str) -> list[str] | None:
    return WindowsKeys(FakeConsole(*presses)).read(0.5)


@pytest.mark.parametrize(("presses", "keys"), [
    (["h", "H", "?", "7", " ", "q"], ["h", "shift+h", "?", "7", "space", "q"]),
    (["\r", "\n", "\x1b", "\x08", "\t"], ["enter", "enter", "escape", "backspace", "tab"]),
    (["\x0e", "\x0c", "\x01"], ["ctrl+n", "ctrl+l", "ctrl+a"]),
    (["\xe0H", "\xe0P", "\xe0K", "\xe0M"], ["up", "down", "left", "right"]),
    (["\x00H", "\x00P", "\x00K", "\x00M"], ["up", "down", "left", "right"]),  # keypad
    (["\xe0G", "\xe0O", "\xe0I", "\xe0Q", "\xe0R", "\xe0S"],
     ["home", "end", "page_up", "page_down", "insert", "delete"]),
    (["\x00;", "\x00<", "\x00D", "\xe0\x85", "\xe0\x86"], ["f1", "f2", "f10", "f11", "f12"]),
    (["\x00T", "\x00X", "\x00]", "\xe0\x87", "\xe0\x88"],
     ["shift+f1", "shift+f5", "shift+f10", "shift+f11", "shift+f12"]),
    (["\x00^", "\x00h", "\xe0s", "\xe0\x8d"], ["f1", "f1", "left", "up"]),  # Ctrl, Alt
    (["\x00\x03", "\x00\x10"], ["unknown", "unknown"]),  # Ctrl+2, Alt+Q: no key of ours
    (["b", "\xe0M", "\r", "\x00;", "z"], ["b", "right", "enter", "f1", "z"]),
    (["é", "\U0001f600"], ["é", "\U0001f600"]),
])
def test_console_keys_have_the_terminal_s_names(presses: list[str], keys: list[str]) -> None:
    assert read(*presses) == keys


def test_a_grave_a_alone_is_the_letter_not_a_prefix() -> None:
    """"\\xe0" is also "à" (an Italian or French keyboard): alone, or before a code of no
    key, it is the letter."""
    assert read("\xe0") == ["à"]
    assert read("\xe0", "b") == ["à", "b"]
    assert read("\xe0", "\r") == ["à", "enter"]
    assert read("\xe0", "\x00;") == ["à", "f1"]


def test_a_vt_sequence_from_a_vt_mode_console_is_read_as_on_posix() -> None:
    assert read("\x1b[A", "\x1b[1;2P") == ["up", "shift+f1"]


def test_every_key_name_the_reader_gives_is_one_a_keymap_can_name() -> None:
    for code in sorted(EXTENDED):
        for prefix in "\x00\xe0" if code in GREY_KEYS else "\x00":
            [name] = read(prefix + chr(code)) or []
            assert parse_key(name) == name


def test_no_key_waits_for_the_timeout_then_gives_none_pressed() -> None:
    clock = FakeClock()
    console = FakeConsole()
    keys = WindowsKeys(console, clock=clock, sleep=clock.sleep)
    assert keys.read(0.2) == []
    assert clock.now == pytest.approx(100.2)
    assert console.calls >= 20  # looked every 10 ms


def test_a_key_pressed_while_waiting_is_read_at_once() -> None:
    clock = FakeClock()
    console = FakeConsole()

    def sleep(seconds: float) -> None:
        clock.sleep(seconds)
        if clock.now >= 100.05:
            console.press("\xe0P")

    keys = WindowsKeys(console, clock=clock, sleep=sleep)
    assert keys.read(1.0) == ["down"]
    assert clock.now < 100.07
    assert keys.read(0.0) == []  # nothing left, never a blocking getwch


def test_windows_is_chosen_by_the_platform_and_uses_msvcrt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    console = FakeConsole("\x00;")
    fake = types.ModuleType("msvcrt")
    fake.kbhit = console.kbhit  # type: ignore[attr-defined]
    fake.getwch = console.getwch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    assert uses_console("win32") and not uses_console("linux") and not uses_console("darwin")
    reader = reader_for(0, "win32")
    assert isinstance(reader, WindowsKeys)
    assert TerminalKeys(0, reader).read(0.1) == ["f1"]
    with key_mode(-1, "win32"):  # nothing to set up on a console (an fd that is none)
        pass


def test_without_msvcrt_the_windows_reader_cannot_start() -> None:
    if sys.platform != "win32":
        with pytest.raises(ImportError):
            WindowsKeys()
