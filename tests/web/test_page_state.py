"""What the page is sent and what it may send, without a browser: one seat's view only,
named in the page's language; anything a page sends that is not a known message is
ignored, and what is known goes through the session as a key does."""

from __future__ import annotations

import io
import json
import re

import pytest

from voice_spades.engine import Match, profile
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.narration import Line, LineKind
from voice_spades.narration.catalog import catalog
from voice_spades.session import GameSettings, Pacer, Ports, Session
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.web.local_page import LocalPage
from voice_spades.web.page_app import carry_out
from voice_spades.web.page_output import PageOutput, SilentOutput
from voice_spades.web.page_state import Cursor, PageWords, page_state

SEED = 11


def seeded_page(language: str | None = None) -> tuple[Session, LocalPage]:
    match = Match(profile("pagat"), SEED)
    output = PageOutput(SilentOutput(), SilentOutput())
    session = Session(match, Ports(output, pacer=Pacer(lambda: False, min_gap=0.0)),
                      settings=GameSettings(rules="pagat", seed=SEED))
    page = LocalPage(session, KeyboardInput(session, load_keymap(None)), output,
                     language=language)
    output.said = page.said
    session.start()
    return session, page


def test_a_page_gets_its_own_cards_only_and_no_seed() -> None:
    session, page = seeded_page()
    session.play_bots()
    state = page.state()
    text = json.dumps(state, ensure_ascii=False)
    shown = set(re.findall(r'"code": "([0-9JQKA]{1,2}[SHDC])"', text))
    own = {card.code for card in session.match.view(0).hand_cards}
    assert {card["code"] for card in state["hand"]} == own and len(own) == 13
    on_table = {card.code for _, card in session.match.view(0).trick}
    assert shown <= own | on_table
    others = {card.code for seat in (1, 2, 3) for card in session.match.view(seat).hand_cards}
    assert not shown & others
    assert "seed" not in text
    assert state["v"] == 1 and state["t"] == "state"


@pytest.mark.parametrize(("language", "playable", "unplayable"), [
    ("en", ", playable", ", not playable now"),
    ("it", ", giocabile", ", non giocabile ora"),
    ("fr", ", jouable", ", pas jouable maintenant"),
])
def test_cards_are_named_in_the_page_s_language(language: str, playable: str,
                                                unplayable: str) -> None:
    match = Match(profile("pagat"), SEED)
    view = match.view(0)
    words = PageWords(catalog(language), view, 0)
    first = view.hand_cards[0]
    state = page_state(view, Cursor(card=first), words, seq=1, over=False)
    hand = state["hand"]
    assert isinstance(hand, list)
    cursor = next(card for card in hand if card["cursor"])
    assert cursor["code"] == first.code
    assert cursor["label"] == catalog(language).card(first) + (
        playable if cursor["playable"] else unplayable)


@pytest.mark.parametrize("frame", [
    "", "not json", "[1, 2]", '"key"', "null", '{"t": "key"}', '{"t": "key", "key": 7}',
    '{"t": "key", "key": ""}', '{"t": "key", "key": "' + "x" * 5000 + '"}',
    '{"t": "card", "card": "ZZ"}', '{"t": "card", "card": ["AS"]}',
    '{"t": "bid", "bid": true}', '{"t": "bid", "bid": 99}', '{"t": "bid", "bid": -1}',
    '{"t": "reader", "on": "yes"}', '{"t": "rendered", "seq": "1"}',
    '{"t": "shutdown"}', '{"t": {"a": 1}}', '[' * 10000,
])
def test_anything_else_a_page_sends_is_ignored(frame: str) -> None:
    session, page = seeded_page()
    before = session.cursor_card
    carry_out(page, frame)
    while session.step():
        pass
    assert session.running and session.cursor_card == before


def test_a_page_s_key_goes_through_the_session_as_the_terminal_s() -> None:
    session, page = seeded_page()
    session.play_bots()
    cards = [card["code"] for card in page.state()["hand"]]
    first = session.cursor_card
    assert first is not None
    carry_out(page, json.dumps({"t": "key", "key": "right"}))
    while session.step():
        pass
    assert session.cursor_card is not None
    assert cards.index(session.cursor_card.code) == cards.index(first.code) + 1
    said = page.log.lines[-1]["text"]
    assert catalog().card(session.cursor_card) in str(said)


def test_the_screen_reader_switch_moves_the_lines_from_the_voice_to_print() -> None:
    voiced_text, quiet_text = io.StringIO(), io.StringIO()
    shown: list[str] = []
    output = PageOutput(AnnouncerOutput(Announcer(stream=voiced_text)),
                        AnnouncerOutput(Announcer(stream=quiet_text)),
                        lambda lines: shown.extend(line.text for line in lines))
    output.emit([Line("a", "First line.", kind=LineKind.EVENT)])
    output.set_reader(True)
    output.emit([Line("b", "Second line.", kind=LineKind.EVENT)])
    output.set_reader(False)
    output.emit([Line("c", "Third line.", kind=LineKind.EVENT)])
    assert voiced_text.getvalue().split() == ["First", "line.", "Third", "line."]
    assert quiet_text.getvalue().split() == ["Second", "line."]
    assert shown == ["First line.", "Second line.", "Third line."]


def test_a_refusal_is_marked_for_the_page_to_say_at_once() -> None:
    session, page = seeded_page()
    session.play_bots()  # the player's bid
    carry_out(page, json.dumps({"t": "card", "card": page.state()["hand"][0]["code"]}))
    while session.step():
        pass
    refusal = page.log.lines[-1]
    assert refusal["error"] is True and refusal["id"].startswith(("error.", "refusal."))
    assert page.log.lines[0]["error"] is False
