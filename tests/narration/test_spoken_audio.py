"""A narrated sentence becomes real audio: pyttsx3 (espeak-ng) through the WAV speaker."""

from __future__ import annotations

import io
import wave
from pathlib import Path

import pytest

from voice_spades.engine import Card, HandDealt, profile
from voice_spades.narration import Narrator, Phrasebook
from voice_spades.speech import Announcer, WavSpeaker
from voice_spades.speech.output import AnnouncerOutput


@pytest.mark.slow
@pytest.mark.audio
def test_the_dealt_hand_is_spoken_as_a_wav_of_plausible_length(tmp_path: Path) -> None:
    codes = ["AS", "10S", "4S", "KH", "7H", "2H", "QC", "3C", "8D", "6D", "5D", "4D", "2D"]
    hand = tuple(Card.parse(c) for c in codes)
    lines = Narrator(Phrasebook(profile("pagat"))).narrate(HandDealt((hand, (), (), ())))
    speaker = WavSpeaker(tmp_path / "speech", rate=200)
    output = AnnouncerOutput(Announcer(speaker, stream=io.StringIO()))
    try:
        output.emit(lines)
        assert output.wait_idle(60)
        files = speaker.files()
    finally:
        output.close()
    assert len(files) == 1 and files[0].stat().st_size > 10_000
    with wave.open(str(files[0])) as wav:
        seconds = wav.getnframes() / wav.getframerate()
        assert wav.getframerate() in (16000, 22050, 44100)
    words = len(lines[0].text.split())  # about 3 words a second at 200 words a minute
    assert 0.4 * words / 3.3 < seconds < 3 * words / 3.3, seconds
