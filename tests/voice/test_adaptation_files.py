"""Voice training's files: the bundled model read as PocketSphinx reads it, the
trained means written in the model's own format and read back checked (PocketSphinx
given a malformed file ends the process or hears nothing), and a damaged training
moved aside."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from voice_spades.errors import InvalidStateError, SetupError
from voice_spades.storage.envelope import CorruptFileError
from voice_spades.voice.adaptation.acoustic_model import (
    AcousticModel,
    gaussians_data,
    parse_gaussians,
)
from voice_spades.voice.adaptation.trained_means import (
    load_trained_means,
    parse_trained_means,
    save_trained_means,
)
from voice_spades.voice.adaptation.transform import SpeakerTransform
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


def _means(seed: int = 3) -> np.ndarray:
    model = AcousticModel.read(MODEL)
    return model.means + np.random.default_rng(seed).normal(0, 0.5, model.means.shape)


def test_trained_means_are_read_back_as_written(tmp_path: Path) -> None:
    written = _means()
    save_trained_means(tmp_path / "voice.means", written)
    read = load_trained_means(tmp_path / "voice.means", MODEL)
    assert read is not None
    assert np.allclose(read, written, atol=1e-4)
    assert load_trained_means(tmp_path / "none.means", MODEL) is None


def test_the_model_s_own_means_are_written_as_the_model_holds_them() -> None:
    """The writer and the reader agree with the bundled file, values and layout: the
    file written from its means is the model's file without its header's checksum line
    and checksum."""
    model = (MODEL / "means").read_bytes()
    written = gaussians_data(parse_gaussians(model))
    assert written[written.index(b"endhdr"):] == model[model.index(b"endhdr"):-4]
    assert len(written) % 4 == 0


def test_moving_means_by_the_identity_changes_nothing() -> None:
    means = AcousticModel.read(MODEL).means
    assert np.allclose(SpeakerTransform.identity().applied(means), means)
    shifted = SpeakerTransform(SpeakerTransform.identity().matrices, np.ones((3, 13)))
    assert np.allclose(shifted.applied(means), means + 1)


def _damaged(data: bytes) -> list[bytes]:
    start = data.index(b"endhdr\n") + 7
    nan = bytearray(data)
    nan[start + 40:start + 44] = np.array([np.nan], "<f4").tobytes()
    huge = bytearray(data)
    huge[start + 40:start + 44] = np.array([1e30], "<f4").tobytes()
    other_shape = bytearray(data)
    other_shape[start + 4:start + 8] = (41).to_bytes(4, "little")  # 41 codebooks
    return [
        data[:-400],                                          # cut short
        data[:start] + b"\0\0\0\0" + data[start + 4:],        # no byte-order mark
        bytes(other_shape),                                   # another model's
        gaussians_data(_means()[:, :2]),                      # two streams for three
        bytes(nan),                                           # not a number
        bytes(huge),                                          # out of range
        b"1\n3\n13\n" + b"0.5 " * 600,                        # text (an MLLR file)
        b"",
    ]


@pytest.mark.parametrize("case", range(8))
def test_malformed_means_are_refused(case: int) -> None:
    shape = AcousticModel.read(MODEL).means.shape
    with pytest.raises(InvalidStateError) as raised:
        parse_trained_means(_damaged(gaussians_data(_means()))[case], shape)
    assert raised.value.message_id == "voice.adaptation.damaged"


def test_a_damaged_training_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "voice-training-en.means"
    path.write_bytes(gaussians_data(_means())[:1000])
    with pytest.raises(CorruptFileError) as raised:
        load_trained_means(path, MODEL)
    assert raised.value.reason.id == "voice.adaptation.damaged"
    assert not path.exists()
    assert raised.value.moved_to is not None and raised.value.moved_to.exists()


def test_pocketsphinx_reads_the_trained_means(tmp_path: Path) -> None:
    """The model's own means written anew leave a decode's score as it was; moved means
    change it (so the file is read, in the layout PocketSphinx wants)."""
    pocketsphinx = pytest.importorskip("pocketsphinx")
    if not testspeech.tools_available():
        pytest.skip("needs espeak-ng and sox")
    pcm = testspeech.synthesize("yes", SpeechParams(pad_seconds=0.3))
    means = AcousticModel.read(MODEL).means
    save_trained_means(tmp_path / "same.means", means)
    save_trained_means(tmp_path / "moved.means", means + 0.5)

    def score(trained: Path | None) -> float:
        options = {} if trained is None else {"mean": str(trained)}
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
    assert score(tmp_path / "same.means") == plain
    assert score(tmp_path / "moved.means") != plain
