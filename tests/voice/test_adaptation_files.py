"""Voice training's files: the bundled model read as PocketSphinx reads it, the
transform written in PocketSphinx's MLLR format and read back checked (PocketSphinx
ends the process on a malformed one), and a damaged training moved aside."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from voice_spades.errors import InvalidStateError, SetupError
from voice_spades.storage.envelope import CorruptFileError
from voice_spades.voice.adaptation.acoustic_model import AcousticModel
from voice_spades.voice.adaptation.transform import (
    SpeakerTransform,
    load_transform,
    parse_transform,
)
from voice_spades.voice.recognizers.pocketsphinx_decoders import builtin_model_dir
from voice_spades.voice.testing import testspeech
from voice_spades.voice.testing.testspeech import SpeechParams

MODEL = builtin_model_dir() / "en-us"


def test_the_bundled_model_has_a_codebook_per_base_phone() -> None:
    model = AcousticModel.read(MODEL)
    assert model.means.shape == (42, 3, 128, 13)
    assert model.variances.min() > 0
    assert model.phones[:2] == ("+NSN+", "+SPN+")
    assert {"AH", "SIL", "ZH"} <= set(model.phones)
    assert model.codebook("AH") == model.phones.index("AH")
    assert model.codebook("QQ") is None


def test_a_damaged_model_is_a_setup_error(tmp_path: Path) -> None:
    for name in ("means", "variances", "mdef"):
        (tmp_path / name).write_bytes((MODEL / name).read_bytes())
    (tmp_path / "means").write_bytes((MODEL / "means").read_bytes()[:5000])
    with pytest.raises(SetupError) as raised:
        AcousticModel.read(tmp_path)
    assert raised.value.message_id == "voice.adaptation.model_unreadable"


def _transform(seed: int = 3) -> SpeakerTransform:
    rng = np.random.default_rng(seed)
    matrices = np.stack([np.eye(13) + 0.05 * rng.standard_normal((13, 13)) for _ in range(3)])
    return SpeakerTransform(matrices, rng.standard_normal((3, 13)))


def test_a_transform_is_read_back_as_written(tmp_path: Path) -> None:
    written = _transform()
    written.save(tmp_path / "voice.mllr")
    read = load_transform(tmp_path / "voice.mllr")
    assert read is not None
    assert np.allclose(read.matrices, written.matrices, atol=1e-6)
    assert np.allclose(read.offsets, written.offsets, atol=1e-6)
    assert load_transform(tmp_path / "none.mllr") is None


def test_moving_means_by_the_identity_changes_nothing() -> None:
    means = AcousticModel.read(MODEL).means
    assert np.allclose(SpeakerTransform.identity().applied(means), means)
    shifted = SpeakerTransform(SpeakerTransform.identity().matrices, np.ones((3, 13)))
    assert np.allclose(shifted.applied(means), means + 1)


def _damaged(text: str) -> list[str]:
    words = text.split()
    return [
        " ".join(words[:-5]),                                  # cut short
        " ".join(["1", "1", *words[2:]]),                      # one stream for three
        " ".join(["2", *words[1:]]),                           # two classes
        " ".join([*words[:10], "nan", *words[11:]]),           # not a number
        " ".join([*words[:10], "1e30", *words[11:]]),          # out of range
        " ".join([*words[:10], "zebra", *words[11:]]),         # a word
        " ".join([*words[:-1], "2"]),                          # a variance scaled
        "",
    ]


@pytest.mark.parametrize("case", range(8))
def test_a_malformed_transform_is_refused(case: int) -> None:
    with pytest.raises(InvalidStateError) as raised:
        parse_transform(_damaged(_transform().text())[case])
    assert raised.value.message_id == "voice.adaptation.damaged"


def test_a_damaged_training_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "voice-training-en.mllr"
    path.write_text("1 3 13 0.5 oops", encoding="ascii")
    with pytest.raises(CorruptFileError) as raised:
        load_transform(path)
    assert raised.value.reason.id == "voice.adaptation.damaged"
    assert not path.exists()
    assert raised.value.moved_to is not None and raised.value.moved_to.exists()


def test_pocketsphinx_applies_the_transform(tmp_path: Path) -> None:
    """The identity leaves a decode's score as it was; an offset changes it (so the
    file is read, in the shape PocketSphinx wants: a wrong one would end the test
    process)."""
    pocketsphinx = pytest.importorskip("pocketsphinx")
    if not testspeech.tools_available():
        pytest.skip("needs espeak-ng and sox")
    pcm = testspeech.synthesize("yes", SpeechParams(pad_seconds=0.3))
    SpeakerTransform.identity().save(tmp_path / "same.mllr")
    shifted = SpeakerTransform(SpeakerTransform.identity().matrices, np.full((3, 13), 0.5))
    shifted.save(tmp_path / "moved.mllr")

    def score(mllr: Path | None) -> float:
        options = {} if mllr is None else {"mllr": str(mllr)}
        decoder = pocketsphinx.Decoder(hmm=str(MODEL), samprate=16000, loglevel="FATAL",
                                       lm=None, **options)
        decoder.add_jsgf_string("g", "#JSGF V1.0;\ngrammar g;\npublic <g> = yes | no;\n")
        decoder.activate_search("g")
        decoder.start_utt()
        decoder.process_raw(pcm, full_utt=True)
        decoder.end_utt()
        hypothesis = decoder.hyp()
        assert hypothesis is not None and hypothesis.hypstr == "yes"
        return float(hypothesis.best_score)

    plain = score(None)
    assert score(tmp_path / "same.mllr") == plain
    assert score(tmp_path / "moved.mllr") != plain
