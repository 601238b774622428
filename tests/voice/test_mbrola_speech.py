"""MBROLA test voices: phonemes renamed to each voice's own, no clip with holes."""

from __future__ import annotations

import shutil
import subprocess
import wave
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from voice_spades.bench.voice import read_manifest
from voice_spades.voice.testing import manifest
from voice_spades.voice.testing.manifest import Clip, write_manifest
from voice_spades.voice.testing.mbrola import (
    MBROLA_FOLDER,
    MissingSounds,
    missing_diphones,
    rename_phonemes,
    speak_to_wav,
)
from voice_spades.voice.testing.testspeech import SpeechParams

ITALIAN_VOICES = ("mb-it1", "mb-it2", "mb-it3", "mb-it4")
needs_italian_mbrola = pytest.mark.skipif(
    shutil.which("mbrola") is None or shutil.which("espeak-ng") is None
    or not all((MBROLA_FOLDER / v[3:] / v[3:]).exists() for v in ITALIAN_VOICES),
    reason="needs mbrola and the mbrola-it1..4 voices (Debian non-free)")


def test_the_first_italian_voices_get_their_own_names_and_long_consonants() -> None:
    # "segna": espeak-ng's J J (a long gn, split by a word boundary line) is it1's GN
    pho = "S\t100\nE\t32\t0 117 80 109\nJ\t83\t100 102\n\nJ\t65\nA2\t39\t0 110\n"
    assert rename_phonemes(pho, "it1") == \
        "sh\t100\nE\t32\t0 117 80 109\nGN\t148\t100 102\nA2\t39\t0 110\n"


def test_a_long_s_becomes_two_sharing_its_duration_in_the_second_voices() -> None:
    assert rename_phonemes("a1\t45\nss\t131\no\t29\n", "it3") == \
        "a1\t45\ns\t66\ns\t65\no\t29\n"
    assert rename_phonemes("a1\t45\nss\t131\no\t29\n", "it1") == "a1\t45\nSS\t131\no\t29\n"


def test_pairs_are_mended_only_in_the_voice_lacking_them() -> None:
    assert rename_phonemes("T\t69\nO2\t40\n", "it1") == "T\t69\nO\t40\n"
    assert rename_phonemes("T\t69\nO2\t40\n", "it2") == "T\t69\nO2\t40\n"
    assert rename_phonemes("j\t50\nd\t60\n", "it3") == "i\t50\nd\t60\n"


def test_other_voices_are_left_as_espeak_ng_writes_them() -> None:
    pho = "dZ\t74\nss\t130\n"
    assert rename_phonemes(pho, "fr1") == pho


def test_what_espeak_ng_and_mbrola_report_missing_is_read() -> None:
    espeak = ("mbrola: Warning: ng-G unknown, replaced with _-_\n"
              "mbrola: Warning: E2-ss unknown, replaced with _-_\n"
              "mbrola: Warning: ng-G unknown, replaced with _-_\n")
    assert missing_diphones(espeak) == ("ng-G", "E2-ss")
    assert missing_diphones("Fatal error: Unknown recovery for a1-ss segment") == ("a1-ss",)
    assert missing_diphones("") == ()


def _longest_digital_silence(pcm: bytes) -> float:
    """Seconds of the longest run of exact zeros between the first and last sound."""
    samples = np.frombuffer(pcm, dtype=np.int16)
    loud = np.flatnonzero(samples)
    inner = samples[loud[0]:loud[-1] + 1]
    zero = np.concatenate(([0], (inner == 0).astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(zero))
    runs = edges[1::2] - edges[::2]
    return float(runs.max(initial=0)) / 16000


def _wav_pcm(path: Path) -> bytes:
    with wave.open(str(path)) as clip:
        return clip.readframes(clip.getnframes())


@needs_italian_mbrola
@pytest.mark.parametrize("voice", ITALIAN_VOICES)
def test_italian_phrases_are_said_whole(voice: str, tmp_path: Path) -> None:
    for text in ("gioca l'asso di picche", "nessuno scambio", "tengo", "dichiaro dodici",
                 "segna il re di fiori"):
        wav = tmp_path / "said.wav"
        speak_to_wav(text, voice, 150, 50, wav)
        # a pause between words is MBROLA's silence too, but it is never 50 ms of
        # exact zeros inside these short phrases, where a missing diphone is
        assert _longest_digital_silence(_wav_pcm(wav)) < 0.05, (voice, text)


@needs_italian_mbrola
def test_espeak_ng_alone_leaves_holes_where_the_voice_lacks_sounds(tmp_path: Path) -> None:
    wav = tmp_path / "hole.wav"
    said = subprocess.run(["espeak-ng", "-v", "mb-it1", "-w", str(wav), "--", "tengo"],
                          capture_output=True, text=True, check=True)
    assert missing_diphones(said.stderr) == ("ng-G",)
    assert _longest_digital_silence(_wav_pcm(wav)) > 0.05


def test_a_clip_its_voice_cannot_say_is_said_by_the_next_or_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # MBROLA is not installed where the suite usually runs, so the voices' gaps are
    # played here by a stand-in renderer
    lacking = {("mb-a", "uno"), ("mb-a", "due"), ("mb-b", "due")}

    def render(clip: Clip) -> bytes:
        if (clip.params.voice, clip.transcript) in lacking:
            raise MissingSounds(clip.params.voice, clip.transcript, ("x-y",))
        return b"\x01\x00" * 1600

    monkeypatch.setattr(manifest, "render", render)
    params = SpeechParams(voice="mb-a")
    clips = [Clip("uno", params), Clip("due", params), Clip("tre", replace(params, voice="mb-b"))]
    written = write_manifest(tmp_path, clips, "it", ("mb-a", "mb-b"))
    assert [(c.transcript, c.params.voice) for c in written.clips] == \
        [("uno", "mb-b"), ("tre", "mb-b")]
    assert written.revoiced == 1
    assert [(m.voice, m.text) for m in written.left_out] == [("mb-a", "due")]
    assert written.manifest.read_text(encoding="utf-8").splitlines() == \
        ["# language: it", "clips/0000.wav\tuno\tmb-b", "clips/0001.wav\ttre\tmb-b"]
    # the voice that said each clip is its speaker, for `bench voice --enroll`
    assert [(s.transcript, s.speaker) for s in read_manifest(written.manifest)] == \
        [("uno", "mb-b"), ("tre", "mb-b")]
