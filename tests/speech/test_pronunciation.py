"""espeak-ng says the game's Italian and French words right, as the phonemes show.

The respellings (``voice_spades/speech/pronunciations/<lang>.toml``) are checked on
what espeak-ng itself will say (``espeak-ng -q -x -v it``): each fixes a word espeak-ng
says wrong (and the test shows it still does, so a fix that is no longer needed is
noticed), every card of the game, bare and with its article, keeps its number or face
as said alone, and the table's own words are said as players say them. The voice of
the language is chosen by itself, ``--voice`` still wins, and only the speech is
respelled: the printed line is the catalog's.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_spades.engine import Card, Suit
from voice_spades.narration.catalog import Catalog, active_language, set_language
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.pronounce import respell, respellings
from voice_spades.speech.synth import SynthClient
from voice_spades.speech.wav_speaker import WavSpeaker

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="no espeak-ng")]

LANGUAGES = ("it", "fr")

FIXES = [
    # (language, text, said wrong as, said right as)
    ("it", "Hai giocato l'8 di fiori", "'Elle", "l'Ot:o"),
    ("it", "la presa con l'8 di cuori", "'Elle", "l'Ot:o"),
    ("it", "dell'11", "'El_:_: 'unditSI", "dell'unditSI"),
    ("it", "Hai vinto 1 presa", "'uno p", "Una p"),
    ("it", "Nord ha 1 sacco", "'uno s'ak:o", "Un s'ak:o"),
    ("it", "Est ha vinto", "'est", "'Est"),
    ("it", "Nord-est ha vinto", "d'est", "d'Est"),
    ("it", "Spades", "sp'ades", "sp'Ejds"),
    ("it", "Premi Ctrl N", "tS,it,I", "k'ont@-*ol"),
    ("it", "Backspace", "bak:sp'atSe", "b'Ekspeis"),
    ("it", "giocala", "dZok'ala", "dZ'Okala"),
    ("it", "Scambiale", "skambj'ale", "sk'ambjale"),
    ("fr", "le 6 de cœur", "s'i d@-", "s'is d@-"),
    ("fr", "le 10 de pique", "d'i d@-", "d'is d@-"),
    ("fr", "le 8 de trèfle", "y'i d@-", "y'it d@-"),
    ("fr", "Est a joué", "Et2 a", "'Est a"),
    ("fr", "Vous avez 1 carte", "'W~ k", "yn k"),
    ("fr", "Spades", "sp'ad", "sp'Edz"),
]
"""What each respelling is for: espeak-ng's phonemes before and after it."""

TABLE_WORDS = {
    "it": {"presa": "p@-*'eza", "smazzata": "zmats2:'ata", "mazziere": "mats2:i;'ERe",
           "dichiarazione": "dikja*atsi;'one", "Nil": "n'il", "picche": "p'ik:e",
           "cuori": "kU'ORI", "quadri": "kw'ad@-*I", "fiori": "fj'oRI", "asso": "'asso",
           "donna": "d'Onna", "fante": "f'ante", "Ovest": "'Ovest", "Boston": "b'Oston",
           "sacchi": "s'ak:I"},
    "fr": {"pli": "pl'i", "contrat": "kO~tr'a", "donneur": "dOn'Wr", "pique": "p'ik",
           "cœur": "k'Wr", "carreau": "kar'o", "trèfle": "tr'Efl", "as": "'as",
           "dame": "d'am", "valet": "val'E", "roi": "rw'a", "nil": "n'il",
           "sacs": "s'ak", "Ouest": "w'Est", "Boston": "bOst'O~"},
}
"""The seeds' words and how players say them, as espeak-ng writes that."""


def phonemes(language: str, texts: list[str]) -> list[str]:
    """espeak-ng's phonemes for each text (one sentence each, said at once)."""
    result = subprocess.run(["espeak-ng", "-q", "-x", "-v", language, "--stdin"],
                            input="".join(f"{t}.\n\n" for t in texts), capture_output=True,
                            text=True, check=True, timeout=60)
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == len(texts), (texts, lines)
    return lines


def spoken(language: str, texts: list[str]) -> list[str]:
    return phonemes(language, [respell(t, language) for t in texts])


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_fix_is_still_needed_and_works(language: str) -> None:
    cases = [case for case in FIXES if case[0] == language]
    before = phonemes(language, [text for _, text, _, _ in cases])
    after = spoken(language, [text for _, text, _, _ in cases])
    for (_, text, wrong, right), said, fixed in zip(cases, before, after, strict=True):
        assert wrong in said, f"espeak-ng now says {text!r} as {said!r}: is the fix needed?"
        assert right in fixed and wrong not in fixed, f"{text!r} is said {fixed!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_keeps_its_number_or_face_as_said_alone(language: str) -> None:
    words = Catalog(language, strict=True)
    cards = [Card(suit, rank) for suit in Suit for rank in range(2, 15)]
    names = [form for card in cards
             for form in (str(words.card(card)), words.card(card).forms["the"])]
    alone = spoken(language, [str(words.rank(rank)) for rank in range(2, 15)])
    said = spoken(language, names)
    for index, (name, phones) in enumerate(zip(names, said, strict=True)):
        rank_said = alone[cards[index // 2].rank - 2].strip("_:| ")
        assert rank_said in phones, f"{name!r} is said {phones!r}, without {rank_said!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_words_are_said_as_players_say_them(language: str) -> None:
    table = TABLE_WORDS[language]
    for (word, expected), said in zip(table.items(), spoken(language, list(table)),
                                      strict=True):
        assert said == expected, f"{word!r} is said {said!r}"


def test_respellings_are_data_and_english_has_none() -> None:
    assert respellings("en") == ()
    assert len(respellings("it")) >= 5 and len(respellings("fr")) >= 5
    assert respell("L'8 di cuori e l'asso", "it") == "L'otto di cuori e l'asso"
    assert respell("Est-ce que Nord-Est a le 10 de pique ?", "fr") == \
        "Est-ce que Nord-Est a le disse de pique ?"


# ----- the voice of the language, with the real synthesizer ------------------------------
@pytest.fixture
def italian() -> Iterator[None]:
    before = active_language()
    set_language("it")
    yield
    set_language(before)


def seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


RAW = "Hai giocato l'8 di fiori."
FIXED = "Hai giocato l'otto di fiori."
SAME = 0.05
"""Seconds two syntheses of the same text and voice may differ by (espeak-ng's runs vary
by a few milliseconds); "l'8" read as "elle otto", or an English voice, adds 0.3 s."""


@pytest.mark.slow
def test_the_language_voice_is_chosen_and_the_voice_option_still_wins(tmp_path: Path,
                                                                      italian: None) -> None:
    client, english = SynthClient(), SynthClient(language="en")
    try:
        assert client.language == "it" and client.language_voice("it") == "roa/it"
        assert english.language_voice("en") is None  # English keeps the default voice
        client.synth(RAW, tmp_path / "auto.wav", 200, None, 50)
        client.synth(FIXED, tmp_path / "fixed.wav", 200, "roa/it", 50)
        english.synth(RAW, tmp_path / "unfixed.wav", 200, "roa/it", 50)
        english.synth(FIXED, tmp_path / "english_voice.wav", 200, None, 50)
        client.synth(FIXED, tmp_path / "chosen.wav", 200, "gmw/en", 50)  # --voice wins
    finally:
        client.close()
        english.close()
    auto = seconds(tmp_path / "auto.wav")
    assert abs(auto - seconds(tmp_path / "fixed.wav")) < SAME
    assert seconds(tmp_path / "unfixed.wav") - auto > 4 * SAME
    assert seconds(tmp_path / "english_voice.wav") - auto > 4 * SAME
    assert abs(seconds(tmp_path / "chosen.wav") - seconds(tmp_path / "english_voice.wav")) \
        < SAME


@pytest.mark.slow
def test_only_the_speech_is_respelled_not_the_printed_line(tmp_path: Path,
                                                          italian: None) -> None:
    printed = io.StringIO()
    speaker = WavSpeaker(tmp_path / "said")
    try:
        Announcer(speaker, stream=printed).say(RAW)
        assert speaker.wait_idle(20)
        [said] = speaker.files()
    finally:
        speaker.close()
    client = SynthClient()
    try:
        client.synth(FIXED, tmp_path / "fixed.wav", 200, "roa/it", 50)
    finally:
        client.close()
    assert printed.getvalue().strip() == RAW
    assert abs(seconds(said) - seconds(tmp_path / "fixed.wav")) < SAME
