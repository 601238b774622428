"""A real game with its page (``voice-spades --web``) in a process of its own, for the
page's tests: its standard input takes key names, its standard output is kept."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+/\?t=[A-Za-z0-9_-]+)")
ROOT = Path(__file__).resolve().parents[2]


class PageGame:
    """``voice-spades --web`` with text output and no microphone, in ``data_dir``."""

    def __init__(self, data_dir: Path, *extra: str, seed: int = 3) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voice_spades", "--web", "--no-speech", "--no-voice",
             "--sounds", "off", "--new", "--seed", str(seed), "--level", "easy",
             "--pace", "0", "--language", "en", "--data-dir", str(data_dir), *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", cwd=ROOT)
        self.lines: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        self.address = self.wait_for(ADDRESS, 20.0).group(1)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._lock:
                self.lines.append(line.rstrip("\n"))

    def said(self) -> list[str]:
        """Every line printed so far."""
        with self._lock:
            return list(self.lines)

    def wait_for(self, pattern: re.Pattern[str], timeout: float,
                 start: int = 0) -> re.Match[str]:
        """The first line from line ``start`` on that matches ``pattern``; AssertionError
        after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.said()[start:]:
                if found := pattern.search(line):
                    return found
            time.sleep(0.02)
        raise AssertionError(f"no line matched {pattern.pattern}: {self.said()[-10:]}")

    def type(self, keys: str) -> None:
        """A line of key names on the game's standard input (read once it waits)."""
        assert self.process.stdin is not None
        self.process.stdin.write(keys + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        """End the game's input (it saves and quits), or kill it after 10 s."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(5)


def within(timeout: float, check: Callable[[], object]) -> bool:
    """Whether ``check`` comes true within ``timeout`` seconds (polled every 20 ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def wait_until(what: str, check: Callable[[], object], timeout: float = 20.0) -> None:
    """Poll ``check`` every 20 ms; AssertionError naming ``what`` after ``timeout`` s."""
    if not within(timeout, check):
        raise AssertionError(f"the page did not show {what} within {timeout} s")


def body(driver: WebDriver, name: str) -> str:
    """The page's ``body[data-NAME]``: ``seq``, ``hand``, ``phase``, ``act``."""
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}") or ""


def cursor(driver: WebDriver) -> str:
    """The code of the card under the hand cursor ("" when there is none)."""
    return str(driver.execute_script(
        "const c = document.querySelector('#hand button.cursor'); "
        "return c ? c.dataset.code : '';"))


def hand(driver: WebDriver, selector: str = "#hand button") -> list[str]:
    """The codes of the hand's cards ``selector`` picks, in the page's order."""
    return list(driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(b => b.dataset.code)",
        selector))


def click(driver: WebDriver, selector: str, tries: int = 5) -> None:
    """A mouse click on the element ``selector`` finds (found again if the page redrew
    it between finding and clicking)."""
    for _ in range(tries - 1):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    driver.find_element(By.CSS_SELECTOR, selector).click()


def press(driver: WebDriver, key: str) -> None:
    """A key pressed on whatever has the page's focus when it arrives (never moving the
    focus first, as sending it to an element would)."""
    ActionChains(driver).send_keys(key).perform()


_FOCUS_JS = """
const cursor = document.querySelector("#hand button.cursor");
const focused = document.activeElement;
return [focused && focused.dataset ? focused.dataset.code || focused.id || focused.tagName
        : null, cursor ? cursor.dataset.code : null,
        cursor ? cursor.classList.contains("playable") : false];
"""
"""What has the focus, the card under the cursor, and whether it is playable: read
in one go, between two of the page's updates."""


def play_hand_by_keys(driver: WebDriver, timeout: float = 60.0) -> int:
    """Play the page's seat to the end of the current hand by keys: bid 3 (3, Enter),
    then at each turn Right until the cursor card is playable, then Enter. The cursor
    card must hold the focus throughout. The cards played."""
    def holding() -> int:
        return len(driver.find_elements(By.CSS_SELECTOR, "#hand button"))

    hand = body(driver, "hand")
    played, held = 0, holding()
    deadline = time.monotonic() + timeout
    while body(driver, "hand") == hand and body(driver, "phase") != "over" \
            and time.monotonic() < deadline:
        now = holding()  # counted as the page shows it, however late it comes
        played, held = played + max(0, held - now), now
        if body(driver, "act") != "true":
            time.sleep(0.02)
            continue
        seq = int(body(driver, "seq"))
        if body(driver, "phase") == "bid":
            press(driver, "3")
            press(driver, Keys.ENTER)
        else:
            focused, under, playable = driver.execute_script(_FOCUS_JS)
            assert focused == under, f"the focus is on {focused!r}, the cursor on {under!r}"
            if not playable:
                press(driver, Keys.ARROW_RIGHT)
            else:
                press(driver, Keys.ENTER)
                # A key read before the turn's prompt was said only answers: then again.
                within(3.0, lambda held=held: holding() < held or body(driver, "hand") != hand)
                continue
        wait_until("the key's answer", lambda seq=seq: int(body(driver, "seq") or 0) > seq)
    if body(driver, "hand") != hand or body(driver, "phase") == "over":
        played += held  # the hand's last card ends it before the page shows it gone
    return played
