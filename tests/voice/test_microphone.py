"""The microphone: its gate (mute, push-to-talk, barge-in) on synthetic audio, and real
capture through a virtual ALSA device that reads a file."""

from __future__ import annotations

import importlib.abc
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

from tests.voice.synthetic import silence, voice
from tests.voice.wording import said
from voice_spades.errors import SetupError
from voice_spades.voice.audio import microphone as mic_module
from voice_spades.voice.audio.microphone import (
    Microphone,
    load_sounddevice,
    parse_device,
)
from voice_spades.voice.testing.testspeech import synthesize, tools_available

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make(mode: str = "open", **options: object) -> tuple[Microphone, list[bytes], Clock]:
    heard: list[bytes] = []
    clock = Clock()
    microphone = Microphone(mode=mode, on_utterance=heard.append, clock=clock,
                            **options)  # type: ignore[arg-type]
    return microphone, heard, clock


WORD = silence(0.5) + voice(0.7) + silence(1.0)


def test_open_mode_delivers_every_utterance() -> None:
    microphone, heard, _ = make()
    microphone.process(WORD + WORD)
    assert len(heard) == 2


def test_muted_audio_is_thrown_away_until_a_short_tail_after_the_narrator() -> None:
    microphone, heard, clock = make(unmute_delay=0.3)
    microphone.set_muted(True)
    microphone.process(WORD)
    assert heard == [] and microphone.muted
    microphone.set_muted(False)
    assert microphone.muted  # the tail
    microphone.process(WORD)
    assert heard == []
    clock.now += 0.31
    assert not microphone.muted
    microphone.process(WORD)
    assert len(heard) == 1


def test_muting_mid_utterance_delivers_what_was_said() -> None:
    microphone, heard, _ = make()
    microphone.process(silence(0.5) + voice(0.6))
    microphone.set_muted(True)
    assert len(heard) == 1


def test_push_to_talk_hears_only_after_the_key_and_until_the_end_of_speech() -> None:
    microphone, heard, _ = make("push")
    microphone.process(WORD)
    assert heard == [] and not microphone.listening
    microphone.begin_listening()
    assert microphone.listening
    microphone.process(silence(3.0))  # no time limit: still listening
    assert microphone.listening
    microphone.process(WORD)
    assert len(heard) == 1 and not microphone.listening
    microphone.process(WORD)
    assert len(heard) == 1


def test_the_listen_key_opens_the_gate_at_once_even_in_the_narrators_tail() -> None:
    microphone, heard, _ = make("push")
    microphone.set_muted(True)
    microphone.begin_listening()
    assert not microphone.muted
    microphone.set_muted(False)  # the cut narrator reports it stopped: no tail now
    microphone.process(WORD)
    assert len(heard) == 1


def barge_in_session(enabled: bool) -> tuple[list[bytes], int, Microphone]:
    microphone, heard, clock = make(barge_in=enabled)
    interrupted: list[bool] = []
    microphone.on_barge_in = lambda: interrupted.append(True)
    microphone.set_muted(True)  # a first narration, heard at its echo level
    microphone.process(voice(1.5, peak=1500))
    microphone.set_muted(False)
    clock.now += 1.0
    microphone.set_muted(True)  # the next one: the player talks over it
    microphone.process(voice(0.5, peak=1500) + voice(0.8, peak=12000) + silence(1.0))
    return heard, len(interrupted), microphone


def test_barge_in_a_clearly_louder_voice_cuts_the_narrator_and_is_heard() -> None:
    heard, interruptions, microphone = barge_in_session(True)
    assert interruptions == 1
    assert len(heard) == 1 and not microphone.muted


def test_without_barge_in_the_narration_is_never_interrupted() -> None:
    heard, interruptions, microphone = barge_in_session(False)
    assert interruptions == 0 and heard == [] and microphone.muted


def test_options() -> None:
    assert parse_device(None) is None
    assert parse_device(" 3 ") == 3
    assert parse_device("USB") == "USB"
    with pytest.raises(ValueError, match="mode"):
        Microphone(mode="always")


class _BrokenPortAudio(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> None:
        if fullname == "sounddevice":
            raise OSError("PortAudio library not found")


def test_missing_portaudio_is_a_setup_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_BrokenPortAudio(), *sys.meta_path])
    with pytest.raises(SetupError) as error:
        load_sounddevice()
    assert said(error.value) == ("The sound library PortAudio is missing, so voice is off; "
                                 "use the keyboard.")
    with pytest.raises(SetupError):
        Microphone().start()
    with pytest.raises(SetupError):
        mic_module.probe()


# ----- through a virtual ALSA device --------------------------------------------------

CAPTURE = """
import json, time
from voice_spades.voice.audio.microphone import Microphone
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
heard = []
microphone = Microphone(on_utterance=heard.append)
microphone.start()
deadline = time.monotonic() + {seconds}
while time.monotonic() < deadline:
    time.sleep(0.05)
microphone.stop()
recognizer = PocketSphinxRecognizer()
recognizer.set_phrases({phrases!r})
texts = [recognizer.decode(u).text for u in heard]
print(json.dumps({{"seconds": [len(u) / 32000 for u in heard], "texts": texts}}))
"""
PROBE = """
from voice_spades.errors import SetupError
from voice_spades.narration import render_message
from voice_spades.voice.audio.microphone import Microphone
try:
    Microphone().start()
except SetupError as error:
    print(render_message(error.message))
"""


def asoundrc(home: Path, body: str) -> dict[str, str]:
    home.mkdir(exist_ok=True)
    (home / ".asoundrc").write_text(body)
    return {**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)}


def file_device(home: Path, infile: Path) -> dict[str, str]:
    """PortAudio's default device reads ``infile`` (raw 16 kHz mono s16le) as its capture."""
    return asoundrc(home, f'pcm.!default {{ type file slave.pcm "null" '
                          f'file "{home / "out.raw"}" infile "{infile}" format "raw" }}\n')


@pytest.mark.audio
@pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")
def test_a_phrase_through_the_device_is_one_utterance_that_decodes(tmp_path: Path) -> None:
    infile = tmp_path / "in.raw"
    infile.write_bytes(silence(0.6) + synthesize("queen of hearts") + silence(1.4))
    env = file_device(tmp_path / "home", infile)
    phrases = ["queen of hearts", "king of hearts", "queen of spades", "ten of hearts"]
    script = CAPTURE.format(seconds=3.5, phrases=phrases)
    result = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # ALSA's chatter is kept off the player's terminal
    found = json.loads(result.stdout)
    assert found["texts"] == ["queen of hearts"]
    assert 1.4 < found["seconds"][0] < 2.6  # pre-roll, speech and the kept tail


@pytest.mark.audio
def test_no_capture_device_is_one_clear_sentence(tmp_path: Path) -> None:
    env = asoundrc(tmp_path, "pcm.!default { type hw card 7 }\nctl.!default { type hw card 7 }\n")
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "No microphone was found, so voice is off; use the keyboard."
    assert result.stderr == ""
