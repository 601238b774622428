"""Voice commands in Italian and French: the grammar, the phrase -> intent tables and
the questions of each language, and the phrases the catalogs tell players to say."""

from __future__ import annotations

import dataclasses
import re

import pytest

from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    NotUnderstood,
    PlayCurrent,
    Propose,
    Query,
)
from voice_spades.engine import CARDS, Bid, Card, Match, Phase, Suit, mask_of, profile
from voice_spades.narration.catalog import Catalog
from voice_spades.narration.templates import load_templates
from voice_spades.voice.lexicon import LANGUAGES, Lexicon, lexicon_for
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.understanding.confirmation import (
    offered_choices,
    question,
    spoken_card,
    understand,
)
from voice_spades.voice.understanding.grammar import (
    Extreme,
    Listening,
    PhraseTable,
    build_phrases,
    full_grammar,
)
from voice_spades.voice.understanding.meaning import normalize, read

OTHER = ("it", "fr")


def heard(text: str, confidence: float = 0.95,
          alternatives: tuple[tuple[str, float], ...] = ()) -> Recognition:
    return Recognition(text, confidence, ((text, confidence), *alternatives), 1.0, 0.01)


def play_table(lex: Lexicon, hand: str, cursor: str | None = None,
               legal: str | None = None) -> PhraseTable:
    match = Match(profile("pagat"), seed=3)
    while match.view(0).phase == Phase.BID:
        match.apply(Bid(3))
    assert match.to_act is not None
    held = [Card.parse(code) for code in hand.split()]
    allowed = [Card.parse(code) for code in legal.split()] if legal else held
    view = dataclasses.replace(match.view(match.to_act), hand=mask_of(held),
                               legal=tuple(allowed))
    return build_phrases(view, confirming=False, lexicon=lex,
                         cursor=Card.parse(cursor) if cursor else None)


def bid_table(lex: Lexicon, *, confirming: bool = False,
              offered: tuple[Act, ...] = ()) -> PhraseTable:
    match = Match(profile("pagat"), seed=3)
    assert match.to_act is not None
    return build_phrases(match.view(match.to_act), confirming=confirming, cursor=None,
                         lexicon=lex, offered=offered)


# ----- what the issue asks a player can say ---------------------------------------------
ITALIAN = {
    "dichiaro quattro": Act(Bid(4)), "quattro": Act(Bid(4)), "nil": Act(Bid(0)),
    "dichiaro nil": Act(Bid(0)), "che carte ci sono in tavola": Ask(Query.TABLE),
    "di chi è il turno": Ask(Query.WHOSE_TURN), "punteggio": Ask(Query.SCORES),
    "ripeti": Command(Control.REPEAT), "aiuto": Ask(Query.HELP),
}
FRENCH = {
    "je demande quatre": Act(Bid(4)), "quatre": Act(Bid(4)), "nil": Act(Bid(0)),
    "à qui de jouer": Ask(Query.WHOSE_TURN), "le score": Ask(Query.SCORES),
    "répète": Command(Control.REPEAT), "aide": Ask(Query.HELP),
    "je demande dix sept": None,  # not legal with four players: not in the table
}


@pytest.mark.parametrize(("language", "expected"), [("it", ITALIAN), ("fr", FRENCH)])
def test_the_issues_bidding_phrases_mean_what_they_say(language: str,
                                                        expected: dict[str, object]) -> None:
    table = bid_table(lexicon_for(language))
    for phrase, intent in expected.items():
        assert table.intent(phrase) == intent, phrase


@pytest.mark.parametrize(("language", "phrases"), [
    ("it", {"asso di picche": "AS", "gioca la donna di cuori": "QH",
            "la più bassa di fiori": Extreme(Suit.CLUBS, False), "l'asso di picche": "AS",
            "gioca l'otto di quadri": "8D", "il re di fiori": "KC"}),
    ("fr", {"dame de cœur": "QH", "joue l'as de pique": "AS", "le huit de carreau": "8D",
            "mon plus petit trèfle": Extreme(Suit.CLUBS, False),
            "mon plus gros pique": Extreme(Suit.SPADES, True)}),
])
def test_the_issues_card_phrases_mean_what_they_say(language: str,
                                                    phrases: dict[str, object]) -> None:
    table = play_table(lexicon_for(language), "AS QH 8D KC 2C 3C")
    for phrase, card in phrases.items():
        meaning = table.meanings[phrase]
        assert meaning == (Act(Card.parse(card)) if isinstance(card, str) else card), phrase
    lowest = table.intent("la più bassa di fiori" if language == "it" else
                          "mon plus petit trèfle")
    assert lowest == Act(Card.parse("2C"))


@pytest.mark.parametrize(("language", "yes", "no"), [("it", "sì", "no"), ("fr", "oui", "non")])
def test_yes_and_no_answer_a_question(language: str, yes: str, no: str) -> None:
    table = bid_table(lexicon_for(language), confirming=True)
    assert table.intent(yes) == Confirm(True)
    assert table.intent(no) == Confirm(False)
    assert "quattro" not in table and "quatre" not in table


@pytest.mark.parametrize("language", OTHER)
def test_every_card_and_bid_of_the_language_parses_to_its_intent(language: str) -> None:
    lex = lexicon_for(language)
    full = full_grammar(lex)
    for card in CARDS:
        names = [p for p, m in full.meanings.items() if m == Act(card)]
        assert len(names) >= len(lex.actions["card"]), card
        assert str(spoken_card(card, lex)) in names
        table = play_table(lex, card.code)
        for phrase in names:
            assert read(heard(phrase), table, lex).intent == Act(card), phrase
    table = bid_table(lex)
    for tricks in range(14):
        bids = [p for p, m in table.meanings.items() if m == Act(Bid(tricks))]
        assert len(bids) >= 3, tricks
        for phrase in bids:
            assert read(heard(phrase), table, lex).intent == Act(Bid(tricks)), phrase


@pytest.mark.parametrize("language", OTHER)
def test_every_query_command_and_answer_of_english_has_phrases(language: str) -> None:
    english, lex = lexicon_for("en"), lexicon_for(language)
    assert set(lex.queries) == set(english.queries)
    assert set(lex.commands) == set(english.commands)
    assert all(lex.queries.values()) and all(lex.commands.values())
    assert lex.listening["sleep"] and lex.listening["wake"]
    full = full_grammar(lex)
    assert {m for m in full.meanings.values() if isinstance(m, Ask)} == \
        {m for m in full_grammar().meanings.values() if isinstance(m, Ask)}
    assert {full.meanings[p] for p in lex.listening["wake"]} == {Listening(True)}
    assert not full.dropped, "a phrase two meanings claim"
    assert not any("{" in p for p in full.phrases)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_reads_as_itself(language: str) -> None:
    lex = lexicon_for(language)
    table = full_grammar(lex)
    for phrase in table.phrases:
        reading = read(heard(phrase), table, lex)
        assert reading.meaning == table.meanings[phrase] and reading.cost == 0, phrase


# ----- what the catalogs tell the player to say ------------------------------------------
QUOTED = {"en": r'"([^"{}]+)"', "it": r'"([^"{}]+)"', "fr": r"«([^»{}]+)»"}
PARTS = {"en": {"exchange"}, "it": {"scambia"}, "fr": {"échange"}}
"""Quoted words that are the start of a phrase, not one: "say \"exchange\" and a card"."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_the_catalog_tells_players_to_say_is_heard(language: str) -> None:
    lex = lexicon_for(language)
    full = full_grammar(lex)
    said = []
    for message_id, template in load_templates(language).items():
        if not message_id.startswith(("voice.help", "voice.how", "voice.room")):
            continue
        for text in template.forms():
            assert isinstance(text, str)
            said += re.findall(QUOTED[language], text.replace('\\"', '"'))
    assert len(said) >= 15
    for phrase in said:
        words = normalize(phrase, lex)
        if words in PARTS[language]:
            assert words in full.prefixes, words
        else:
            assert words in full, f"{language}: the catalog says {phrase!r}, not a phrase"


def test_french_spellings_of_a_recognizer_are_read() -> None:
    lex = lexicon_for("fr")
    table = play_table(lex, "QH AS")
    assert normalize("Joue l’as de Pique !", lex) == "joue l'as de pique"
    assert read(heard("dame de coeur"), table, lex).intent == Act(Card.parse("QH"))
    assert normalize("je demande 17", lex) == "je demande dix sept"
    assert normalize("Qu'est-ce qu'il y a sur la table ?", lex) == \
        "qu'est ce qu'il y a sur la table"


# ----- questions in the language -----------------------------------------------------------
@pytest.mark.parametrize(("language", "texts"), [
    ("it", ("Donna di cuori?", "Dichiari quattro?", "Giochi l'asso di picche?")),
    ("fr", ("Dame de cœur\u202f?", "Annoncer quatre\u202f?", "Jouer l'as de pique\u202f?")),
])
def test_questions_name_cards_and_numbers_in_the_players_words(
        language: str, texts: tuple[str, str, str]) -> None:
    lex, words = lexicon_for(language), Catalog(language, strict=True)
    card, bid, play = texts
    assert words.render_message(question(Act(Card.parse("QH")), lexicon=lex)) == card
    assert words.render_message(question(Act(Bid(4)), lexicon=lex)) == bid
    assert words.render_message(question(PlayCurrent(), Card.parse("AS"), Phase.PLAY,
                                         lex)) == play


@pytest.mark.parametrize(("language", "asked", "answer", "other"), [
    ("it", "Dichiari quattro? O tre?", "tre", "tredici"),
    ("fr", "Annoncer quatre\u202f? Ou trois\u202f?", "trois", "treize"),
])
def test_a_bid_question_offers_the_runner_up_which_may_be_named(
        language: str, asked: str, answer: str, other: str) -> None:
    lex, words = lexicon_for(language), Catalog(language, strict=True)
    table = bid_table(lex)
    four = lex.numbers[4]
    proposal = understand(heard(four, 0.6, ((answer, 0.3), (other, 0.05))), table,
                          lexicon=lex)
    assert isinstance(proposal, Propose) and proposal.intent == Act(Bid(4))
    assert words.render_message(proposal.question) == asked  # type: ignore[arg-type]
    reading = read(heard(four, 0.6, ((answer, 0.3),)), table, lex)
    offered = offered_choices(reading, table, lex)
    assert offered == (Act(Bid(4)), Act(Bid(3)))
    choosing = bid_table(lex, confirming=True, offered=offered)
    assert understand(heard(answer, 0.9), choosing, lexicon=lex) == Act(Bid(3))
    assert understand(heard(four, 0.9), choosing, lexicon=lex) == Act(Bid(4))
    assert other not in choosing
    yes = lex.answers["yes"][0]
    assert understand(heard(yes, 0.9), choosing, lexicon=lex) == Confirm(True)
    # A choice heard with doubt is asked about again, never taken.
    doubtful = understand(heard(answer, 0.3), choosing, lexicon=lex)
    assert isinstance(doubtful, Propose) and doubtful.intent == Act(Bid(3))


def test_an_answer_nearly_heard_makes_a_named_choice_doubtful() -> None:
    lex = lexicon_for("it")
    offered = (Act(Bid(4)), Act(Bid(6)))
    choosing = bid_table(lex, confirming=True, offered=offered)
    # "sì" heard as "sei": acting on six would be wrong, so it is asked about.
    result = understand(heard("sei", 0.8, (("sì", 0.2),)), choosing, lexicon=lex)
    assert isinstance(result, Propose)


def test_english_questions_offer_no_runner_up() -> None:
    lex = lexicon_for("en")
    table = bid_table(lex)
    result = understand(heard("four", 0.6, (("three", 0.3),)), table, lexicon=lex)
    assert isinstance(result, Propose)
    assert Catalog("en").render_message(result.question) == "Bid four?"  # type: ignore[arg-type]
    assert offered_choices(read(heard("four", 0.6, (("three", 0.3),)), table, lex),
                           table, lex) == ()


def test_a_doubtful_card_offers_the_close_second() -> None:
    lex, words = lexicon_for("it"), Catalog("it", strict=True)
    table = play_table(lex, "AH 8H 2C")
    result = understand(heard("otto di cuori", 0.6, (("asso di cuori", 0.35),)), table,
                        lexicon=lex)
    assert isinstance(result, Propose)
    assert words.render_message(result.question) == "Otto di cuori? O asso di cuori?"
    assert understand(heard("due di fiori", 0.99), table, lexicon=lex) == Act(Card.parse("2C"))


def test_the_lowest_card_heard_surely_is_still_asked_about_in_italian() -> None:
    # "la più alta" is heard as "la più bassa" with full confidence by some voices:
    # the highest card is offered, and only a suit with one card is played at once.
    lex, words = lexicon_for("it"), Catalog("it", strict=True)
    table = play_table(lex, "AH 8H 2C")
    result = understand(heard("la più bassa di cuori", 1.0), table, lexicon=lex)
    assert isinstance(result, Propose) and result.intent == Act(Card.parse("8H"))
    assert "asso di cuori" in words.render_message(result.question)  # type: ignore[arg-type]
    assert isinstance(understand(heard("la più alta di cuori", 1.0), table, lexicon=lex),
                      Propose)
    assert understand(heard("la più bassa di fiori", 1.0), table, lexicon=lex) == \
        Act(Card.parse("2C"))
    english = lexicon_for("en")
    assert understand(heard("lowest heart", 1.0), play_table(english, "AH 8H 2C"),
                      lexicon=english) == Act(Card.parse("8H"))


def test_a_french_seven_is_asked_about_when_this_card_was_weighed_at_all() -> None:
    # "sept" and "cette" sound the same: "joue cette carte" was played as "joue sept de
    # cœur" with the right phrase its runner-up at 0.2%.
    lex = lexicon_for("fr")
    table = play_table(lex, "7H 2C", cursor="2C")
    seven = heard("joue sept de cœur", 0.71, (("joue cette carte", 0.002),))
    assert read(seven, table, lex).rivals == (PlayCurrent(),)
    result = understand(seven, table, lexicon=lex)
    assert isinstance(result, Propose) and result.intent == Act(Card.parse("7H"))
    assert understand(heard("joue sept de cœur", 0.71, (("joue deux de trèfle", 0.002),)),
                      table, lexicon=lex) == Act(Card.parse("7H"))


@pytest.mark.parametrize("language", OTHER)
def test_the_answers_of_the_language_are_yes_no_and_cancel(language: str) -> None:
    lex = lexicon_for(language)
    table = bid_table(lex, confirming=True)
    for key, meaning in (("yes", Confirm(True)), ("no", Confirm(False)), ("cancel", Cancel())):
        for phrase in lex.answers[key]:
            assert table.intent(phrase) == meaning, phrase


@pytest.mark.parametrize(("language", "yes"), [("it", "sì"), ("fr", "oui")])
def test_an_answer_heard_unsurely_is_said_again_not_taken(language: str, yes: str) -> None:
    lex = lexicon_for(language)
    table = bid_table(lex, confirming=True)
    assert understand(heard(yes, 0.06), table, lexicon=lex) == NotUnderstood(yes)
    assert understand(heard(yes, 0.7), table, lexicon=lex) == Confirm(True)
    english = lexicon_for("en")
    assert understand(heard("yes", 0.06), bid_table(english, confirming=True),
                      lexicon=english) == Confirm(True)


def test_voice_listens_in_the_games_language() -> None:
    from voice_spades.narration.catalog import active_language
    from voice_spades.voice.listener import voice_language

    assert voice_language("fr") == "fr"
    assert voice_language(None) == active_language()
    assert voice_language("de") == "en"
