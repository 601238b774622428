"""Real pyttsx3 synthesis (espeak-ng) to WAV files, in the worker process."""

from __future__ import annotations

import array
import time
import wave
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from voice_spades.errors import InvalidInputError
from voice_spades.narration import render_message
from voice_spades.speech import Priority, Utterance, WavSpeaker

pytestmark = pytest.mark.audio


def read(path: Path) -> tuple[float, array.array[int]]:
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 22050)
        samples = array.array("h", wav.readframes(wav.getnframes()))
        return wav.getnframes() / wav.getframerate(), samples


def median_pitch_hz(samples: array.array[int], rate: int = 22050, frame: int = 1024) -> float:
    """Fundamental frequency by autocorrelation over the loud frames."""
    x = np.asarray(samples, dtype=float)
    lo, hi = rate // 400, rate // 60
    estimates = []
    for start in range(0, len(x) - frame, frame):
        seg = x[start:start + frame]
        if np.abs(seg).max() < 3000:
            continue
        seg = seg - seg.mean()
        ac = np.correlate(seg, seg, "full")[frame - 1:]
        estimates.append(rate / (lo + int(np.argmax(ac[lo:hi]))))
    return float(np.median(estimates))


@pytest.fixture
def speaker(tmp_path: Path) -> Iterator[WavSpeaker]:
    s = WavSpeaker(tmp_path / "wav", rate=200, queue_size=64)
    yield s
    s.close()


def speak(speaker: WavSpeaker, *utterances: Utterance) -> list[Path]:
    before = len(speaker.files())
    for u in utterances:
        speaker.say(u)
    assert speaker.wait_idle(20)
    return speaker.files()[before:]


def test_a_sentence_becomes_audio_of_plausible_length(speaker: WavSpeaker) -> None:
    [path] = speak(speaker, Utterance("Queen of hearts wins the trick"))
    assert path.parent == speaker.folder and path.name == "0001-queen-of-hearts-wins-the-trick.wav"
    duration, samples = read(path)
    assert 1.0 <= duration <= 3.0
    assert max(abs(s) for s in samples) > 3000  # speech, not silence


def test_rate_changes_the_length(speaker: WavSpeaker) -> None:
    speaker.set_rate(120)
    [slow] = speak(speaker, Utterance("North bids four and East bids three"))
    speaker.set_rate(320)
    [fast] = speak(speaker, Utterance("North bids four and East bids three"))
    assert read(slow)[0] > 1.8 * read(fast)[0]


def test_each_seat_can_have_its_own_pitch(speaker: WavSpeaker) -> None:
    speaker.set_seat_voice(1, None, 5)
    speaker.set_seat_voice(3, None, 95)
    low, high = speak(speaker, Utterance("I bid four", seat=1), Utterance("I bid four", seat=3))
    assert median_pitch_hz(read(high)[1]) > 1.4 * median_pitch_hz(read(low)[1])


def test_voices_are_listed_and_chosen_by_id_or_name(speaker: WavSpeaker) -> None:
    voices = speaker.list_voices()
    ids = {ident for ident, _ in voices}
    assert any(ident.endswith("en-us") for ident in ids)
    speaker.set_voice("en-us")
    speaker.set_voice("English (America)")
    speaker.set_seat_voice(2, "en-us+f3", 60)
    with pytest.raises(InvalidInputError) as caught:
        speaker.set_voice("Narrator Nine")
    assert "no speech voice called Narrator Nine" in render_message(caught.value.message)
    [path] = speak(speaker, Utterance("Your turn", seat=2))
    assert read(path)[0] > 0.3


def test_say_never_blocks_and_every_utterance_is_whole(speaker: WavSpeaker) -> None:
    texts = ["Trick one goes to North", "Spades are broken", "Your turn"]
    utterances = [Utterance(texts[i % 3]) for i in range(24)]
    started = time.perf_counter()
    for i, u in enumerate(utterances):
        speaker.set_rate(180 + 40 * (i % 2))  # settings change between utterances too
        speaker.say(u)
    assert time.perf_counter() - started < 0.2
    assert speaker.wait_idle(30)
    durations = [read(p)[0] for p in speaker.files()]
    assert len(durations) == 24
    # The same text must come out the same length (no lost audio, no stale rate).
    by_text: dict[str, list[float]] = {}
    for u, d in zip(utterances, durations, strict=True):
        by_text.setdefault(u.text, []).append(d)
    for lengths in by_text.values():
        assert max(lengths) - min(lengths) < 0.05


def test_high_priority_drops_what_is_queued(speaker: WavSpeaker) -> None:
    for i in range(10):
        speaker.say(Utterance(f"Old news number {i}"))
    speaker.say(Utterance("Your turn", Priority.HIGH))
    speaker.say(Utterance("Low chatter", Priority.LOW))
    assert speaker.wait_idle(10)
    names = [p.name for p in speaker.files()]
    assert names[-2].endswith("your-turn.wav")  # then the low line, which waited
    assert names[-1].endswith("low-chatter.wav")
    assert len(names) < 6


def test_the_worker_is_restarted_after_a_crash(speaker: WavSpeaker) -> None:
    speak(speaker, Utterance("first"))
    worker = speaker._synth._worker
    assert worker is not None
    worker.proc.kill()
    worker.proc.wait()
    [path] = speak(speaker, Utterance("after the crash"))
    assert read(path)[0] > 0.3


def test_numbers_go_on_in_a_used_folder(tmp_path: Path) -> None:
    first = WavSpeaker(tmp_path)
    speak(first, Utterance("one"))
    first.close()
    second = WavSpeaker(tmp_path)
    [path] = speak(second, Utterance("two"))
    second.close()
    assert path.name == "0002-two.wav"
