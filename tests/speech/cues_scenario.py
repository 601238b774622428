"""Sound cues through the virtual stereo device, with text and with the real voice.

Run by test_cues_playback.py as ``python cues_scenario.py`` with HOME set by
:func:`tests.speech.virtual_device.stereo_home`; prints one JSON object: where each
clip went out (stream frames) and the timings, for the test to check against the
recording.
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.speech.playback_scenario import LoggedAudio
from voice_spades.narration import Line, LineKind
from voice_spades.narration.lines import Priority
from voice_spades.speech import Announcer, make_speaker
from voice_spades.speech.audio_clip import prepare
from voice_spades.speech.audio_out import Playback
from voice_spades.speech.cue_sounds import RATE, Cue
from voice_spades.speech.cues import CuePlayer, CueRules, PlacedCue, attach_cues
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.placement import seat_pan, seat_pans, seat_place
from voice_spades.speech.pyttsx3_speaker import Pyttsx3Speaker

VOLUME = 100
CUE_LINES = {
    "your_turn": Line("prompt.lead", "Your lead.", Priority.HIGH, kind=LineKind.PROMPT),
    "card": Line("card.played", "West played the ace of hearts.", seat=1,
                 kind=LineKind.EVENT),
    "trick": Line("trick.won", "East won the trick.", seat=3, kind=LineKind.EVENT),
    "spades_broken": Line("spades.broken", "Spades broken.", seat=1, kind=LineKind.EVENT),
    "nil_broken": Line("nil.broken", "That breaks East's nil.", seat=3, kind=LineKind.EVENT),
    "contract_made": Line("score.totals", "Scores.", kind=LineKind.EVENT, result="made"),
    "contract_set": Line("score.totals", "Scores.", kind=LineKind.EVENT, result="set"),
    "match_won": Line("match.won", "You won the match!", kind=LineKind.EVENT),
    "match_lost": Line("match.lost", "West and East won the match.", kind=LineKind.EVENT),
}
SPEECH = ("North leads the king of clubs. East follows with the four of clubs, "
          "and the score is one hundred and twenty to ninety.")


def clips(audio: LoggedAudio, since: int, tag: str) -> list[Playback]:
    return [h for h in audio.plays[since:] if h.tag == tag]


def span(h: Playback) -> list[int]:
    assert h.start_frame is not None
    return [h.start_frame, h.start_frame + h.frames]


def wait_started(h: Playback, timeout: float = 5.0) -> float:
    deadline = time.monotonic() + timeout
    while h.start_time is None:
        if time.monotonic() > deadline:
            raise TimeoutError("the clip never started")
        time.sleep(0.001)
    return h.start_time


def expected_energy(cues: CuePlayer, name: str, pan: float) -> list[float]:
    """Mean square per channel of one cue as it should come out."""
    sound = cues.sound(PlacedCue(next(c for c in Cue if c.value == name)))
    stereo = prepare(sound, RATE, RATE, pan=pan).astype(np.float64)
    return [float(np.mean(stereo[:, 0] ** 2)), float(np.mean(stereo[:, 1] ** 2))]


def run() -> dict[str, Any]:
    report: dict[str, Any] = {}
    audio = LoggedAudio()
    rules = CueRules(4)
    cues = CuePlayer(audio, VOLUME, rules=rules)

    # With text only: each cue, and a card from every seat at every table size.
    text = attach_cues(AnnouncerOutput(Announcer(stream=io.StringIO())), cues)
    each = {}
    for name, line in CUE_LINES.items():
        since = len(audio.plays)
        text.emit([Line("card.played", "x", seat=0, kind=LineKind.EVENT)])  # an event first
        audio.plays[-1].wait(2)
        since = len(audio.plays)
        text.emit([line])
        (h,) = clips(audio, since, "cue")
        assert h.wait(2) and h.whole
        pan = seat_pan(line.seat, 4) if name in ("card", "trick", "spades_broken",
                                                  "nil_broken") else 0.0
        each[name] = {"span": span(h), "pan": pan, "energy": expected_energy(cues, name, pan)}
    report["each"] = each
    places = []
    for players in (4, 3, 5, 6):
        rules.set_table(players)
        for seat in range(players):
            since = len(audio.plays)
            text.emit([Line("card.played", "x", seat=seat, kind=LineKind.EVENT)])
            (h,) = clips(audio, since, "cue")
            assert h.wait(2)
            places.append({"players": players, "seat": seat, "span": span(h),
                           "pan": seat_pan(seat, players),
                           "across": seat_place(seat, players).across})
    report["places"] = places
    rules.set_table(4)

    # With the real voice: a cue mixed into a sentence being spoken.
    speaker = make_speaker(rate=200, audio=audio)
    voice = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    cued = attach_cues(voice, cues)
    since = len(audio.plays)
    cued.emit([Line("bid.made", SPEECH, kind=LineKind.EVENT)])
    speech = next(iter(clips(audio, since, "speech")), None)
    while speech is None:
        time.sleep(0.005)
        speech = next(iter(clips(audio, since, "speech")), None)
    wait_started(speech)
    time.sleep(0.5)
    mark = len(audio.plays)
    emitted = audio.time_base()
    cued.emit([Line("card.played", "West played the two of hearts.", seat=1,
                    kind=LineKind.EVENT)])
    (cue,) = clips(audio, mark, "cue")
    latency = (wait_started(cue) - emitted) * 1000
    report["overlap"] = {"speech": span(speech), "cue": span(cue), "cue_latency_ms": latency}
    assert voice.wait_idle(30)

    # A cue does not delay the line it comes with, nor the next one: emit to the first
    # block of speech, with the cue and without (the same lines, taking turns).
    delays: dict[str, list[float]] = {"with_cue": [], "without": [], "cue": []}
    next_line: dict[str, list[float]] = {"with_cue": [], "without": []}
    for i in range(16):
        output, key = (cued, "with_cue") if i % 2 == 0 else (voice, "without")
        since = len(audio.plays)
        emitted = audio.time_base()
        output.emit([Line("trick.won", "East won the trick.", seat=3, kind=LineKind.EVENT),
                     Line("card.led", "East led the five.", seat=3, kind=LineKind.EVENT)])
        while len(clips(audio, since, "speech")) < 1:
            time.sleep(0.002)
        first = clips(audio, since, "speech")[0]
        delays[key].append((wait_started(first) - emitted) * 1000)
        if key == "with_cue":
            delays["cue"].append((wait_started(clips(audio, since, "cue")[0]) - emitted) * 1000)
        assert voice.wait_idle(10)
        second = clips(audio, since, "speech")[1]
        next_line[key].append((wait_started(second) - (first.start_time or 0.0)
                               - first.duration) * 1000)
    report["delays_ms"] = {k: statistics.median(v) for k, v in delays.items()}
    report["next_line_gap_ms"] = {k: statistics.median(v) for k, v in next_line.items()}
    report["delay_samples_ms"] = delays

    # The narrator's voice placed by seat (--place-voice).
    assert isinstance(speaker, Pyttsx3Speaker)
    speaker.set_placement(seat_pans(4))
    placed = {}
    for seat in (1, 2, 3):
        since = len(audio.plays)
        voice.emit([Line("bid.made", "He bid three.", seat=seat, kind=LineKind.EVENT)])
        assert voice.wait_idle(10)
        (said,) = clips(audio, since, "speech")
        placed[seat] = span(said)
    report["voice_placed"] = placed
    voice.close()
    audio.close()
    report["frames_written"] = audio.frames_written
    return report


if __name__ == "__main__":
    print(json.dumps(run()))
