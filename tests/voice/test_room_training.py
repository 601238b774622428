"""The room bench's voice training (``bench voice --room --offline --enroll``): the
script heard through the room, and one training per speaker and room, each hearing
with its own means (real espeak-ng speech, real PocketSphinx)."""

from __future__ import annotations

import numpy as np
import pytest

from voice_spades.voice.testing.room import ECHO_DBFS, active_rms
from voice_spades.voice.testing.testspeech import SpeechParams, synthesize, tools_available

pytest.importorskip("pyroomacoustics")
needs_speech = pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")


@needs_speech
def test_the_script_is_heard_through_the_room() -> None:
    """Through the room a reading keeps its length, comes at the commands' loudness
    (that of the echo, within the reverberation's spread), and differs in each room."""
    from voice_spades.bench.voice_room_training import through_room

    pcm = synthesize("queen of hearts", SpeechParams(pad_seconds=0.3))
    heard = {room: through_room(pcm, room, "quiet", 1) for room in ("small", "large")}
    assert all(len(wet) == len(pcm) for wet in heard.values())
    small = np.frombuffer(heard["small"], dtype="<i2").astype(np.float32) / 32768
    level = 20 * np.log10(active_rms(small))
    assert ECHO_DBFS - 8 < level < ECHO_DBFS + 3
    assert heard["small"] != heard["large"]
    fan = np.frombuffer(through_room(pcm, "small", "fan", 1), dtype="<i2").astype(np.float32)
    assert np.abs(fan[:1000]).mean() > np.abs(small[:1000] * 32768).mean() + 10


@needs_speech
def test_each_speaker_and_room_has_its_own_training() -> None:
    from voice_spades.bench.voice_room_training import RoomTrainings, through_room
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import (
        PocketSphinxRecognizer,
    )

    trainings = RoomTrainings(("en-us", "en-gb-x-rp"), length=8)
    try:
        trainings.use("small", "quiet", None)
        first = trainings.current
        assert isinstance(first, PocketSphinxRecognizer) and first.adaptation is not None
        trainings.use("small", "quiet", "en-us")  # the first speaker's: trained already
        assert trainings.current is first and len(trainings.readings) == 1
        trainings.use("medium", "fan", "en-gb-x-rp")
        assert trainings.current is not first
        assert [(r.voice, r.room) for r in trainings.readings] == [
            ("en-us", "small"), ("en-gb-x-rp", "medium")]
        assert all(r.heard >= 6 and r.read == 8 for r in trainings.readings)
        trainings.set_phrases(["what is the score", "queen of hearts", "i bid four"])
        said = synthesize("queen of hearts", SpeechParams(voice="en-gb-x-rp", pad_seconds=0.3))
        assert trainings.decode(through_room(said, "medium", "fan", 5)).text \
            == "queen of hearts"
        assert trainings.last_details is not None
        # the live bench trains ahead: only what is not trained yet
        trainings.prepare([("medium", "fan", "en-gb-x-rp"), ("small", "quiet", None),
                           ("large", "rumble", "en-us")])
        assert [(r.voice, r.room) for r in trainings.readings][2:] == [("en-us", "large")]
        trainings.use("large", "rumble", "en-us")
        assert len(trainings.readings) == 3
    finally:
        trainings.close()
