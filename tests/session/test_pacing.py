"""Bot pacing against a narrator that is busy or quiet, on a fake clock."""

from __future__ import annotations

from voice_spades.session import Pacer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bot_waits_for_speech_to_end_and_then_a_short_quiet() -> None:
    clock = Clock()
    busy = [True]
    pacer = Pacer(lambda: busy[0], min_gap=0.3, clock=clock)
    pacer.said_something()
    clock.now += 2.0
    assert pacer.wait_time() > 0  # still speaking
    busy[0] = False
    assert abs(pacer.wait_time() - 0.3) < 1e-9  # quiet starts now
    clock.now += 0.31
    assert pacer.wait_time() == 0.0


def test_the_wait_lasts_as_long_as_the_narrator_speaks() -> None:
    # It was bounded (20 s): a 40-second help let a bot bid unheard (issue 10).
    clock = Clock()
    busy = [True]
    pacer = Pacer(lambda: busy[0], min_gap=0.3, clock=clock)
    pacer.said_something()
    for _ in range(120):  # ten minutes of speech, looked at every five seconds
        clock.now += 5.0
        assert pacer.wait_time() > 0
    busy[0] = False
    assert pacer.wait_time() > 0  # then the short quiet
    clock.now += 0.31
    assert pacer.wait_time() == 0.0


def test_text_only_output_just_keeps_the_gap() -> None:
    clock = Clock()
    pacer = Pacer(lambda: False, min_gap=0.4, clock=clock)
    pacer.said_something()
    clock.now += 0.1
    assert abs(pacer.wait_time() - 0.3) < 1e-9
