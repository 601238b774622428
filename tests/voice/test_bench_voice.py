"""`voice-spades bench voice` on tiny manifests."""

from __future__ import annotations

import json
import shutil
import wave
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from voice_spades.bench import voice as bench
from voice_spades.errors import SetupError
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.recognizers.base import Recognition, Recognizer
from voice_spades.voice.testing import manifest, testspeech
from voice_spades.voice.testing.prompts import prompt_table
from voice_spades.voice.understanding.grammar import all_phrases

KEYS = {"backend", "intent_accuracy", "wrong_intent_rate", "rejection_rate",
        "latency_ms_median", "latency_ms_p95", "real_time_factor"}


class ScriptedRecognizer:
    """Hears clip number ``n`` (its length in tenths of a second) as ``script[n]``."""

    name = "scripted"

    def __init__(self, script: Sequence[str | None]) -> None:
        self.script = script
        self.phrases: set[str] = set()
        self.audio = b""

    def set_phrases(self, phrases: Sequence[str]) -> None:
        self.phrases = set(phrases)

    def decode(self, audio: bytes) -> Recognition:
        text = self.script[len(audio) // 3200 - 1]
        if text not in self.phrases:
            text = None
        return Recognition(text, 0.9, ((text, 0.9),) if text else (), len(audio) / 32000, 0.001)

    def start(self) -> None:
        self.audio = b""

    def feed(self, chunk: bytes) -> None:
        self.audio += chunk

    def finish(self) -> Recognition:
        return self.decode(self.audio)


def silent_manifest(folder: Path, transcripts: Sequence[str]) -> Path:
    lines = []
    for number, text in enumerate(transcripts):
        path = folder / f"{number}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(16000)
            out.writeframes(bytes(3200 * (number + 1)))
        lines.append(f"{path.name}\t{text}\n")
    (folder / "m.tsv").write_text("".join(lines), encoding="utf-8")
    return folder / "m.tsv"


def last_json(output: str) -> list[dict[str, Any]]:
    rows = json.loads(output.strip().splitlines()[-1])
    assert isinstance(rows, list)
    return rows


def test_scores_right_wrong_and_rejected(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    said = ["queen of hearts", "bid four", "what is the score", "new game", "hello there"]
    heard = ["queen of hearts", "bid five", None, "new game", None]
    path = silent_manifest(tmp_path, said)
    assert isinstance(ScriptedRecognizer(heard), Recognizer)
    code = bench.main(["--manifest", str(path), "--json", "--grammar", "both"],
                      opener=lambda name: ScriptedRecognizer(heard))
    assert code == 0
    rows = last_json(capsys.readouterr().out)
    assert [row["grammar"] for row in rows] == ["full", "per-prompt"]
    for row in rows:
        assert set(row) >= KEYS
        assert row["clips"] == 4  # commands; the garbage is counted apart
        assert row["intent_accuracy"] == pytest.approx(2 / 4)
        assert row["wrong_intent_rate"] == pytest.approx(1 / 4)
        assert row["rejection_rate"] == pytest.approx(1 / 4)
        chatter = row["chatter"]
        assert all(f["ignore"] == 1 and f["act"] == 0 for f in chatter.values())


def test_a_backend_that_cannot_run_is_skipped(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = silent_manifest(tmp_path, ["yes"])

    def opener(name: str) -> Recognizer:
        if name == "vosk":
            raise SetupError("voice.model.none")
        return ScriptedRecognizer(["yes"])

    assert bench.main(["--manifest", str(path), "--backend", "all", "--json"],
                      opener=opener) == 0
    out = capsys.readouterr().out
    assert "vosk: skipped: No Vosk model installed." in out
    assert [row["backend"] for row in last_json(out)] == ["pocketsphinx"]


def test_a_missing_manifest_is_one_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nonexistent.tsv"
    assert bench.main(["--manifest", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"voice-spades bench voice: cannot read the manifest {missing}: "
                            "No such file or directory\n")


def test_every_phrase_has_a_prompt_that_offers_it() -> None:
    for number, phrase in enumerate(sorted(all_phrases())):
        assert phrase in prompt_table(phrase, number)[1]


def test_the_manifest_plan_covers_every_kind() -> None:
    clips = manifest.plan(40, ["en-us", "en-gb"], [150], [50], [0.0, 0.02])
    kinds = {all_phrases()[clip.transcript] for clip in clips}
    assert kinds == set(all_phrases().values())
    assert {clip.params.voice for clip in clips} == {"en-us", "en-gb"}
    assert all(clip.params.noise >= manifest.NOISE_FLOOR for clip in clips)


def test_every_kind_is_said_by_every_voice() -> None:
    # 12 kinds and 4 voices: voices simply in turn would give each kind one voice
    voices = ["mb-it1", "mb-it2", "mb-it3", "mb-it4"]
    table = all_phrases(lexicon_for("it"))
    clips = manifest.plan(300, voices, [150], [50], [0.0], language="it")
    heard_by: dict[str, set[str]] = {}
    for clip in clips:
        heard_by.setdefault(table[clip.transcript], set()).add(clip.params.voice)
    assert len(heard_by) == 12
    assert all(said == set(voices) for said in heard_by.values())


@pytest.mark.parametrize("kinds", [("extreme",), ("bid", "card"), ("bid", "card", "query")])
def test_a_few_kinds_are_said_by_every_voice(kinds: tuple[str, ...]) -> None:
    voices = ["mb-it1", "mb-it2", "mb-it3", "mb-it4"]
    table = all_phrases(lexicon_for("it"))
    clips = manifest.plan(40, voices, [150], [50], [0.0], language="it", kinds=kinds)
    for kind in kinds:
        said = [clip.params.voice for clip in clips if table[clip.transcript] == kind]
        assert set(said) == set(voices)
        assert max(said.count(v) for v in voices) - min(said.count(v) for v in voices) <= 1


@pytest.mark.skipif(not testspeech.tools_available(), reason="needs espeak-ng and sox")
def test_a_voice_espeak_ng_lacks_is_named_before_any_clip(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert manifest.main(["--out", str(tmp_path), "--count", "3",
                          "--voices", "en-us,mb-nosuchvoice"]) == 2
    err = capsys.readouterr().err
    assert "espeak-ng cannot speak with mb-nosuchvoice" in err
    assert "mbrola-NAME" in err
    assert "en-us" not in err.split("with", 1)[1]
    assert not (tmp_path / "manifest.tsv").exists()


@pytest.mark.audio
@pytest.mark.skipif(not testspeech.tools_available(), reason="needs espeak-ng and sox")
def test_real_pocketsphinx_on_a_generated_manifest(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("voice_spades.voice.recognizers.pocketsphinx_recognizer")
    assert manifest.main(["--out", str(tmp_path), "--count", "11", "--voices", "en-us,en-gb",
                          "--speeds", "150,170", "--noise", "0,0.01"]) == 0
    assert bench.main(["--manifest", str(tmp_path / "manifest.tsv"), "--grammar",
                       "per-prompt", "--json"]) == 0
    (row,) = last_json(capsys.readouterr().out)
    assert set(row) >= KEYS
    assert row["backend"] == "pocketsphinx"
    assert row["intent_accuracy"] >= 0.6
    assert 0 < row["latency_ms_median"] <= row["latency_ms_p95"]
    assert row["real_time_factor"] > 0


@pytest.mark.audio
@pytest.mark.parametrize(("voice", "tool"), [("flite:slt", "flite"),
                                             ("festival:kal_diphone", "text2wave"),
                                             ("pico:en-US", "pico2wave")])
def test_other_synthesizers_speak_phrases_pocketsphinx_understands(voice: str,
                                                                   tool: str) -> None:
    if shutil.which(tool) is None or not testspeech.tools_available():
        pytest.skip(f"needs {tool} and sox (./run-tests installs them)")
    from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    recognizer = PocketSphinxRecognizer()
    phrases = ["queen of hearts", "ten of clubs", "bid four", "my hand", "repeat"]
    recognizer.set_phrases(phrases)
    for phrase in ("queen of hearts", "bid four"):
        params = testspeech.SpeechParams(voice, 150, 50, noise=0.002, pad_seconds=0.3)
        pcm = manifest.speak(phrase, params)
        assert 0.8 < len(pcm) / 32000 < 4.0
        assert recognizer.decode(pcm).text == phrase, (voice, phrase)


class PoorFit(ScriptedRecognizer):
    """Hears its script clearly ahead of the runner-up, but fitting it badly."""

    def decode(self, audio: bytes) -> Recognition:
        heard = super().decode(audio)
        if heard.text is None:
            return heard
        return Recognition(heard.text, 0.05, ((heard.text, 0.9), ("nine", 0.1)),
                           heard.audio_seconds, 0.001)


def test_the_sleep_word_heard_while_asleep_is_counted_as_telling_how_to_wake(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = silent_manifest(tmp_path, ["pass me the salt"])
    recognizer = ScriptedRecognizer(["pause listening"])
    assert bench.main(["--manifest", str(path), "--json", "--grammar", "per-prompt"],
                      opener=lambda name: recognizer) == 0
    out = capsys.readouterr().out
    asleep = last_json(out)[0]["chatter"]["asleep"]
    assert (asleep["remind"], asleep["ignore"], asleep["act"]) == (1, 0, 0)


def test_chatter_forced_into_a_phrase_is_told_apart_from_a_question(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = silent_manifest(tmp_path, ["pass me the salt"])
    for recognizer, answer in ((ScriptedRecognizer(["bid four"]), "ask"),
                               (PoorFit(["bid four"]), "sorry")):
        assert bench.main(["--manifest", str(path), "--json", "--grammar", "per-prompt"],
                          opener=lambda name, r=recognizer: r) == 0
        chatter = last_json(capsys.readouterr().out)[0]["chatter"]
        assert chatter["bid"][answer] == 1
        assert chatter["asleep"]["ignore"] == 1  # asleep, the game says nothing
        assert all(f["act"] == 0 for f in chatter.values())


def test_a_yes_or_no_at_the_blind_nil_or_draw_decision_counts_as_the_decision(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"Nope" heard for "not blind" declines blind nil, as the session takes it; a yes
    heard for "discard" keeps the card: wrong, and acted on."""
    path = silent_manifest(tmp_path, ["not blind", "discard"])
    recognizer = ScriptedRecognizer(["nope", "yes"])
    assert bench.main(["--manifest", str(path), "--json", "--grammar", "per-prompt"],
                      opener=lambda name: recognizer) == 0
    row = last_json(capsys.readouterr().out)[0]
    assert row["prompts"]["blind-nil"]["intent_accuracy"] == 1.0
    assert row["prompts"]["draw"]["intent_accuracy"] == 0.0
    assert row["prompts"]["draw"]["wrong_unconfirmed"] == 1


class Unsure(ScriptedRecognizer):
    """Rejects every clip, its script's phrase the best of what it weighed."""

    def decode(self, audio: bytes) -> Recognition:
        heard = super().decode(audio)
        best = ((heard.text, 0.6),) if heard.text else ()
        return Recognition(None, 0.0, best, heard.audio_seconds, 0.001, reason="unsure")


def test_say_again_to_a_phrase_heard_right_is_counted_with_its_gate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A command answered "say again" is counted as heard right when the phrase heard
    meant it, with what turned it away; a misheard one is not."""
    path = silent_manifest(tmp_path, ["bid four", "queen of hearts", "what is the score"])
    for recognizer, gate in ((PoorFit(["bid four", "ten of clubs", "what is the score"]),
                              "floor"),
                             (Unsure(["bid four", "ten of clubs", "what is the score"]),
                              "recognizer")):
        assert bench.main(["--manifest", str(path), "--json", "--grammar", "per-prompt"],
                          opener=lambda name, r=recognizer: r) == 0
        row = last_json(capsys.readouterr().out)[0]
        assert row["rejected"] == 3
        assert row["rejected_heard_right"] == 2
        assert row["rejected_heard_right_by"][gate] == 2
        assert sum(row["rejected_heard_right_by"].values()) == 2
