"""Building PocketSphinx grammars from phrases (no audio, no decoder)."""

from __future__ import annotations

from voice_spades.voice.recognizers.phrases import PhraseSet, normalize_phrase
from voice_spades.voice.recognizers.pocketsphinx_grammar import (
    plan_grammar,
    prefix_tree,
    pronunciations,
)

DICTIONARY = {
    "bid": "B IH D", "four": "F AO R", "for": "F AO R", "for(2)": "F ER",
    "queen": "K W IY N", "of": "AH V", "hearts": "HH AA R T S", "help": "HH EH L P",
    "what's": "W AH T S", "on": "AA N", "the": "DH AH", "the(2)": "DH IY", "table": "T EY B AH L",
}


def lookup(word: str) -> str | None:
    return DICTIONARY.get(word)


def accepts(transitions: list[tuple[int, int, float, str]], final: int, words: list[str]) -> bool:
    states = {0}
    for word in words:
        states = {target for source, target, _, label in transitions
                  if source in states and label == word}
    return final in states


def test_pronunciations_lists_every_variant() -> None:
    assert pronunciations("the", lookup) == ["DH AH", "DH IY"]
    assert pronunciations("queen", lookup) == ["K W IY N"]
    assert pronunciations("blorp", lookup) == []


def test_prefix_tree_accepts_exactly_the_phrases() -> None:
    phrases = ["bid four", "bid", "queen of hearts", "help", "what's on the table"]
    transitions, final = prefix_tree(phrases)
    for phrase in phrases:
        assert accepts(transitions, final, phrase.split()), phrase
    for other in ("bid bid", "queen of", "four", "help help", "what's on the"):
        assert not accepts(transitions, final, other.split()), other
    assert all(probability == 1.0 for _, _, probability, _ in transitions)


def test_shared_leading_words_share_states() -> None:
    transitions, _ = prefix_tree(["bid one", "bid two", "bid three"])
    assert sum(1 for source, _, _, word in transitions if source == 0 and word == "bid") == 1


def test_unknown_words_drop_their_phrases_and_are_named() -> None:
    plan = plan_grammar(("queen of hearts", "blorp of hearts", "help"), lookup)
    assert plan.decodable == ("queen of hearts", "help")
    assert plan.unknown_words == ("blorp",)
    assert plan.dropped == ("blorp of hearts",)


def test_homophones_are_grouped_under_the_first() -> None:
    plan = plan_grammar(("bid four", "bid for", "help"), lookup)
    assert plan.decodable == ("bid four", "help")
    assert plan.homophones == {"bid four": ("bid for",), "help": ()}
    assert plan.phone_counts == {"bid four": 6, "help": 4}


def test_phrases_are_normalized_for_the_dictionary() -> None:
    assert normalize_phrase("What\u2019s on the TABLE?") == "what's on the table"
    assert normalize_phrase("  Queen-of  hearts! ") == "queen of hearts"
    assert normalize_phrase("'bid' four") == "bid four"
    phrases = PhraseSet.build(["Help!", "help", "", "Bid four"])
    assert phrases.normalized == ("help", "bid four")
    assert phrases.original == {"help": "Help!", "bid four": "Bid four"}
    assert phrases.words() == {"help", "bid", "four"}
