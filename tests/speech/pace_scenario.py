"""Issue 48's pace, by ear: the scenes of ``voice-spades bench pace`` (a hand's turnover,
a new game's start) said by the game's voice through the virtual sound device.

Run as a script (``python pace_scenario.py OUT_DIR``) in a HOME whose ``.asoundrc``
sends the default ALSA device to ``OUT_DIR/out.raw`` (:mod:`tests.speech.virtual_device`):
the real pyttsx3 speaker and the game's one output stream play each scene in English,
Italian and French as the game would (the game's output, lines queued as one batch),
and the recording is read back: a scene lasts from its first sample holding sound to
its last. Prints one JSON list on stdout: language, scene, seconds heard, seconds of
speech the synthesizer made for it.
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SOUND = 0.005
"""A sample holding sound reaches this (about -46 dBFS): espeak-ng writes exact
digital silence around its speech, and the stream plays zeros between clips."""


def run_real(out: Path) -> list[dict[str, Any]]:
    import numpy as np

    from tests.speech.virtual_device import recording, recording_offset
    from voice_spades.bench import pace
    from voice_spades.narration import Line
    from voice_spades.narration.language import use_language
    from voice_spades.speech import Announcer
    from voice_spades.speech.audio_out import AudioOut
    from voice_spades.speech.output import AnnouncerOutput
    from voice_spades.speech.pyttsx3_speaker import Pyttsx3Speaker

    rows = pace.measure()
    audio = AudioOut()
    speaker = Pyttsx3Speaker(pace.RATE, audio=audio)
    speaker.probe()
    output = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()), pace.RATE)
    spans = []
    try:
        for row in rows:
            use_language(row.language)
            time.sleep(0.3)
            start = audio.frames_written
            output.emit([Line("history.item", text) for text in row.texts])
            assert output.wait_idle(120), "the speech never ended"
            time.sleep(0.3)  # the stream has played the last clip out
            spans.append((start, audio.frames_written))
    finally:
        output.close()
        audio.close()
    rec = recording(out)
    offset = recording_offset(rec, audio.frames_written)
    found = []
    for row, (start, end) in zip(rows, spans, strict=True):
        loud = np.nonzero(np.abs(rec[offset + start:offset + end]).max(axis=1) >= SOUND)[0]
        heard = (loud[-1] - loud[0] + 1) / audio.samplerate if len(loud) else 0.0
        found.append({"language": row.language, "scene": row.scene,
                      "heard": round(float(heard), 2), "speech": round(row.total, 2)})
    return found


if __name__ == "__main__":
    print(json.dumps(run_real(Path(sys.argv[1]))))
