"""Choosing the language, and the field forms that make Italian and French sentences
agree: a card with its article, a list of cards with theirs, the listener's verb.

The system's language is read from the POSIX environment for real; Windows' user
locale only through its seam (``windows_locale``), as nothing of Windows runs here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_spades.engine import Card, Suit, profile
from voice_spades.messages import Message
from voice_spades.narration import CATALOG, Phrasebook, Verbosity, render
from voice_spades.narration.catalog import Catalog, active_language, catalog, set_language
from voice_spades.narration.forms import Spelled, capital, fill
from voice_spades.narration.language import (
    choose_language,
    language_of_locale,
    requested_language,
    start_language,
    system_language,
    use_language,
    windows_locale_name,
    without_language_option,
)
from voice_spades.narration.templates import load_templates
from voice_spades.storage.preferences import Preferences, save_preferences

PAGAT = profile("pagat")


@pytest.fixture(autouse=True)
def keep_the_language() -> Iterator[None]:
    before = active_language()
    yield
    set_language(before)


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


# ----- articles and agreement ------------------------------------------------------------
@pytest.mark.parametrize(("language", "expected"), [
    ("it", ["la donna di cuori", "il re di picche", "l'asso di picche", "il 7 di quadri",
            "l'8 di fiori", "il fante di fiori", "il 10 di cuori"]),
    ("fr", ["la dame de cœur", "le roi de pique", "l'as de pique", "le 7 de carreau",
            "le 8 de trèfle", "le valet de trèfle", "le 10 de cœur"]),
    ("en", ["the queen of hearts", "the king of spades", "the ace of spades",
            "the 7 of diamonds", "the 8 of clubs", "the jack of clubs", "the 10 of hearts"]),
])
def test_a_card_with_its_article(language: str, expected: list[str]) -> None:
    words = Catalog(language, strict=True)
    named = [words.card(card) for card in cards("QH KS AS 7D 8C JC 10H")]
    assert [card.forms["the"] for card in named] == expected
    assert fill("{Card:the}.", {"card": named[2]}) == capital(expected[2]) + "."


def test_bare_names_and_suits_with_their_article() -> None:
    italian, french = Catalog("it", strict=True), Catalog("fr", strict=True)
    assert italian.card(Card.parse("QH")) == "donna di cuori"
    assert french.card(Card.parse("AS")) == "as de pique"
    assert [italian.suit(s).forms["the"] for s in Suit] == \
        ["i fiori", "i quadri", "i cuori", "le picche"]
    assert [french.suit(s).forms["the"] for s in Suit] == \
        ["les trèfles", "les carreaux", "les cœurs", "les piques"]


def test_cards_of_one_suit_each_with_its_article_english_unchanged() -> None:
    italian, french, english = (Catalog(lang, strict=True) for lang in ("it", "fr", "en"))
    assert italian.cards(cards("9H 4H")) == "il 4 e il 9 di cuori"
    assert italian.cards(cards("AH 8H")) == "l'8 e l'asso di cuori"
    assert french.cards(cards("9H 4H")) == "le 4 et le 9 de cœur"
    assert french.cards(cards("AS 8S 2S")) == "le 2, le 8 et l'as de pique"
    assert english.cards(cards("9H 4H")) == "the 4 and 9 of hearts"
    five = italian.cards(cards("2H 3H 4H 6H 9H"))
    assert five.startswith("il 2, il 3, il 4 e ") and five.endswith(" di cuori")


def test_cards_of_several_suits_grouped_with_articles() -> None:
    italian = Catalog("it", strict=True)
    grouped = italian.grouped(cards("AS 9H 4H"))
    assert grouped == "asso di picche; 9 e 4 di cuori"
    assert grouped.forms["the"] == "l'asso di picche; il 9 e il 4 di cuori"


def test_the_listener_gets_the_first_text_anyone_else_their_name_and_the_second() -> None:
    words = Phrasebook(PAGAT, 0, words=Catalog("it", strict=True))
    card = words.card(Card.parse("QH"))
    template = "{Seat:Hai|ha} giocato {card:the}."
    said = [fill(template, {"seat": words.seat(seat), "card": card}) for seat in range(4)]
    assert said[0] == "Hai giocato la donna di cuori."
    assert said[1] == "Ovest ha giocato la donna di cuori."
    partner = str(words.seat(2))
    assert said[2] == capital(partner) + " ha giocato la donna di cuori." and "Nord" in partner
    assert words.side(0).listener and not words.side(1).listener
    assert fill("{seat:A|}", {"seat": Spelled("Est")}) == "Est"


def test_a_message_from_the_engine_takes_its_forms_in_the_language() -> None:
    words = Phrasebook(PAGAT, 0, words=Catalog("it", strict=True))
    text = words.message(Message("refusal.must_follow", suit=Suit.HEARTS,
                                 held=cards("4H AH")))
    assert "il 4 e l'asso di cuori" in text


def test_a_form_the_value_lacks_is_an_error_in_tests_and_the_bare_name_in_the_game() -> None:
    with pytest.raises(KeyError):
        fill("{name:the}", {"name": "pagat"})
    with pytest.raises(KeyError):
        fill("{card:of}", {"card": Spelled("as", {"the": "l'as"})})
    assert fill("{name:the}", {"name": "pagat"}, strict=False) == "pagat"
    assert fill("{n:the}", {"n": 3}, strict=False) == "3"
    assert fill("{done:.1f}%", {"done": 12.54}) == "12.5%"


def test_a_language_that_lacks_a_message_says_it_in_english_in_the_game_only() -> None:
    lenient, strict = Catalog("it"), Catalog("it", strict=True)
    assert set(lenient.templates) >= set(load_templates("en"))
    assert set(strict.templates) == set(load_templates("it"))
    assert lenient.templates["word.rank.12"].normal == "donna"


# ----- the active language ---------------------------------------------------------------
def test_set_language_changes_what_render_and_catalog_say() -> None:
    assert render("word.rank.12") == "queen"
    set_language("it")
    assert active_language() == "it" and render("word.rank.12") == "donna"
    assert CATALOG["word.rank.12"].normal == "donna"
    assert Phrasebook(PAGAT).card(Card.parse("QH")).forms["the"] == "la donna di cuori"
    set_language("fr")
    assert render("word.rank.12") == "dame" and catalog().language == "fr"


def test_catalogs_are_loaded_once_whichever_thread_asks_first() -> None:
    found: list[Catalog] = []
    threads = [threading.Thread(target=lambda: found.append(catalog("fr"))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(c) for c in found}) == 1 and found[0] is catalog("fr")


def test_an_unknown_language_leaves_english_and_says_so() -> None:
    set_language("it")
    said = use_language("de")
    assert active_language() == "en"
    assert [m.id for m in said] == ["language.unavailable"]
    assert use_language("fr") == [] and active_language() == "fr"


# ----- where the language comes from -----------------------------------------------------
@pytest.mark.parametrize(("name", "code"), [
    ("it_IT.UTF-8", "it"), ("it_CH", "it"), ("fr_FR@euro", "fr"), ("fr-CA", "fr"),
    ("French_France.1252", "fr"), ("Italian_Italy", "it"), ("en_GB.UTF-8", "en"),
    ("de_DE.UTF-8", None), ("C", None), ("POSIX", None), ("C.UTF-8", None), ("", None),
    (None, None),
])
def test_a_locale_name_gives_its_language(name: str | None, code: str | None) -> None:
    assert language_of_locale(name) == code


@pytest.mark.parametrize(("environ", "code"), [
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "it_IT.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "it_IT.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "fr_BE.UTF-8"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}, "en"),
])
def test_the_posix_environment_decides_as_for_the_c_library(environ: dict[str, str],
                                                            code: str) -> None:
    assert system_language(environ, platform="linux") == code


def test_with_no_locale_variable_python_s_locale_decides() -> None:
    import locale

    expected = language_of_locale(locale.getlocale()[0]) or "en"
    assert system_language({}, platform="linux") == expected


@pytest.mark.parametrize(("user_locale", "code"), [
    ("it-IT", "it"), ("fr-CH", "fr"), ("en-US", "en"), ("de-DE", "en")])
def test_windows_uses_the_user_locale(user_locale: str, code: str) -> None:
    # The seam: GetUserDefaultLocaleName cannot run here. The environment is ignored.
    assert system_language({"LANG": "it_IT"}, platform="win32",
                           windows_locale=lambda: user_locale) == code


def test_windows_locale_is_none_elsewhere() -> None:
    assert windows_locale_name() is None


def test_the_option_beats_the_preference_which_beats_the_system() -> None:
    assert choose_language("fr", "it", lambda: "en") == "fr"
    assert choose_language(None, "it", lambda: "fr") == "it"
    assert choose_language(None, None, lambda: "fr") == "fr"


@pytest.mark.parametrize(("argv", "found"), [
    (["--language", "IT", "--data-dir", "x"], ("it", "x")),
    (["--new", "--language=fr"], ("fr", None)),
    (["--language", "de"], (None, None)),
    (["--language"], (None, None)),
    (["--lang", "it"], (None, None)),  # the real parser takes abbreviations
    ([], (None, None)),
])
def test_the_language_is_read_before_the_parser(argv: list[str],
                                                found: tuple[str | None, str | None]) -> None:
    assert requested_language(argv) == found


def test_start_language_follows_the_preference_unless_an_option_is_typed(tmp_path: Path
                                                                         ) -> None:
    save_preferences(tmp_path, Preferences(language="fr"))
    assert start_language(["--data-dir", str(tmp_path)], system=lambda: "it") == []
    assert active_language() == "fr"
    start_language(["--data-dir", str(tmp_path), "--language", "it"], system=lambda: "en")
    assert active_language() == "it"
    start_language(["--data-dir", str(tmp_path / "none")], system=lambda: "en")
    assert active_language() == "en"


def test_the_option_is_taken_out_for_commands_that_do_not_take_it() -> None:
    assert without_language_option(["list", "--language", "it"]) == ["list"]
    assert without_language_option(["--language=fr", "--games", "2"]) == ["--games", "2"]


def test_a_template_may_write_in_lower_case_what_the_game_passes_capitalised() -> None:
    words = Phrasebook(PAGAT, 0, words=Catalog("it", strict=True))
    them = words.side(1)
    assert fill("La partita va a {side}.", {"Side": words.side_cap(1)}) == \
        f"La partita va a {them}."
    assert fill("{side:avete|hanno}", {"Side": words.side_cap(0)}) == "avete"
    with pytest.raises(KeyError):
        fill("{side}", {"Side": "Loro"})  # plain text cannot be told apart


@pytest.mark.parametrize(("language", "pair", "alone"), [
    ("it", "Loro hanno vinto la partita!", "Ovest ha vinto la partita!"),
    ("fr", "Eux ont gagné la partie\u202f!", "Ouest a gagné la partie\u202f!"),
])
def test_a_side_of_one_player_takes_the_singular_verb(language: str, pair: str,
                                                      alone: str) -> None:
    set_language(language)
    brief = Verbosity.BRIEF
    four = Phrasebook(profile("pagat"), 1, brief)  # East: the other side is a pair
    three = Phrasebook(profile("playroom", players=3), 0, brief)  # every side is one seat
    assert four.say("match.won_side", Side=four.side_cap(0), scores="", hands=3) == pair
    west = next(s for s in range(3) if three.side(s) == three.seat(1))
    assert three.say("match.won_side", Side=three.side_cap(west), scores="", hands=3) == alone
