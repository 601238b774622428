"""The winner verified searched alone: table talk forced into the grammar fits badly,
commands still fit (real PocketSphinx on espeak-ng speech)."""

from __future__ import annotations

from functools import cache

import pytest

from voice_spades.voice.testing.chatter import SENTENCES
from voice_spades.voice.testing.prompts import chatter_table
from voice_spades.voice.testing.testspeech import SpeechParams, synthesize, tools_available

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(not tools_available(), reason="needs espeak-ng and sox")]
ps = pytest.importorskip("voice_spades.voice.recognizers.pocketsphinx_recognizer")
tuning = pytest.importorskip("voice_spades.voice.recognizers.pocketsphinx_tuning")

BAR = 0.3
"""About the floors under which table talk is answered "say again"."""


@cache
def fits(verify_alone: bool, texts: tuple[str, ...]) -> tuple[float, ...]:
    """The fit of each text said by espeak-ng's RP voice at a play prompt (0 when
    rejected), nothing rejected for its verification."""
    recognizer = ps.PocketSphinxRecognizer(
        tuning.PocketSphinxTuning(verify_alone=verify_alone, accept_above=0.0))
    recognizer.set_phrases(chatter_table("play", 5).phrases)
    found = []
    for text in texts:
        pcm = synthesize(text, SpeechParams("en-gb-x-rp", 150, 50, noise=0.0005,
                                            pad_seconds=0.3))
        heard = recognizer.decode(pcm)
        found.append(heard.fit if heard.text is not None else 0.0)
    return tuple(found)


def test_table_talk_fits_badly_once_the_winner_is_verified_alone() -> None:
    # measured: 9 of these 40 sentences fitted their phrase at 0.41-0.95 by the search's
    # own verification ("how many points do we need" as "how many tricks"), none at
    # 0.3 or more (0.22 at most) weighed with the winner searched alone
    talk = tuple(SENTENCES[:40])
    loose = [text for text, fit in zip(talk, fits(False, talk), strict=True) if fit >= BAR]
    alone = [text for text, fit in zip(talk, fits(True, talk), strict=True) if fit >= BAR]
    assert len(loose) >= 5, loose
    assert len(alone) <= 1, alone


def test_commands_still_fit_when_the_winner_is_verified_alone() -> None:
    # measured: 0.37 ("game info") to 1.00, four of six at 0.5 and more
    said = ("how many tricks", "highest heart", "game info", "five of hearts",
            "cards on the table", "help me")
    found = fits(True, said)
    assert min(found) >= BAR and sum(fit >= 0.5 for fit in found) >= 4, found
