"""Fakes for session-flow tests: an output that records lines, a speaker that records
what it was asked to do, and bots that decide at once."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

from voice_spades.bots import Bot
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.engine import Match, RuleOptions, profile
from voice_spades.narration import Line
from voice_spades.session import GameSettings, Pacer, Ports, Session
from voice_spades.speech.message import Utterance


class RecordingOutput:
    """An :class:`~voice_spades.session.Output` that keeps every line; ``busy`` is set
    by the test to play a narrator that has not finished."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.busy = False
        self.silenced = 0
        self.interrupted = 0
        self.cancelled: list[str] = []
        self.changed = threading.Event()

    def emit(self, lines: Sequence[Line]) -> None:
        self.lines.extend(lines)
        self.changed.set()

    def interrupt(self) -> None:
        self.interrupted += 1

    def silence(self) -> None:
        self.silenced += 1

    def cancel(self, tag: str) -> None:
        self.cancelled.append(tag)

    def is_busy(self) -> bool:
        return self.busy

    def wait_idle(self, timeout: float) -> bool:
        return not self.busy

    def repeat_last(self) -> None:
        if self.lines:
            self.lines.append(self.lines[-1])

    def recent(self, count: int) -> list[str]:
        return [line.text for line in self.lines[-count:]]

    def change_rate(self, step: int) -> bool:
        return False

    def close(self) -> None:
        pass

    # ----- helpers for assertions ---------------------------------------------
    @property
    def ids(self) -> list[str]:
        return [line.message_id for line in self.lines]

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self.lines]

    def last(self, message_id: str | None = None) -> Line:
        matching = [line for line in self.lines
                    if message_id is None or line.message_id == message_id]
        assert matching, f"no {message_id} line in {self.ids[-10:]}"
        return matching[-1]

    def clear(self) -> None:
        self.lines.clear()


class RecordingSpeaker:
    """A speaker that records calls; ``speaking`` is set by the test."""

    def __init__(self) -> None:
        self.said: list[Utterance] = []
        self.calls: list[str] = []
        self.speaking = False

    def say(self, u: Utterance) -> None:
        self.said.append(u)

    def stop(self) -> None:
        self.calls.append("stop")

    def cancel(self, tag: str) -> None:
        self.calls.append(f"cancel:{tag}")

    def is_speaking(self) -> bool:
        return self.speaking

    def wait_idle(self, timeout: float) -> bool:
        return not self.speaking

    def set_rate(self, words_per_minute: int) -> None:
        self.calls.append(f"rate:{words_per_minute}")

    def set_voice(self, voice_id: str | None) -> None:
        self.calls.append(f"voice:{voice_id}")

    def set_seat_voice(self, seat: int, voice_id: str | None, pitch: int | None) -> None:
        self.calls.append(f"seat:{seat}:{pitch}")

    def list_voices(self) -> list[tuple[str, str]]:
        return []

    def on_speaking_changed(self, callback: object) -> None:
        pass

    def close(self) -> None:
        self.calls.append("close")


def fast_bots(rules: RuleOptions, settings: GameSettings) -> Mapping[int, Bot]:
    """Random-legal bots: they decide in microseconds."""
    return {seat: LegalMovePlayer(seed=settings.seed + seat)
            for seat in range(1, rules.players)}


def make_session(name: str = "pagat", *, seed: int = 3, players: int | None = None,
                 target: int | None = None, output: RecordingOutput | None = None,
                 **variants: bool) -> tuple[Session, RecordingOutput]:
    """A session on a fresh match with fast bots and a recording output."""
    rules = profile(name, players=players, target=target, **variants)
    out = output or RecordingOutput()
    settings = GameSettings(rules=name, players=players, target=target, seed=seed, **variants)
    session = Session(Match(rules, seed), Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=settings, bot_factory=fast_bots)
    return session, out
