"""The friend's page of a table server (loopback), before they sit down: the join form
passes axe-core's WCAG A/AA rules and 7:1 contrast, reflows at 320 CSS px and at 400%
zoom with every target at least 44 x 44 px, and its refusal reads as an alert."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.browser import Browser
from voice_spades.server.app import ServerThread
from voice_spades.server.hub import Hub
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.web.friend_page import friend_routes, loopback_url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    store = SQLiteStore(Path(tmp_path_factory.mktemp("join")) / "tables.sqlite3")
    thread = ServerThread(lambda: Hub(store, bot_delay=0.0))
    thread.routes = friend_routes(loopback_url(thread.host, thread.port), pace=0.0)
    yield thread.start()
    thread.stop()
    store.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_join_form_is_accessible_and_reflows(
        server: ServerThread, browser: Browser, language: str) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/?lang={language}")
    browser.wait_for("!document.getElementById('join').hidden", 10)
    problems = browser.axe()
    assert not problems, "\n".join(problems)
    low = [text for text in browser.texts() if text.ratio < 7]
    assert not low, low
    for width, zoom in ((1280, 1.0), (320, 1.0), (1280, 4.0)):
        browser.viewport(width, 900, zoom)
        assert browser.overflow() == 0, (width, zoom)
        assert browser.small_targets() == [], (width, zoom)
        assert browser.unreachable("#join input, #join button, #languages a") == []
    browser.screenshot(f"join-{language}-320-zoom-400")
    browser.viewport(1280, 900)
    browser.js("document.getElementById('join-code').value = '000000';"
               "document.getElementById('join-button').click()")
    problem = browser.wait_for("document.getElementById('join-problem').textContent", 10)
    assert "000000" in problem
    assert browser.accessible("document.getElementById('join-problem')")[0] == "alert"
    problems = browser.axe()
    assert not problems, "\n".join(problems)
