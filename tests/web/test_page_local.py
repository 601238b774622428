"""The local game's page in a real Chromium: a whole hand played by keys in the page,
a key in the terminal and one in the page each acting once, both in step."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.web.browser import Browser
from tests.web.page_game import (
    PageGame,
    body,
    click,
    cursor,
    hand,
    play_hand_by_keys,
    press,
    wait_until,
)

pytestmark = pytest.mark.skipif(shutil.which("chromedriver") is None,
                                 reason="Debian's chromium-driver is not installed "
                                        "(scripts/bootstrap.sh --test installs it)")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageGame]:
    running = PageGame(tmp_path_factory.mktemp("page-game"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def page(game: PageGame, browser: Browser) -> WebDriver:
    """The shared Chromium, showing the game's page."""
    browser.open(game.address)
    return browser.driver


def test_a_whole_hand_is_played_by_keys_in_the_page(game: PageGame, page: WebDriver) -> None:
    wait_until("the table", lambda: body(page, "seq"))
    assert body(page, "hand") == "1"
    played = play_hand_by_keys(page)
    assert played == 13
    assert body(page, "hand") == "2"
    rows = page.execute_script("return [...document.querySelectorAll('#scores tbody tr')]"
                               ".map(row => [...row.cells].map(cell => cell.textContent))")
    assert len(rows) == 2 and any(row[1] != "0" for row in rows), rows  # side, points, bags
    assert page.find_element(By.ID, "log").get_attribute("aria-live") == "polite"
    assert "Hand 2" in page.execute_script("return document.getElementById('log').textContent")
    assert any(line.startswith("Hand 2") for line in game.said())  # the terminal says it too


def test_a_key_in_the_terminal_and_one_in_the_page_each_act_once(
        game: PageGame, page: WebDriver) -> None:
    wait_until("a hand with a cursor", lambda: cursor(page))
    cards = hand(page)
    first = cards.index(cursor(page))
    assert first + 2 < len(cards), "the cursor starts near the hand's end"
    said = len(game.said())
    game.type("right")
    wait_until("the terminal's key", lambda: cursor(page) == cards[first + 1])
    press(page, Keys.ARROW_RIGHT)
    wait_until("the page's key", lambda: cursor(page) == cards[first + 2])
    time.sleep(0.3)  # a key acting twice would move the cursor on by now
    assert cursor(page) == cards[first + 2]
    focused = page.switch_to.active_element
    assert focused.get_attribute("data-code") == cards[first + 2]
    name = re.sub(r", .*", "", focused.find_element(By.CSS_SELECTOR, ".card-name")
                  .get_attribute("textContent") or "")
    answers = [line for line in game.said()[said:] if name.lower() in line.lower()]
    assert len(answers) == 1, game.said()[said:]


def test_the_screen_reader_switch_is_the_game_s_and_lines_still_reach_the_terminal(
        game: PageGame, page: WebDriver) -> None:
    switch = page.find_element(By.ID, "reader-switch")
    assert switch.get_attribute("aria-pressed") == "false"
    assert not page.find_element(By.ID, "speech-switch").is_displayed()  # the game speaks
    assert not page.find_element(By.ID, "join").is_displayed()
    switch.click()
    wait_until("the switch on", lambda: switch.get_attribute("aria-pressed") == "true")
    said = len(game.said())
    game.type("s")  # the scores, asked in the terminal: printed there, shown in the page
    wait_until("the scores said", lambda: len(game.said()) > said)
    switch.click()
    wait_until("the switch off", lambda: switch.get_attribute("aria-pressed") == "false")


def test_a_bid_button_and_a_card_clicked_act_as_the_keys_do(
        game: PageGame, page: WebDriver) -> None:
    wait_until("the bid buttons", lambda: body(page, "act") == "true"
               and body(page, "phase") == "bid", 30)
    said = len(game.said())
    click(page, "#bid-buttons button.bid:nth-child(5)")
    game.wait_for(re.compile(r"^You bid 4\.$"), 10, said)
    wait_until("the player's first card", lambda: body(page, "act") == "true"
               and body(page, "phase") == "play", 30)
    code = hand(page, "#hand button.playable")[-1]
    click(page, f"#hand button[data-code='{code}']")
    wait_until("the card gone from the hand", lambda: code not in hand(page))
    assert any(line.startswith("You played") for line in game.said()[said:])


def test_enter_on_a_switch_turns_it_and_plays_nothing(game: PageGame, page: WebDriver) -> None:
    switch = page.find_element(By.ID, "theme-switch")
    page.execute_script("arguments[0].focus()", switch)
    held = page.execute_script("return document.querySelectorAll('#hand button').length")
    said = len(game.said())
    press(page, Keys.ENTER)
    wait_until("the dark theme", lambda: page.execute_script(
        "return document.documentElement.dataset.theme") == "dark")
    press(page, Keys.ENTER)
    wait_until("the light theme", lambda: page.execute_script(
        "return document.documentElement.dataset.theme") == "light")
    time.sleep(0.3)  # an Enter sent to the game would be answered by now
    assert page.execute_script("return document.querySelectorAll('#hand button').length") \
        == held
    # The computer players play on meanwhile; the player neither played nor was answered.
    assert not [line for line in game.said()[said:]
                if line.startswith(("You played", "Not your turn", "You bid"))]
