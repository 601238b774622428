"""Every query a key has is a voice phrase in English, Italian and French; "quit" alone
quits, asked about first as "save and quit" is; "chat" opens the chat line."""

from __future__ import annotations

import pytest

from tests.voice.wording import said
from voice_spades.commands import Ask, Chat, ChatStep, Command, Control, Propose, Query
from voice_spades.engine import Match, profile
from voice_spades.keys.actions import ACTIONS
from voice_spades.voice.lexicon import LANGUAGES, lexicon_for
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.understanding.confirmation import understand
from voice_spades.voice.understanding.grammar import build_phrases

KEYED_QUERIES = {intent.query for intent in ACTIONS.values() if isinstance(intent, Ask)}
QUIT_WORDS = {"en": "quit", "it": "esci", "fr": "quitte"}


def prompt_phrases(language: str) -> dict[str, object]:
    """The phrases of a bidding prompt, with their meanings."""
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    table = build_phrases(match.view(match.to_act), confirming=False, cursor=None,
                          lexicon=lexicon_for(language))
    return dict(table.meanings)


def test_the_keys_have_the_new_queries() -> None:
    # The list the phrases are checked against is the keys' own, not a copy of it.
    assert {Query.HINT, Query.CURRENT_CARD, Query.TRICKS_NEEDED, Query.PREVIOUS_HAND,
            Query.TARGET, Query.NEXT_PLAYER} <= KEYED_QUERIES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_query_a_key_has_can_be_said(language: str) -> None:
    meanings = prompt_phrases(language)
    spoken = {meaning.query for meaning in meanings.values() if isinstance(meaning, Ask)}
    assert KEYED_QUERIES - spoken == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_quit_alone_is_asked_about(language: str) -> None:
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    lexicon = lexicon_for(language)
    table = build_phrases(match.view(match.to_act), confirming=False, cursor=None,
                          lexicon=lexicon)
    word = QUIT_WORDS[language]
    assert table.intent(word) == Command(Control.SAVE_AND_QUIT)
    heard = Recognition(word, 0.99, ((word, 0.99),), 0.5, 0.01)
    result = understand(heard, table, lexicon=lexicon)
    assert isinstance(result, Propose)
    assert result.intent == Command(Control.SAVE_AND_QUIT)
    assert said(result.question).endswith("?")


@pytest.mark.parametrize("language", LANGUAGES)
def test_chat_opens_the_line(language: str) -> None:
    chats = [p for p, m in prompt_phrases(language).items() if m == Chat(ChatStep.OPEN)]
    assert len(chats) >= 2, chats
