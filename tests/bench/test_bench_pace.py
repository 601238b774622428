"""``voice-spades bench pace``: the scenes it times are the game's real lines, and the
game's real voice (pyttsx3 + espeak-ng) says them within the issue's bounds."""

from __future__ import annotations

import pytest

from voice_spades.bench import pace
from voice_spades.narration import Verbosity
from voice_spades.narration.language import use_language

TURNOVER_MOST = 18.0
START_MOST = 10.0


@pytest.fixture(autouse=True)
def _english() -> object:
    yield
    use_language("en")


def test_the_turnover_runs_from_the_players_last_card_to_the_next_bid_prompt() -> None:
    use_language("en")
    lines = pace.scene_lines("turnover")
    ids = [line.message_id for line in lines]
    assert ids[0] == "card.played" and lines[0].text.startswith("You played")
    assert ids[-1].startswith("prompt.bid") and "bid.made" not in ids
    assert any(i.startswith("trick.won") for i in ids) and "score.side" in ids


def test_the_start_runs_from_the_welcome_to_the_first_bid_prompt() -> None:
    use_language("en")
    ids = [line.message_id for line in pace.scene_lines("start")]
    assert ids[0] == "session.welcome" and ids[-1].startswith("prompt.bid")
    assert "bid.made" not in ids


def test_a_seed_where_a_bot_ends_the_last_trick_is_refused() -> None:
    with pytest.raises(ValueError, match="does not end"):
        pace.match_at_last_card(seed=1)


@pytest.mark.audio
def test_the_synthesizer_times_each_line_by_its_length() -> None:
    rows = pace.measure(["en"], ["start"])
    (row,) = rows
    assert len(row.seconds) == len(row.texts) and all(s > 0.3 for s in row.seconds)
    for text, seconds in zip(row.texts, row.seconds, strict=True):
        # 200 words a minute is 0.3 s a word; pauses at punctuation add to it.
        assert 0.2 < seconds / len(text.split()) < 0.8, (text, seconds)
    verbose = pace.measure(["en"], ["start"], Verbosity.VERBOSE)[0]
    assert verbose.total > row.total  # verbose says more
