"""Voice at a real table (issue 12), without decoding: the bench's prompt states,
the table-talk set, the sleep word, rumble, and microphones that cannot record 16 kHz."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from tests.voice.synthetic import silence, voice
from tests.voice.test_bench_voice import ScriptedRecognizer, last_json, silent_manifest
from tests.voice.test_listener import WORD, FakeRecognizer, at_my_bid, eventually, started
from voice_spades.bench import voice as bench
from voice_spades.commands import Act, Ask, Propose, Query
from voice_spades.engine import Bid, Card, Suit
from voice_spades.voice.audio import microphone as mic_module
from voice_spades.voice.audio.features import high_pass, trim_to_speech
from voice_spades.voice.audio.microphone import Microphone
from voice_spades.voice.audio.resample import resample
from voice_spades.voice.audio.vad import VoiceActivityDetector
from voice_spades.voice.testing import chatter, manifest
from voice_spades.voice.testing.prompts import CHATTER_PROMPTS, chatter_table, prompt_table
from voice_spades.voice.testing.testspeech import add_brown_noise
from voice_spades.voice.understanding.grammar import full_grammar


def test_spades_are_tried_where_they_may_be_played_and_where_they_may_not() -> None:
    for name, card in (("ace of spades", Act(Card(Suit.SPADES, 14))),
                       ("two of spades", Act(Card(Suit.SPADES, 2))),
                       ("queen of hearts", Act(Card(Suit.HEARTS, 12)))):
        legal = [card in prompt_table(name, seed)[1].legal for seed in range(12)]
        assert any(legal) and not all(legal), name
    # and a spade may be misheard as another spade that is legal too
    tables = [prompt_table("ace of spades", seed)[1] for seed in range(0, 12, 2)]
    assert any(sum(isinstance(i, Act) and isinstance(i.action, Card)
                   and i.action.suit == Suit.SPADES for i in t.legal) > 1 for t in tables)


def test_table_talk_is_tried_at_every_prompt_and_is_no_phrase() -> None:
    grammar = full_grammar()
    assert len(chatter.SENTENCES) >= 40
    assert not [s for s in chatter.SENTENCES if s in grammar]
    tables = {prompt: chatter_table(prompt, 1) for prompt in CHATTER_PROMPTS}
    assert "bid four" in tables["bid"] and "yes" in tables["question"]
    assert "keep" in tables["draw"]
    exchange = tables["exchange"]
    assert "no exchange" in exchange and "exchange them" in exchange
    assert exchange.intent("no exchange") in exchange.legal
    asleep = tables["asleep"]
    assert asleep.intent("start listening") is None and "start listening" in asleep
    # the prompt's phrases are decoys: they mean nothing while asleep
    assert "what's on the table" in asleep and asleep.intent("what's on the table") is None


def test_the_chatter_manifest_has_300_clips_in_several_voices() -> None:
    clips = manifest.plan_table_talk(336, list(manifest.DEFAULT_VOICES), [130, 170], [50],
                                     [0.0, 0.02], colors=("white", "brown"))
    assert len(clips) == 336
    assert {c.transcript for c in clips} == set(chatter.SENTENCES)
    assert len({c.params.voice for c in clips}) == len(manifest.DEFAULT_VOICES)
    assert {c.color for c in clips} == {"white", "brown"}
    # each sentence meets several voices
    voices_of = {s: {c.params.voice for c in clips if c.transcript == s}
                 for s in chatter.SENTENCES}
    assert min(len(v) for v in voices_of.values()) >= 5


def test_bench_reports_chatter_per_prompt(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    said = ["pass me the salt", "bid four"]
    heard: list[str | None] = ["yes", "bid four"]
    path = silent_manifest(tmp_path, said)
    assert bench.main(["--manifest", str(path), "--json", "--grammar", "per-prompt"],
                      opener=lambda name: ScriptedRecognizer(heard)) == 0
    out = capsys.readouterr().out
    (row,) = last_json(out)
    assert set(row["chatter"]) == set(CHATTER_PROMPTS)
    assert row["chatter"]["question"]["act"] == 1  # "yes" to a question nobody asked
    assert row["chatter"]["bid"]["sorry"] == 0
    assert row["prompts"]["bid"]["intent_accuracy"] == 1.0
    assert "chatter at the question prompt (1): acted unasked 1" in out


def test_rumble_is_filtered_so_the_phrase_is_trimmed_to_its_speech() -> None:
    speech = silence(0.8) + voice(0.8) + silence(0.8)
    for seed in range(4):
        rumbling = add_brown_noise(speech, 0.03, seed=seed)
        assert len(trim_to_speech(rumbling)) > 2.0 * 32000  # the rumble hides the edges
        trimmed = trim_to_speech(high_pass(rumbling))
        assert 0.8 * 32000 <= len(trimmed) < 1.2 * 32000
    low = np.frombuffer(high_pass(add_brown_noise(silence(1.0), 0.3, seed=4)), "<i2")
    assert np.sqrt(np.mean(low.astype(float) ** 2)) < 0.1 * 0.3 * 32767


def test_rumble_does_not_hide_speech_from_the_detector() -> None:
    speech = silence(1.0) + voice(0.8, peak=3000) + silence(1.2)
    for seed in range(3):
        found = VoiceActivityDetector().feed(add_brown_noise(speech, 0.1, seed=seed))
        assert len(found) == 1 and 0.8 < len(found[0]) / 32000 < 1.6


class FakeStream:
    """A 48 kHz-only device: hands out ``pcm`` a block at a time, then silence."""

    def __init__(self, pcm: bytes, **options: Any) -> None:
        self.pcm, self.options, self.position = pcm, options, 0

    def start(self) -> None:
        pass

    def read(self, frames: int) -> tuple[bytes, bool]:
        block = self.pcm[self.position:self.position + 2 * frames]
        self.position += 2 * frames
        return block + bytes(2 * frames - len(block)), False

    def close(self) -> None:
        pass


def fake_sounddevice(pcm: bytes, opened: list[FakeStream]) -> SimpleNamespace:
    class PortAudioError(Exception):
        pass

    def check_input_settings(device: object, channels: int, dtype: str,
                             samplerate: int) -> None:
        if samplerate != 48000:
            raise PortAudioError("Invalid sample rate")

    def stream(**options: Any) -> FakeStream:
        opened.append(FakeStream(pcm, **options))
        return opened[-1]

    return SimpleNamespace(
        PortAudioError=PortAudioError, check_input_settings=check_input_settings,
        query_devices=lambda device, kind: {"max_input_channels": 1,
                                            "default_samplerate": 48000.0},
        RawInputStream=stream)


def test_a_microphone_that_cannot_record_16k_is_opened_at_its_rate_and_resampled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    said = silence(0.5) + voice(0.7) + silence(1.0)
    at_48k = resample(said, 16000, 48000)
    opened: list[FakeStream] = []
    monkeypatch.setattr(mic_module, "load_sounddevice",
                        lambda: fake_sounddevice(at_48k, opened))
    assert mic_module.probe() == 48000
    heard: list[bytes] = []
    done = threading.Event()
    microphone = Microphone(on_utterance=lambda u: (heard.append(u), done.set()))
    microphone.start()
    try:
        assert done.wait(10.0)
    finally:
        microphone.stop()
    assert opened[0].options["samplerate"] == 48000 and microphone.rate == 48000
    assert 0.7 <= len(heard[0]) / 32000 <= 1.4


def test_resampling_keeps_the_sound() -> None:
    tone = voice(0.5)
    back = resample(resample(tone, 16000, 44100), 44100, 16000)
    a = np.frombuffer(tone, "<i2").astype(float)
    b = np.frombuffer(back, "<i2").astype(float)[:len(a)]
    assert abs(len(back) - len(tone)) <= 4
    assert np.corrcoef(a[200:-200], b[200:-200])[0, 1] > 0.99


def test_stop_listening_hears_only_the_wake_phrase_and_says_so() -> None:
    session, out = at_my_bid()
    recognizer = FakeRecognizer("stop listening", "bid three", "what's the score",
                                "pause listening", "start listening", "bid three")
    voice_input = started(session, recognizer)
    try:
        eventually(lambda: bool(recognizer.loaded))
        assert "stop listening" in recognizer.loaded[-1]
        assert voice_input.interpret(WORD) is None
        assert voice_input.asleep
        assert out.last().text == ('Not listening. Say "resume listening" to talk to the '
                                   'game again.')
        assert {"start listening", "resume listening"} <= set(recognizer.loaded[-1])
        assert voice_input.table is not None and voice_input.table.legal == frozenset()
        assert voice_input.interpret(WORD) is None  # a bid, unheard
        assert voice_input.interpret(WORD) is None  # a query too, and no "say again"
        session.handle(Ask(Query.WHAT_CAN_I_SAY))
        assert out.last().text.endswith('Voice is not listening: say "resume listening", '
                                        'or use the keys.')
        # the sleep word again: still asleep, and says how to wake
        assert voice_input.interpret(WORD) is None and voice_input.asleep
        assert out.last().text == ('Still not listening. To talk to the game again, say '
                                   '"resume listening".')
        assert voice_input.interpret(WORD) is None
        assert not voice_input.asleep and out.last().text == "Listening again."
        assert "bid three" in recognizer.loaded[-1]
        proposed = voice_input.interpret(WORD)
        assert isinstance(proposed, Propose) and proposed.intent == Act(Bid(3))
    finally:
        voice_input.stop()


def test_other_wordings_of_the_same_meaning_add_to_the_confidence() -> None:
    from voice_spades.voice.recognizers.base import Recognition
    from voice_spades.voice.understanding.meaning import read

    _, table = prompt_table("play the highest heart", 1)
    same = Recognition("play highest heart", 0.45,
                       (("play highest heart", 0.5), ("play the highest heart", 0.45)), 1.0, 0.1)
    other = Recognition("play highest heart", 0.45,
                        (("play highest heart", 0.5), ("play highest club", 0.45)), 1.0, 0.1)
    assert read(same, table).confidence == pytest.approx(0.45 * 0.95 / 0.5)
    assert read(other, table).confidence == pytest.approx(0.45)


def test_the_garbage_loop_holds_common_words_no_phrase_uses() -> None:
    from voice_spades.voice.recognizers.pocketsphinx_grammar import (
        garbage_loop,
        garbage_vocabulary,
        prefix_tree,
    )

    phrases = ["the queen of hearts", "my hand"]
    transitions, final = prefix_tree(phrases)
    assert garbage_loop(phrases, transitions, final, 0, 1e-40) == []
    loop = garbage_loop(phrases, transitions, final, 10, 1e-40)
    words = {word for _, _, _, word in loop}
    assert len(words) == 10 and not words & {"the", "of", "my", "hand", "queen"}
    assert words <= set(garbage_vocabulary()[:20])
    states = {a for a, _, _, _ in transitions} | {b for _, b, _, _ in transitions}
    assert {b for _, b, _, _ in loop} - states == {max(states) + 1}  # one new state
