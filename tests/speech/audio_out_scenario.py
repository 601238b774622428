"""Drives :class:`AudioOut` through the virtual stereo device and reports what it did.

Run by test_audio_out.py as ``python audio_out_scenario.py`` with HOME set by
:func:`tests.speech.virtual_device.stereo_home`; prints one JSON object. The test reads
the device's recording and checks it against these numbers.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from voice_spades.speech.audio_out import AudioOut, Playback


def tone(freq: float, seconds: float, rate: int = 48_000,
         level: float = 0.5) -> npt.NDArray[np.float32]:
    t = np.arange(int(seconds * rate)) / rate
    return (level * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def span(p: Playback) -> list[int]:
    assert p.start_frame is not None
    return [p.start_frame, p.start_frame + p.frames]


def run() -> dict[str, Any]:
    report: dict[str, Any] = {}
    blocks: list[tuple[int, float, float]] = []
    lock = threading.Lock()
    audio = AudioOut()
    report["samplerate"], report["blocksize"] = audio.samplerate, audio.blocksize
    frame = [0]

    def listen(block: npt.NDArray[np.float32], rate: int, dac: float) -> None:
        with lock:  # (stream frame at the block's start, its peak, its DAC time)
            blocks.append((frame[0], float(np.abs(block).max()), dac))
            frame[0] += len(block)

    at_add = audio.frames_written
    audio.add_reference_listener(listen)
    time.sleep(0.05)

    # One clip at each place, one after the other.
    places = {}
    for name, pan in (("left", -1.0), ("right", 1.0), ("centre", 0.0), ("half_left", -0.5)):
        p = audio.play(tone(660, 0.2), 48_000, pan=pan)
        assert p.wait(2) and p.whole
        places[name] = span(p)
    report["places"] = places

    # Two clips at once, on either side: mixed, neither waits.
    a = audio.play(tone(440, 0.4), 48_000, pan=-1.0)
    b = audio.play(tone(880, 0.1), 48_000, pan=1.0)
    assert a.wait(2) and b.wait(2)
    report["overlap"] = {"long": span(a), "short": span(b)}

    # A clip at 22,050 Hz comes out at the stream's rate, its length kept.
    t0 = time.monotonic()
    c = audio.play((tone(500, 1.0, 22_050) * 32767).astype(np.int16), 22_050)
    assert c.wait(3) and c.whole
    report["resampled"] = {"span": span(c), "wall": time.monotonic() - t0}

    # Two loud clips in phase: the sum is clipped, never wraps.
    d = audio.play(tone(300, 0.2, level=0.9), 48_000)
    e = audio.play(tone(300, 0.2, level=0.9), 48_000)
    assert d.wait(2) and e.wait(2)
    report["loud"] = span(d)

    # stop(): a long clip, cut several times; nothing of it goes out after the next block.
    stops = []
    for _ in range(5):
        long = audio.play(tone(350, 5.0), 48_000, tag="speech")
        time.sleep(0.3)
        at_stop, t_stop = audio.frames_written, audio.time_base()
        audio.stop("speech")
        stopped_wait = long.wait(0)
        time.sleep(0.15)
        with lock:
            sounding = [(f, dac) for f, peak, dac in blocks if f >= at_stop and peak > 0]
        last_frame = max((f + audio.blocksize for f, _ in sounding), default=at_stop)
        last_dac = max((dac for _, dac in sounding), default=t_stop)
        stops.append({"at_stop": at_stop, "sounding_blocks_after": len(sounding),
                      "frames_after": last_frame - at_stop,
                      "ms_after": round(max(0.0, last_dac - t_stop) * 1000, 2),
                      "done_at_once": stopped_wait, "whole": long.whole})
    report["stops"] = stops

    # stop_all() and a tag that names nothing.
    f = audio.play(tone(350, 2.0), 48_000)
    g = audio.play(tone(450, 2.0), 48_000, tag="other")
    audio.stop("nothing")
    time.sleep(0.1)
    playing_before = audio.playing()
    audio.stop_all()
    report["stop_all"] = {"before": playing_before, "after": audio.playing(),
                          "f": f.whole, "g": g.whole}

    # The tap's clock: DAC times rise with the frames, on time_base()'s clock.
    with lock:
        dacs = [dac for _, _, dac in blocks]
    report["dac_rising"] = all(b >= a for a, b in itertools.pairwise(dacs))
    report["dac_vs_time_base"] = abs(dacs[-1] - audio.time_base())
    report["dac_span_vs_frames"] = [dacs[-1] - dacs[0], (len(dacs) - 1) * audio.blocksize
                                    / audio.samplerate]
    report["tap_frames_vs_written"] = [frame[0], audio.frames_written - at_add]
    report["paced"] = audio.paced
    audio.remove_reference_listener(listen)
    time.sleep(0.05)
    with lock:
        count = len(blocks)
    time.sleep(0.05)
    with lock:
        report["listener_removed"] = len(blocks) == count
    audio.close()
    report["frames_written"] = audio.frames_written
    try:
        audio.play(tone(300, 0.1), 48_000)
        report["play_after_close"] = "played"
    except Exception as error:
        report["play_after_close"] = getattr(error, "message_id", repr(error))
    return report


if __name__ == "__main__":
    print(json.dumps(run()))
