"""Text lines for screen readers, and the Announcer's history and fallback to text."""

from __future__ import annotations

import io

import pytest

from voice_spades.errors import SetupError
from voice_spades.speech import Announcer, Priority, Speaker, TextSpeaker, Utterance
from voice_spades.speech.base import SpeakingCallback
from voice_spades.speech.text_speaker import plain_line


class Recording:
    """A Speaker that keeps what it is asked to say, and can be told to break."""

    def __init__(self, fail_with: Exception | None = None) -> None:
        self.said: list[Utterance] = []
        self.stops = 0
        self.closed = False
        self.fail_with = fail_with

    def say(self, u: Utterance) -> None:
        if self.fail_with is not None:
            raise self.fail_with
        self.said.append(u)

    def stop(self) -> None:
        self.stops += 1

    def cancel(self, tag: str) -> None:
        self.said = [u for u in self.said if u.tag != tag]

    def is_speaking(self) -> bool:
        return False

    def wait_idle(self, timeout: float) -> bool:
        return True

    def set_rate(self, words_per_minute: int) -> None:
        pass

    def set_voice(self, voice_id: str | None) -> None:
        pass

    def set_seat_voice(self, seat: int, voice_id: str | None, pitch: int | None) -> None:
        pass

    def list_voices(self) -> list[tuple[str, str]]:
        return []

    def on_speaking_changed(self, callback: SpeakingCallback) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def test_speakers_satisfy_the_protocol() -> None:
    assert isinstance(TextSpeaker(io.StringIO()), Speaker)
    assert isinstance(Recording(), Speaker)


def test_text_speaker_writes_one_plain_line_per_utterance() -> None:
    out = io.StringIO()
    speaker = TextSpeaker(out)
    speaker.say(Utterance("North bids four."))
    speaker.say(Utterance("\x1b[1;31mQueen of hearts\x1b[0m\nwins the\ttrick. "))
    speaker.say(Utterance("   "))
    assert out.getvalue() == "North bids four.\nQueen of hearts wins the trick.\n"


def test_text_speaker_defaults_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    TextSpeaker().say(Utterance("Spades are broken.", Priority.LOW))
    assert capsys.readouterr().out == "Spades are broken.\n"


def test_plain_line_strips_escapes_and_control_characters() -> None:
    assert plain_line("\x1b]0;title\x07Your turn.\r\n\x00") == "Your turn."


def test_plain_line_keeps_no_break_spaces_and_breaks_every_other_line() -> None:
    assert plain_line(" Ouest\u202f: nil\u202f?\u2028Oui\u00a0!\u2029\n") == \
        "Ouest\u202f: nil\u202f? Oui\u00a0!"
    assert plain_line("Ten ♠ and ten ♥") == "Ten ♠ and ten ♥"


def test_announcer_writes_text_and_speaks() -> None:
    out, speaker = io.StringIO(), Recording()
    announcer = Announcer(speaker, stream=out)
    announcer.say("North bids four.")
    announcer.say(Utterance("Your turn.", Priority.HIGH, seat=0))
    announcer.say("West plays the two of clubs.", tag="trick-1", seat=1)
    assert out.getvalue().splitlines() == [
        "North bids four.", "Your turn.", "West plays the two of clubs."]
    assert [(u.text, u.priority, u.tag, u.seat) for u in speaker.said] == [
        ("North bids four.", Priority.NORMAL, None, None),
        ("Your turn.", Priority.HIGH, None, 0),
        ("West plays the two of clubs.", Priority.NORMAL, "trick-1", 1),
    ]


def test_history_last_and_repeat() -> None:
    out, speaker = io.StringIO(), Recording()
    announcer = Announcer(speaker, stream=out, history_size=3)
    assert announcer.last() is None
    announcer.repeat_last()
    assert speaker.said == []
    for text in ("one", "two", "three", "four"):
        announcer.say(text, Priority.LOW)
    assert announcer.history() == ["two", "three", "four"]
    assert announcer.history(2) == ["three", "four"]
    assert announcer.history(10) == ["two", "three", "four"]
    assert announcer.history(0) == []
    assert announcer.last() == "four"
    announcer.repeat_last()
    assert speaker.said[-1] == Utterance("four", Priority.HIGH)
    assert out.getvalue().splitlines()[-1] == "four"
    assert announcer.history() == ["two", "three", "four"]


def test_silence_and_cancel_reach_the_speaker() -> None:
    speaker = Recording()
    announcer = Announcer(speaker, stream=io.StringIO())
    announcer.say("a", tag="trick-2")
    announcer.say("b")
    announcer.cancel("trick-2")
    announcer.silence()
    assert [u.text for u in speaker.said] == ["b"]
    assert speaker.stops == 1


def test_a_failing_speaker_is_reported_once_and_text_goes_on() -> None:
    out = io.StringIO()
    broken = Recording(SetupError("speech.no_device"))
    announcer = Announcer(broken, stream=out)
    announcer.say("one")
    announcer.say("two")
    announcer.silence()
    assert out.getvalue().splitlines() == [
        "one",
        "Speech is off: no audio output device was found. The game continues in text.",
        "two",
    ]
    assert announcer.speaker is None
    assert broken.closed


def test_an_unexpected_speaker_error_gets_a_plain_sentence() -> None:
    out = io.StringIO()
    announcer = Announcer(Recording(OSError(5, "Input/output error")), stream=out)
    announcer.say("one")
    assert out.getvalue().splitlines()[1] == (
        "Speech is off: the speech output stopped working. The game continues in text.")


def test_announcer_without_speaker_is_text_only() -> None:
    out = io.StringIO()
    announcer = Announcer(stream=out)
    announcer.say("Hello.")
    announcer.repeat_last()
    announcer.silence()
    assert out.getvalue() == "Hello.\nHello.\n"
