"""A headless Chromium for the page's tests, and the accessibility checks run in it.

One :class:`Browser` drives Debian's chromium through its chromium-driver (Selenium),
talks to the DevTools protocol for what WebDriver cannot do (viewport and zoom, forced
colours, the accessibility tree), runs axe-core (fetched by ``scripts/bootstrap.sh
--test``) and measures contrast, target sizes and reflow in the page itself.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

AXE_VERSION = "4.14.1"
"""The axe-core release scripts/fetch_axe_core.py pins."""

AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
"""The WCAG 2.0/2.1/2.2 A and AA rules; color-contrast-enhanced (7:1) is added by name."""

DESKTOP = (1280, 900)
"""The window of the desktop checks, in CSS px."""

_KEYS = {
    "enter": Keys.ENTER, "escape": Keys.ESCAPE, "space": Keys.SPACE, "tab": Keys.TAB,
    "backspace": Keys.BACKSPACE, "delete": Keys.DELETE, "insert": Keys.INSERT,
    "up": Keys.ARROW_UP, "down": Keys.ARROW_DOWN, "left": Keys.ARROW_LEFT,
    "right": Keys.ARROW_RIGHT, "home": Keys.HOME, "end": Keys.END,
    "page_up": Keys.PAGE_UP, "page_down": Keys.PAGE_DOWN,
    **{f"f{n}": getattr(Keys, f"F{n}") for n in range(1, 13)},
}


def axe_script() -> str:
    """axe.min.js as scripts/fetch_axe_core.py left it in this environment."""
    path = Path(sys.prefix) / "share" / f"axe-core-{AXE_VERSION}" / "axe.min.js"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: run scripts/bootstrap.sh --test (or "
            f"scripts/fetch_axe_core.py {Path(sys.prefix) / 'share'})")
    return path.read_text(encoding="utf-8")


def contrast(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    """WCAG's contrast ratio of two opaque sRGB colours (0-255 channels)."""
    def luminance(colour: tuple[float, ...]) -> float:
        def linear(channel: float) -> float:
            c = channel / 255
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (linear(c) for c in colour[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# The page's colours as it paints them: an element's own colour and the background it
# sits on, found by compositing the ancestors' backgrounds (an ancestor with a
# background image cannot be judged and is reported as such).
_PAINT_JS = """
function rgba(text) {
  const m = text.match(/rgba?\\(([^)]+)\\)/);
  if (!m) return null;
  const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
}
function over(top, under) {
  const a = top[3];
  return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]);
}
function backdrop(element) {
  const layers = [];
  for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.backgroundImage !== 'none') return null;
    const colour = rgba(style.backgroundColor);
    if (colour && colour[3] > 0) { layers.push(colour); if (colour[3] >= 1) break; }
  }
  let result = [255, 255, 255, 1];
  for (const layer of layers.reverse()) result = over(layer, result);
  return result;
}
function visible(element) {
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  // (a visually hidden text for screen readers is clipped to 1 px: no one sees it)
  return box.width > 1 && box.height > 1 && style.visibility !== 'hidden';
}
"""


@dataclass(frozen=True)
class Painted:
    """One visible run of text: where it is, what it says, its contrast with its ground."""

    where: str
    text: str
    ratio: float


@dataclass(frozen=True)
class Ring:
    """The focus indicator of the focused element."""

    where: str
    width: float
    ratio_to_ground: float
    ratio_to_element: float


class Browser:
    """A headless Chromium; every method works on the page it has open."""

    def __init__(self, shots: Path) -> None:
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--no-first-run",
                         "--disable-extensions", "--lang=en-US",
                         f"--window-size={DESKTOP[0]},{DESKTOP[1]}"):
            options.add_argument(argument)
        service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_script_timeout(20)
        self.shots = shots
        self.cdp("Accessibility.enable")

    def close(self) -> None:
        """Quit Chromium."""
        self.driver.quit()

    # --- the page -------------------------------------------------------------
    def open(self, url: str) -> None:
        """Load ``url`` at the desktop size, in the light theme, without forced colours."""
        self.viewport(*DESKTOP)
        self.media()
        self.driver.get(url)

    def cdp(self, command: str, **params: Any) -> dict[str, Any]:
        """One DevTools protocol command."""
        result: dict[str, Any] = self.driver.execute_cdp_cmd(command, params)
        return result

    def js(self, script: str, *args: Any) -> Any:
        """Run ``script`` (a function body) in the page and return what it returns."""
        return self.driver.execute_script(script, *args)

    def wait_for(self, script: str, timeout: float = 5.0) -> Any:
        """Poll ``script`` (an expression) every 20 ms until it is truthy; its value.

        TimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.driver.execute_script(f"return ({script});")
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"not true after {timeout} s: {script}")
            time.sleep(0.02)

    def viewport(self, width: int, height: int, zoom: float = 1.0) -> None:
        """A window of ``width`` x ``height`` screen px seen at ``zoom`` (2.0 = 200%).

        The browser's zoom leaves fewer CSS px across at more device px each, which is
        what the page then lays out for (1280 px at 400% is 320 CSS px)."""
        self.cdp("Emulation.setDeviceMetricsOverride", width=round(width / zoom),
                 height=round(height / zoom), deviceScaleFactor=zoom, mobile=False)

    def media(self, *, forced_colors: bool = False, dark: bool = False) -> None:
        """Emulate forced colours (Windows high contrast) and the dark colour scheme."""
        self.cdp("Emulation.setEmulatedMedia", media="", features=[
            {"name": "forced-colors", "value": "active" if forced_colors else "none"},
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"},
        ])

    def screenshot(self, name: str) -> Path:
        """Save what the page shows now as ``name``.png in the run's screenshot folder."""
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / f"{name}.png"
        assert self.driver.save_screenshot(str(path)), f"no screenshot written at {path}"
        return path

    # --- keys and focus -------------------------------------------------------
    def press(self, key: str) -> None:
        """Press a key named as keymap.toml names it ("right", "shift+s", "?", "b")."""
        *modifiers, name = key.split("+") if len(key) > 1 else [key]
        actions = ActionChains(self.driver)
        held = [{"shift": Keys.SHIFT, "ctrl": Keys.CONTROL, "alt": Keys.ALT}[m]
                for m in modifiers]
        for modifier in held:
            actions.key_down(modifier)
        typed = _KEYS.get(name, name)
        actions.send_keys(typed.upper() if held == [Keys.SHIFT] and len(typed) == 1
                          else typed)
        for modifier in reversed(held):
            actions.key_up(modifier)
        actions.perform()

    def focused(self) -> WebElement:
        """document.activeElement."""
        element: WebElement = self.driver.switch_to.active_element
        return element

    def accessible(self, expression: str = "document.activeElement") -> tuple[str, str]:
        """(role, name) of an element as the browser's accessibility tree gives them."""
        found = self.cdp("Runtime.evaluate", expression=expression)["result"]
        node = self.cdp("DOM.describeNode", objectId=found["objectId"])["node"]
        tree = self.cdp("Accessibility.getPartialAXTree",
                        backendNodeId=node["backendNodeId"], fetchRelatives=False)
        ax = tree["nodes"][0]
        return (str(ax.get("role", {}).get("value", "")),
                str(ax.get("name", {}).get("value", "")))

    # --- checks ---------------------------------------------------------------
    def axe(self) -> list[str]:
        """axe-core's violations and incomplete results on the whole page, one line each.

        Incomplete results count as failures: axe reports what it cannot judge (a
        white-on-white label, text over an image) as incomplete, not as a violation."""
        if not self.js("return typeof window.axe !== 'undefined'"):
            self.js(axe_script())
        result = self.driver.execute_async_script(
            """const [tags, done] = arguments;
               axe.run(document, {runOnly: {type: 'tag', values: tags},
                                  rules: {'color-contrast-enhanced': {enabled: true}},
                                  resultTypes: ['violations', 'incomplete']})
                  .then(r => done({violations: r.violations, incomplete: r.incomplete,
                                    passes: r.passes.map(p => p.id)}))
                  .catch(e => done({error: String(e)}));""", list(AXE_TAGS))
        if "error" in result:
            raise RuntimeError(result["error"])
        if "color-contrast-enhanced" not in result["passes"] and not any(
                r["id"] == "color-contrast-enhanced"
                for r in result["violations"] + result["incomplete"]):
            raise RuntimeError("axe did not run color-contrast-enhanced")
        problems = []
        for kind in ("violations", "incomplete"):
            for rule in result[kind]:
                for node in rule["nodes"]:
                    problems.append(f"{kind[:-1] if kind == 'violations' else kind}: "
                                    f"{rule['id']} at {json.dumps(node['target'])}: "
                                    f"{node.get('failureSummary') or rule['help']}")
        return problems

    def texts(self) -> list[Painted]:
        """Every visible run of text with its contrast against what it is painted on."""
        found = self.js(_PAINT_JS + """
          const out = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          const seen = new Set();
          while (walker.nextNode()) {
            const node = walker.currentNode;
            const element = node.parentElement;
            if (!node.textContent.trim() || seen.has(element) || !visible(element)) continue;
            seen.add(element);
            const ground = backdrop(element);
            const own = rgba(getComputedStyle(element).color);
            const colour = own && ground ? over(own, ground) : own;
            out.push({where: element.id || element.className || element.tagName,
                      text: node.textContent.trim().slice(0, 30),
                      colour: colour, ground: ground});
          }
          return out;""")
        return [Painted(str(f["where"]), str(f["text"]),
                        contrast(tuple(f["colour"]), tuple(f["ground"]))
                        if f["ground"] is not None and f["colour"] is not None else 0.0)
                for f in found]

    def ring(self) -> Ring:
        """The focused element's focus ring: its width and its contrast with the ground
        around the element and with the element's own background."""
        found = self.js(_PAINT_JS + """
          const element = document.activeElement;
          const style = getComputedStyle(element);
          const outline = style.outlineStyle !== 'none' ? parseFloat(style.outlineWidth) : 0;
          return {where: element.id || element.className || element.tagName,
                  width: outline, colour: rgba(style.outlineColor),
                  ground: backdrop(element.parentElement), own: backdrop(element)};""")
        colour = tuple(found["colour"] or (0, 0, 0, 0))
        return Ring(str(found["where"]), float(found["width"]),
                    contrast(colour, tuple(found["ground"] or colour)),
                    contrast(colour, tuple(found["own"] or colour)))

    def overflow(self) -> int:
        """How many CSS px the page scrolls sideways (0: it reflows)."""
        return int(self.js(
            "const e = document.scrollingElement;"
            "return Math.max(0, e.scrollWidth - e.clientWidth);"))

    def small_targets(self, minimum: float = 44) -> list[str]:
        """Every visible control smaller than ``minimum`` x ``minimum`` CSS px."""
        found = self.js("""
          const minimum = arguments[0];
          const out = [];
          const controls = document.querySelectorAll(
            'a[href], button, input, select, textarea, summary, [tabindex], [role=button],'
            + ' [role=switch], [role=checkbox], [role=option], [role=tab]');
          for (const element of controls) {
            if (element.tabIndex < -1 || element.closest('[hidden]')) continue;
            const box = element.getBoundingClientRect();
            if (box.width === 0 && box.height === 0) continue;
            if (getComputedStyle(element).visibility === 'hidden') continue;
            let width = box.width, height = box.height;
            const label = element.labels && element.labels[0];
            if (label) {  // a checkbox's label is part of its target
              const around = label.getBoundingClientRect();
              width = Math.max(width, around.width); height = Math.max(height, around.height);
            }
            if (width < minimum - 0.5 || height < minimum - 0.5)
              out.push(`${element.id || element.className || element.tagName}: `
                       + `${width.toFixed(1)} x ${height.toFixed(1)}`);
          }
          return out;""", minimum)
        return [str(line) for line in found]

    def unreachable(self, selector: str) -> list[str]:
        """The elements of ``selector`` a player cannot scroll to and see whole.

        Each is scrolled into view; it must then lie inside the viewport's width and be
        the element found at its own centre (not hidden under another)."""
        found = self.js("""
          const out = [];
          for (const element of document.querySelectorAll(arguments[0])) {
            // Scrolled up or down only: a card that needs sideways scrolling is not
            // reachable by reflow.
            const before = element.getBoundingClientRect();
            window.scrollTo(0, window.scrollY + before.top + before.height / 2
                               - window.innerHeight / 2);
            const box = element.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2,
                                                  box.top + box.height / 2);
            const inside = box.left >= -0.5
              && box.right <= document.documentElement.clientWidth + 0.5;
            if (!inside || !(hit && (hit === element || element.contains(hit))))
              out.push(`${element.textContent.trim()} at ${box.left.toFixed(0)},`
                       + `${box.top.toFixed(0)} ${box.width.toFixed(0)}x`
                       + `${box.height.toFixed(0)}`);
          }
          window.scrollTo(0, 0);
          return out;""", selector)
        return [str(line) for line in found]
