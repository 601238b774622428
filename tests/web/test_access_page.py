"""The large-print page of a real game (``voice-spades --web``) checked in Chromium:
axe-core's WCAG A/AA rules and 7:1 contrast, computed contrast, the focus ring, reflow
at 320 CSS px and at 200% and 400% zoom, targets, forced colours, and the focus and
accessible name after each cursor key; at the start of a hand (13 cards, the bid
asked), at a question and in the middle of a trick, in the light and dark themes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.web.browser import Browser
from tests.web.page_game import PageGame
from voice_spades.engine import Card
from voice_spades.keys.keymap import load_keymap
from voice_spades.narration.catalog import Catalog

CARDS = "#hand button.card"
LANGUAGES = ("en", "it", "fr")
CURSOR_ACTIONS = ("next_card", "previous_card", "highest", "lowest", "next_suit",
                  "previous_suit", "jump_spades", "jump_hearts", "jump_diamonds",
                  "jump_clubs")
"""keymap.toml's actions that move the cursor in the hand."""
FIGURES: dict[str, float] = {}
"""The smallest ratios and sizes measured, printed at the end (docs/measurements.md)."""


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[PageGame]]]:
    """Fresh games (seed 3) in English, Italian and French, started side by side."""
    with ThreadPoolExecutor(len(LANGUAGES)) as pool:
        started = {language: pool.submit(
            PageGame, tmp_path_factory.mktemp(f"access-{language}"), "--language", language,
            seed=3) for language in LANGUAGES}
        try:
            yield started
        finally:
            for game in started.values():
                game.result().stop()


@pytest.fixture(scope="module")
def page(games: dict[str, Future[PageGame]], browser: Browser) -> Iterator[Browser]:
    """The browser on the English game's page, at its first bid."""
    game = games["en"].result()
    _open(browser, game)
    yield browser
    _report()


def _open(browser: Browser, game: PageGame) -> None:
    browser.open(game.address)
    try:
        browser.wait_for(f"document.querySelectorAll('{CARDS}').length === 13 "
                         "&& document.body.dataset.act === 'true'", 20)
    except TimeoutError:
        print(browser.js("return document.body.outerHTML.slice(0, 3000)"), game.said())
        raise


def _report() -> None:
    if FIGURES:
        print("\nlarge print figures: " + ", ".join(
            f"{name} {value:.2f}" for name, value in sorted(FIGURES.items())))


def _least(name: str, value: float) -> None:
    FIGURES[name] = min(value, FIGURES.get(name, value))


def _press(page: Browser, key: str, until: str | None = None) -> None:
    """Press ``key`` in the page and wait until ``until`` (a script expression) holds,
    or by default until the page has drawn a new state from the game."""
    seq = int(page.js("return Number(document.body.dataset.seq || 0)"))
    page.press(key)
    try:
        page.wait_for(until or f"Number(document.body.dataset.seq) > {seq}", 5)
    except TimeoutError:
        print(key, page.js("return [JSON.stringify(document.body.dataset), "
                           "document.getElementById('alert').textContent, "
                           "document.activeElement.outerHTML.slice(0, 80)]"))
        raise


def _check_look(page: Browser, moment: str) -> None:
    """axe, computed contrast, the focus ring, in both themes; a screenshot of each."""
    for dark in (False, True):
        theme = "dark" if dark else "light"
        page.js(f"document.documentElement.dataset.theme = '{theme}'")
        problems = page.axe()
        assert not problems, f"{moment}, {theme} theme:\n" + "\n".join(problems)
        texts = page.texts()
        low = [t for t in texts if t.ratio < 7]
        assert not low, f"{moment}, {theme}: text under 7:1: {low}"
        _least(f"text {theme}", min(t.ratio for t in texts))
        glyphs = [t for t in texts if t.text in "\u2660\u2665\u2666\u2663"]
        assert glyphs, f"{moment}: no suit glyph on the page"
        _least(f"suit glyph {theme}", min(t.ratio for t in glyphs))
        page.js(f"(document.querySelector('{CARDS}.cursor') || "
                f"document.querySelector('{CARDS}')).focus()")
        ring = page.ring()
        assert ring.width >= 2, f"{moment}, {theme}: {ring}"
        assert min(ring.ratio_to_ground, ring.ratio_to_element) >= 3, f"{theme}: {ring}"
        _least("focus ring px", ring.width)
        _least(f"focus ring {theme}", min(ring.ratio_to_ground, ring.ratio_to_element))
        page.screenshot(f"{moment}-1280-{theme}")
    page.js("document.documentElement.dataset.theme = 'light'")


def test_start_of_the_hand_looks_and_reads_right(page: Browser) -> None:
    assert page.js(f"return document.querySelectorAll('{CARDS}').length") == 13
    _check_look(page, "bid")


@pytest.mark.parametrize(("width", "zoom"), [(320, 1.0), (1280, 2.0), (1280, 4.0)])
def test_reflows_at_320_px_and_zoomed(page: Browser, width: int, zoom: float) -> None:
    page.viewport(width, 900, zoom)
    try:
        assert page.js("return window.innerWidth") == round(width / zoom)
        assert page.overflow() == 0
        assert page.unreachable(CARDS) == []
        assert page.js(f"return document.querySelectorAll('{CARDS}').length") == 13
        assert page.small_targets() == []
        sizes = page.js(f"return [...document.querySelectorAll('{CARDS}, button')]"
                        ".map(b => b.getBoundingClientRect()).filter(r => r.width > 0)"
                        ".map(r => Math.min(r.width, r.height))")
        _least("target css px", min(sizes))
        if zoom == 1.0:
            page.screenshot(f"bid-{width}")
    finally:
        page.viewport(1280, 900)


def test_text_follows_the_browsers_font_size(page: Browser) -> None:
    def rank_px() -> float:
        return float(page.js(f"return parseFloat(getComputedStyle("
                             f"document.querySelector('{CARDS} .rank')).fontSize)"))
    before = rank_px()
    page.cdp("Page.setFontSizes", fontSizes={"standard": 32})
    try:
        assert rank_px() == pytest.approx(2 * before)
    finally:
        page.cdp("Page.setFontSizes", fontSizes={"standard": 16})
    _least("rank px at 16 px default", before)


def _hand(page: Browser) -> list[str]:
    return [str(code) for code in page.js(
        f"return [...document.querySelectorAll('{CARDS}')].map(b => b.dataset.code)")]


def _expected(codes: list[str], at: int, action: str) -> int | None:
    """Where ``action`` takes the cursor from ``at`` in the hand shown as ``codes``;
    None at an end of the hand, where the game stays or says so."""
    suit = codes[at][-1]
    suits = list(dict.fromkeys(code[-1] for code in codes))
    first = {s: next(i for i, c in enumerate(codes) if c[-1] == s) for s in suits}
    last = {s: max(i for i, c in enumerate(codes) if c[-1] == s) for s in suits}
    place = suits.index(suit)
    if action == "next_card":
        return at + 1 if at + 1 < len(codes) else None
    if action == "previous_card":
        return at - 1 if at > 0 else None
    if action == "highest":
        return first[suit]
    if action == "lowest":
        return last[suit]
    if action == "next_suit":
        return first[suits[place + 1]] if place + 1 < len(suits) else None
    if action == "previous_suit":
        return first[suits[place - 1]] if place > 0 else None
    wanted = action.removeprefix("jump_")[0].upper()
    return first.get(wanted)


def _focused_card_reads(page: Browser, words: Catalog) -> str:
    """Checks the focus is on the cursor card and its accessible name is the card's;
    the card's code."""
    focused = page.js("const e = document.activeElement;"
                      "return e.matches('#hand button.card.cursor') ? e.dataset.code : null")
    assert focused, page.js("return document.activeElement.outerHTML")
    card = Card.parse(focused)
    playable = page.js("return document.activeElement.classList.contains('playable')")
    role, name = page.accessible()
    assert role == "button"
    assert name == words.render("web.card_playable" if playable else "web.card_unplayable",
                                card=str(words.card(card)))
    return str(focused)


def test_each_cursor_key_moves_focus_and_names_the_card(
        page: Browser, games: dict[str, Future[PageGame]]) -> None:
    keymap = load_keymap(None)
    words = Catalog("en")
    checked = 0
    for action in CURSOR_ACTIONS:
        for key in keymap.keys_for(action):
            codes = _hand(page)
            at = codes.index(_focused_card_reads(page, words))
            want = _expected(codes, at, action)
            _press(page, key, None if want is None else
                   f"document.querySelector('#hand .cursor').dataset.code === '{codes[want]}'")
            page.wait_for("document.activeElement.matches('#hand .cursor')", 2)
            now = _focused_card_reads(page, words)
            if want is not None:
                assert now == codes[want], f"{key} ({action}) from {codes[at]}"
            checked += 1
    assert checked >= len(CURSOR_ACTIONS)
    # A key in the terminal moves the page's focus too (a magnifier follows it).
    codes = _hand(page)
    at = codes.index(_focused_card_reads(page, words))
    want = _expected(codes, at, "next_card") or _expected(codes, at, "previous_card")
    assert want is not None
    games["en"].result().type("right" if want > at else "left")
    page.wait_for(f"document.activeElement.dataset.code === '{codes[want]}'", 5)
    assert _focused_card_reads(page, words) == codes[want]


def test_a_question_looks_and_reads_right(page: Browser) -> None:
    keymap = load_keymap(None)
    _press(page, keymap.keys_for("nil")[0], "!document.getElementById('question').hidden")
    _check_look(page, "question")
    _press(page, "n", "document.getElementById('question').hidden")  # no: back to the bid


def test_mid_trick_looks_right_and_playability_survives_forced_colors(
        page: Browser) -> None:
    _press(page, "3", "document.getElementById('typed-bid').textContent.includes('3')")
    my_turn = "document.body.dataset.phase === 'play' && document.body.dataset.act === 'true'"
    _press(page, "enter", my_turn)
    if not page.js("return document.querySelector('#seats .seat-card .card')"):
        # The player leads the first trick: play its first playable card, and look at
        # the next trick, which the others will have started.
        page.js(f"document.querySelector('{CARDS}.playable').click()")
        page.wait_for(f"document.querySelectorAll('{CARDS}').length === 12 && {my_turn}", 15)
    assert page.js("return document.querySelector('#seats .seat-card .card')")
    _check_look(page, "trick")
    page.media(forced_colors=True)
    try:
        assert page.js("return matchMedia('(forced-colors: active)').matches")
        problems = page.axe()
        assert not problems, "\n".join(problems)
        marks = page.js(f"""
          return [...document.querySelectorAll('{CARDS}')].map(b => {{
            const s = getComputedStyle(b);
            const shown = sel => {{
              const e = b.querySelector(sel), r = e.getBoundingClientRect();
              return r.width > 4 && r.height > 4 && getComputedStyle(e).color
                     !== getComputedStyle(b).backgroundColor ? e.textContent : '';
            }};
            return {{playable: b.classList.contains('playable'), rank: shown('.rank'),
                     letter: shown('.suit-letter'), symbol: shown('.suit-symbol'),
                     mark: [s.borderTopStyle, s.borderBottomWidth].join(' ')}};
          }});""")
        assert all(m["rank"] and m["letter"] and m["symbol"] for m in marks), marks
        playable = {m["mark"] for m in marks if m["playable"]}
        unplayable = {m["mark"] for m in marks if not m["playable"]}
        assert playable and unplayable, "the seeded trick has cards of both kinds"
        assert not playable & unplayable, f"playability only by colour: {marks}"
        page.js(f"document.querySelector('{CARDS}.cursor').focus()")
        ring = page.ring()
        assert ring.width >= 2 and min(ring.ratio_to_ground, ring.ratio_to_element) >= 3, ring
        _least("focus ring forced colours", min(ring.ratio_to_ground, ring.ratio_to_element))
        # Whose turn: a double frame and a mark with text, not a colour.
        seats = page.js("""return [...document.querySelectorAll('#seats .seat')].map(s => ({
            turn: s.classList.contains('turn'), frame: getComputedStyle(s).borderTopStyle,
            mark: (s.querySelector('.turn-mark') || {}).textContent || ''}));""")
        assert [s["turn"] for s in seats].count(True) == 1, seats
        assert all((s["frame"] == "double") == s["turn"] == bool(s["mark"]) for s in seats)
        page.screenshot("trick-forced-colors")
    finally:
        page.media()


def test_screenshots_are_kept(page: Browser) -> None:
    """A screenshot is a PNG in the run's one folder (every worker's go there), named
    for a person to find; the run's summary names the folder."""
    path = page.screenshot("kept")
    assert path.parent == Path(page.shots)
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert all(re.fullmatch(r"[a-z0-9-]+\.png", shot.name)
               for shot in Path(page.shots).glob("*.png"))


@pytest.mark.parametrize("language", ["it", "fr"])
def test_italian_and_french_pages_name_the_cards_in_their_language(
        games: dict[str, Future[PageGame]], browser: Browser, language: str) -> None:
    _open(browser, games[language].result())
    assert browser.js("return document.documentElement.lang") == language
    problems = browser.axe()
    assert not problems, "\n".join(problems)
    words = Catalog(language)
    codes = _hand(browser)
    at = codes.index(_focused_card_reads(browser, words))
    _press(browser, load_keymap(None).keys_for("next_card")[0],
           f"document.querySelector('#hand .cursor').dataset.code === '{codes[at + 1]}'")
    assert _focused_card_reads(browser, words) == codes[at + 1]


def test_the_dark_theme_follows_the_system_and_the_switch(
        games: dict[str, Future[PageGame]], browser: Browser) -> None:
    theme = "[document.documentElement.dataset.theme, " \
            "document.getElementById('theme-switch').getAttribute('aria-pressed')]"
    _open(browser, games["en"].result())
    browser.js("localStorage.removeItem('voice-spades-theme')")
    browser.media(dark=True)
    browser.driver.refresh()
    try:
        assert browser.wait_for(f"document.body.dataset.seq && {theme}") == ["dark", "true"]
        browser.driver.find_element("id", "theme-switch").click()
        assert browser.js(f"return {theme}") == ["light", "false"]
        browser.driver.refresh()
        # The player's choice outlasts a reload, over the system's.
        assert browser.wait_for(f"document.body.dataset.seq && {theme}") == ["light", "false"]
    finally:
        browser.js("localStorage.removeItem('voice-spades-theme')")
        browser.media()
