"""The accessibility checks themselves: each one fails on a page made to fail it.

Small pages given inline, so that a check that could never fail is caught here and not
trusted on the real page.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.web.browser import Browser, contrast


def _show(browser: Browser, body: str, style: str = "") -> None:
    browser.open("data:text/html;charset=utf-8," + quote(
        f"<!doctype html><html lang='en'><head><title>check</title>"
        f"<style>body{{margin:0;font:20px sans-serif}} {style}</style></head>"
        f"<body><main>{body}</main></body></html>"))


def test_contrast_is_wcags_ratio() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((255, 0, 0), (255, 255, 255)) == pytest.approx(4.0, abs=0.01)
    # The suit colours measured before the page was styled (white ground).
    assert contrast((0xB0, 0, 0), (255, 255, 255)) == pytest.approx(7.4, abs=0.1)


def test_axe_fails_on_violations_and_on_what_it_cannot_judge(browser: Browser) -> None:
    _show(browser, "<h1>Spades</h1><p>readable</p>")
    assert browser.axe() == []
    _show(browser, "<h1>Spades</h1><p style='color:#767676'>4.5:1 only</p>"
                   "<input type=checkbox>")
    problems = "\n".join(browser.axe())
    assert "color-contrast-enhanced" in problems
    assert "violation: label" in problems
    # Text over a gradient: axe cannot tell its contrast and says so as incomplete.
    _show(browser, "<h1>Spades</h1><p style='background:linear-gradient(#fff,#000);"
                   "color:#888'>over a gradient</p>")
    assert any(p.startswith("incomplete: color-contrast") for p in browser.axe())


def test_text_contrast_follows_painted_backgrounds(browser: Browser) -> None:
    _show(browser, "<div style='background:#000'><p style='color:#fff'>white on black</p>"
                   "<p style='color:rgba(255,255,255,.5)'>half white</p></div>"
                   "<p style='color:red'>red on white</p>")
    ratios = {t.text: t.ratio for t in browser.texts()}
    assert ratios["white on black"] == pytest.approx(21.0)
    assert ratios["half white"] == pytest.approx(contrast((128, 128, 128), (0, 0, 0)), 0.02)
    assert ratios["red on white"] == pytest.approx(4.0, abs=0.01)


def test_focus_ring_width_and_contrast(browser: Browser) -> None:
    _show(browser, "<button id=thin>thin</button><button id=thick>thick</button>",
          "button{background:#fff;color:#000;border:1px solid #000}"
          "#thin:focus{outline:1px solid #ccc} #thick:focus{outline:3px solid #000}")
    browser.js("document.getElementById('thin').focus()")
    thin = browser.ring()
    assert thin.width == 1 and thin.ratio_to_ground < 3
    browser.js("document.getElementById('thick').focus()")
    thick = browser.ring()
    assert thick.width == 3 and thick.ratio_to_ground == pytest.approx(21.0)


def test_reflow_targets_and_reach_at_320_px(browser: Browser) -> None:
    _show(browser, "<div id=row style='display:flex'>"
                   + "".join(f"<button class=card style='flex:none;width:60px;"
                             f"height:60px'>{n}</button>" for n in range(13))
                   + "</div><button id=small style='width:30px;height:30px'>x</button>")
    browser.viewport(1280, 900, zoom=4.0)
    assert browser.js("return document.documentElement.clientWidth") == 320
    assert browser.overflow() > 0
    assert len(browser.unreachable(".card")) >= 13 - 320 // 60
    assert browser.small_targets() == ["small: 30.0 x 30.0"]
    browser.js("document.getElementById('row').style.flexWrap = 'wrap'")
    assert browser.overflow() == 0
    assert browser.unreachable(".card") == []


def test_forced_colors_and_accessible_names(browser: Browser) -> None:
    _show(browser, "<button id=q aria-label='queen of hearts, playable' "
                   "style='color:#b00000;background:#fff'>Q\u2665</button>")
    browser.media(forced_colors=True)
    assert browser.js("return matchMedia('(forced-colors: active)').matches")
    # Forced colours replace the author's colours by the system's.
    assert browser.js("return getComputedStyle(q).color") != "rgb(176, 0, 0)"
    browser.js("document.getElementById('q').focus()")
    assert browser.accessible() == ("button", "queen of hearts, playable")
    browser.press("shift+s")
    assert browser.focused().get_attribute("id") == "q"
