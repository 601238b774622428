"""``bench voice --learn``: a speaker's clips in turn, the voice learnt from the actions
carried out, as in a game (real espeak-ng speech, real PocketSphinx)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from voice_spades.bench import voice as bench
from voice_spades.bench.voice_learnt import taught
from voice_spades.bench.voice_outcomes import Outcome
from voice_spades.voice.learning import IF_CONFIRMED, NOW
from voice_spades.voice.testing import manifest
from voice_spades.voice.testing.testspeech import tools_available


def outcome(correct: bool, teaches: str | None, phrase: str | None = "bid three") -> Outcome:
    return Outcome("bid three", phrase or "", "bid", correct, not correct, False, None, False,
                   0.1, 1.0, 0.1, {"phrase": phrase, "teaches": teaches}, "bid", "ask")


def test_a_clip_teaches_what_the_game_would_learn_from_it() -> None:
    assert taught(outcome(True, NOW)) == "bid three"
    assert taught(outcome(False, NOW, "bid two")) == "bid two"  # the game cannot tell
    assert taught(outcome(True, IF_CONFIRMED)) == "bid three"  # the player says yes
    assert taught(outcome(False, IF_CONFIRMED, "bid two")) is None  # ... and no here
    assert taught(outcome(True, None)) is None
    assert taught(outcome(True, NOW, None)) is None


@pytest.mark.audio
@pytest.mark.slow
@pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")
def test_the_voice_is_learnt_partway_and_the_rest_decoded_with_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert manifest.main(["--out", str(tmp_path), "--count", "14", "--voices", "en-us",
                          "--kinds", "bid,card,extreme"]) == 0
    assert bench.main(["--manifest", str(tmp_path / "manifest.tsv"), "--grammar",
                       "per-prompt", "--learn", "--learn-at", "8", "--json"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"en-us: 14 clips, learnt after clip (\d+); after: (\d+) of (\d+)", out)
    assert found is not None, out
    after_clip, right, said = map(int, found.groups())
    assert 8 <= after_clip < 14 and said == 14 - after_clip and right <= said
