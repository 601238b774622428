"""``voice-spades bench pace``: how long the game talks between two decisions, at the
default rate (200 words a minute) and verbosity (normal), in English, Italian and French.

Two scenes, each the lines a real session says (fast legal bots, the player at South):

* ``turnover``: from the hand's last card, played by the player, to the end of the
  next hand's "Your bid" prompt: the trick, the hand's results, the new hand, the
  cards, the prompt;
* ``start``: from a new game's first word (the welcome) to the end of the first bid
  prompt.

The other players' bids are left out of both: they are the bidding itself, said the
same whoever deals, not the turnover's talk.

Two ways to time them: ``synth`` writes each line with the game's synthesizer
(pyttsx3 + espeak-ng, the language's voice) and adds up the WAVs' lengths: the
seconds of speech alone, fast (about a second a scene); ``device`` (``--device``)
plays the lines through the game's own speaker and sound output into the bench's
private PulseAudio null sink (:mod:`.pulse_sink`, a virtual card with a clock) and
times the recording from its first sound to the end of its last: what a player
hears, pauses between lines included.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import sys
import tempfile
import time
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from voice_spades.bots import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.commands import Act
from voice_spades.engine import Match, Phase, RuleOptions, profile
from voice_spades.narration import Line, Verbosity
from voice_spades.session import GameSettings, Pacer, Ports, Session

LANGUAGES = ("en", "it", "fr")
SCENES = ("turnover", "start")
RATE = 200
"""The game's default speech rate, words a minute (``speech.output.DEFAULT_RATE``)."""
PITCH = 50
TURNOVER_SEED = 5
"""A pagat match whose first hand's last trick the player (South) ends; checked by
:func:`match_at_last_card`."""
START_SEED = 1
"""A pagat match whose first hand the player deals (the others bid first)."""
HUMAN = 0


class Collected:
    """A session output that keeps the lines (the session's ``Output`` port)."""

    def __init__(self) -> None:
        self.lines: list[Line] = []

    def emit(self, lines: Sequence[Line]) -> None:
        self.lines.extend(lines)

    def interrupt(self) -> None:
        pass

    def silence(self) -> None:
        pass

    def cancel(self, tag: str) -> None:
        pass

    def is_busy(self) -> bool:
        return False

    def wait_idle(self, timeout: float) -> bool:
        return True

    def repeat_last(self) -> None:
        pass

    def recent(self, count: int) -> list[str]:
        return [line.text for line in self.lines[-count:]]

    def change_rate(self, step: int) -> bool:
        return False

    def close(self) -> None:
        pass


def _bots(rules: RuleOptions, settings: GameSettings) -> dict[int, LegalMovePlayer]:
    return {seat: LegalMovePlayer(seed=settings.seed + seat) for seat in range(1, rules.players)}


def match_at_last_card(seed: int = TURNOVER_SEED, rules: str = "pagat") -> Match:
    """A match played by legal bots (the player's seat too) up to the player's last
    card of the first hand, which ends the hand's last trick."""
    match = Match(profile(rules), seed)
    players = {seat: LegalMovePlayer(seed=seed + seat) for seat in range(match.rules.players)}
    while True:
        view = match.view(HUMAN)
        if match.to_act == HUMAN and view.phase is Phase.PLAY and len(view.hand_cards) == 1:
            if len(view.trick) != match.rules.players - 1:
                raise ValueError(f"seed {seed}: the player does not end the last trick")
            return match
        seat = match.to_act
        assert seat is not None
        match.apply(decide(players[seat], match.view(seat)))


def _session(match: Match, seed: int, verbosity: Verbosity) -> tuple[Session, Collected]:
    out = Collected()
    session = Session(match, Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=GameSettings(rules=match.rules.name, seed=seed),
                      bot_factory=_bots)
    session.verbosity = verbosity
    return session, out


def _to_bid_prompt(session: Session, out: Collected) -> list[Line]:
    """The lines said until the player's bid prompt, the other players' bids left out."""
    session.play_bots()
    if not any(line.message_id.startswith("prompt.bid") for line in out.lines):
        raise RuntimeError("no bid prompt was said")
    return [line for line in out.lines if line.message_id != "bid.made"]


def scene_lines(scene: str, verbosity: Verbosity = Verbosity.NORMAL) -> list[Line]:
    """The lines of ``scene`` (``turnover`` or ``start``) in the active language."""
    if scene == "turnover":
        session, out = _session(match_at_last_card(), TURNOVER_SEED, verbosity)
        session.start(resumed=True)
        out.lines.clear()
        (card,) = session.view.hand_cards
        session.handle(Act(card))
        return _to_bid_prompt(session, out)
    if scene == "start":
        session, out = _session(Match(profile("pagat"), START_SEED), START_SEED, verbosity)
        session.start()
        return _to_bid_prompt(session, out)
    raise ValueError(f"no scene {scene!r}")


@dataclass(frozen=True, slots=True)
class Timed:
    """One scene in one language: its lines and how long each takes to say."""

    language: str
    scene: str
    texts: tuple[str, ...]
    seconds: tuple[float, ...]
    heard: float | None = None
    """From the first sound to the end of the last on the device (``--device``)."""

    @property
    def total(self) -> float:
        """The seconds of speech, all lines."""
        return sum(self.seconds)


def synth_seconds(texts: Sequence[str], folder: Path) -> list[float]:
    """Each text's length in seconds, written by the game's synthesizer at :data:`RATE`."""
    from voice_spades.speech.synth import SynthClient

    client = SynthClient()
    client.start()
    found = []
    try:
        for i, text in enumerate(texts):
            path = folder / f"{i}.wav"
            client.synth(text, path, RATE, None, PITCH)
            with wave.open(str(path)) as wav:
                found.append(wav.getnframes() / wav.getframerate())
    finally:
        client.close()
    return found


def measure(languages: Sequence[str] = LANGUAGES, scenes: Sequence[str] = SCENES,
            verbosity: Verbosity = Verbosity.NORMAL) -> list[Timed]:
    """Every scene in every language, timed by the synthesizer."""
    from voice_spades.narration.language import use_language

    rows = []
    folder = Path(tempfile.mkdtemp(prefix="voice-spades-bench-pace-"))
    try:
        for language in languages:
            use_language(language)
            for scene in scenes:
                texts = tuple(line.text for line in scene_lines(scene, verbosity))
                rows.append(Timed(language, scene, texts,
                                  tuple(synth_seconds(texts, folder))))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def heard_on_device(rows: list[Timed]) -> list[Timed]:
    """``rows`` with :attr:`Timed.heard` measured: each scene played whole by the game's
    speaker into a private PulseAudio null sink."""
    from voice_spades.bench.pulse_sink import PrivatePulse, pulse_missing
    from voice_spades.bench.sound_sink import alsa_pulse_missing, sound_seconds, write_asoundrc
    from voice_spades.narration.language import use_language
    from voice_spades.speech import Announcer
    from voice_spades.speech.audio_out import close_shared_audio
    from voice_spades.speech.output import AnnouncerOutput
    from voice_spades.speech.pyttsx3_speaker import make_speaker

    missing = pulse_missing() or alsa_pulse_missing()
    if missing is not None:
        raise SystemExit(f"voice-spades bench pace: {missing}")
    folder = Path(tempfile.mkdtemp(prefix="voice-spades-bench-pace-"))
    saved = dict(os.environ)
    done = []
    try:
        with PrivatePulse(folder / "pulse") as pulse:
            os.environ.update(write_asoundrc(folder / "home", pulse.server))
            for row in rows:
                use_language(row.language)
                speaker = make_speaker(RATE)
                output = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()), RATE)
                try:
                    start = time.monotonic()
                    output.emit([Line("history.item", text) for text in row.texts])
                    if not output.wait_idle(120):
                        raise RuntimeError("the speech never ended")
                    time.sleep(0.3)  # the recording catches up
                    heard = sound_seconds(pulse.sounds(), start, time.monotonic())
                finally:
                    output.close()
                    close_shared_audio()
                done.append(Timed(row.language, row.scene, row.texts, row.seconds,
                                  round(heard, 2)))
    finally:
        os.environ.clear()
        os.environ.update(saved)
        shutil.rmtree(folder, ignore_errors=True)
    return done


def table(rows: list[Timed], show_lines: bool) -> str:
    """The rows as text: seconds of speech per scene and language (and on the device)."""
    out = [f"{'language':9}{'scene':10}{'lines':>6}{'speech s':>10}{'heard s':>9}"]
    for row in rows:
        heard = "n/a" if row.heard is None else f"{row.heard:.1f}"
        out.append(f"{row.language:9}{row.scene:10}{len(row.texts):>6}"
                   f"{row.total:>10.1f}{heard:>9}")
        if show_lines:
            out += [f"    {s:5.1f}  {t}" for s, t in zip(row.seconds, row.texts, strict=True)]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Time the scenes; print a table (or JSON with ``--json``)."""
    p = argparse.ArgumentParser(
        prog="voice-spades bench pace",
        description="Seconds of speech from a hand's last card to the next bid prompt, "
                    "and from a new game's start to the first bid prompt.")
    p.add_argument("--language", choices=LANGUAGES, action="append")
    p.add_argument("--scene", choices=SCENES, action="append")
    p.add_argument("--verbosity", choices=[v.value for v in Verbosity],
                   default=Verbosity.NORMAL.value)
    p.add_argument("--device", action="store_true",
                   help="also play each scene on a virtual sound card and time what it heard")
    p.add_argument("--lines", action="store_true", help="show each line and its seconds")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = measure(args.language or LANGUAGES, args.scene or SCENES, Verbosity(args.verbosity))
    if args.device:
        rows = heard_on_device(rows)
    if args.json:
        print(json.dumps([{"language": r.language, "scene": r.scene, "texts": r.texts,
                           "seconds": [round(s, 2) for s in r.seconds],
                           "speech": round(r.total, 2), "heard": r.heard} for r in rows]))
    else:
        print(f"voice-spades bench pace: {RATE} words a minute, {args.verbosity} verbosity")
        print(table(rows, args.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
