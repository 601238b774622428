"""The enrolled benches' reading of the training script (``bench voice --enroll``):
a phrase the speaker's voice cannot say is left out and the rest still train the
model (real espeak-ng speech, real PocketSphinx)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from voice_spades.bench import voice_enrolled
from voice_spades.bench.voice_enrolled import read_script
from voice_spades.voice.adaptation.enrollment import script
from voice_spades.voice.adaptation.trained_means import load_trained_means
from voice_spades.voice.lexicon import lexicon_for
from voice_spades.voice.recognizers.pocketsphinx_decoders import builtin_model_dir
from voice_spades.voice.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voice_spades.voice.testing.mbrola import MissingSounds
from voice_spades.voice.testing.testspeech import SpeechParams, tools_available


@pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")
def test_a_phrase_the_voice_cannot_say_is_left_out(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    lexicon = lexicon_for("en")
    phrases = script(lexicon, 6)
    said: list[str] = []
    speak = voice_enrolled.speak

    def mbrola_like(text: str, params: SpeechParams) -> bytes:
        # An MBROLA voice lacking a pair of sounds raises this; those voices are
        # Debian non-free packages the test machines do not have, so one is imitated.
        if text == phrases[2]:
            raise MissingSounds("mb-xx", text, ("a-b",))
        said.append(text)
        return speak(text, params)

    monkeypatch.setattr(voice_enrolled, "speak", mbrola_like)
    heard = read_script(PocketSphinxRecognizer(lexicon=lexicon), "en-us", phrases,
                        tmp_path / "trained.means")
    assert said == phrases[:2] + phrases[3:]
    assert heard == len(phrases) - 1
    model = builtin_model_dir() / "en-us"
    trained = load_trained_means(tmp_path / "trained.means", model)
    assert trained is not None
    own = load_trained_means(model / "means", model)
    assert own is not None and not np.allclose(trained, own)
