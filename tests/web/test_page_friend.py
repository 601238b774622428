"""A friend without the game at a network table (loopback): the server's page, in
Italian, seats them by the table's code and they play the hand by keys in the browser."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from websockets.sync.client import connect

from tests.server.wire_client import WireClient
from tests.web.browser import Browser
from tests.web.page_game import ADDRESS, ROOT, body, play_hand_by_keys, wait_until
from voice_spades.engine import options_to_dict, profile
from voice_spades.protocol.wire import Create, SeatSpec, Start
from voice_spades.server.app import ServerThread
from voice_spades.server.hub import Hub
from voice_spades.server.store_sqlite import SQLiteStore
from voice_spades.web.friend_page import friend_routes, loopback_url

pytestmark = pytest.mark.skipif(shutil.which("chromedriver") is None,
                                 reason="Debian's chromium-driver is not installed "
                                        "(scripts/bootstrap.sh --test installs it)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    store = SQLiteStore(Path(tmp_path_factory.mktemp("friend")) / "tables.sqlite3")
    thread = ServerThread(lambda: Hub(store, bot_delay=0.0))
    thread.routes = friend_routes(loopback_url(thread.host, thread.port), pace=0.0)
    yield thread.start()
    thread.stop()
    store.close()


def log_text(page: WebDriver) -> str:
    """The page's log, read in one go (the page may redraw it meanwhile)."""
    return str(page.execute_script("return document.getElementById('log').innerText"))


def host_plays(host: WireClient, stop: threading.Event) -> None:
    """The host's seat plays its first legal action at each turn until ``stop``."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            host.read(0.05)
        if host.my_turn:
            host.act()


def test_a_friend_joins_from_the_browser_in_italian_and_plays(
        server: ServerThread, browser: Browser) -> None:
    host = WireClient(server.address, "Ada").connect()
    rules = options_to_dict(profile("pagat", hand_limit=1))
    host.send(Create(rules, (SeatSpec("human"), SeatSpec("open"), SeatSpec("bot", "easy"),
                             SeatSpec("bot", "easy")), 30))
    host.until(lambda m: m["t"] == "welcome")
    browser.open(f"http://127.0.0.1:{server.port}/?lang=it")
    page = browser.driver
    assert page.find_element(By.CSS_SELECTOR, "label[for=join-code]").text == \
        "Il codice del tavolo (6 cifre)"
    assert not page.find_element(By.ID, "join").get_attribute("hidden")
    page.find_element(By.ID, "join-code").send_keys("000000")
    page.find_element(By.ID, "join-button").click()
    wait_until("the refusal", lambda: page.find_element(By.ID, "join-problem").text)
    assert "000000" in page.find_element(By.ID, "join-problem").text
    code = page.find_element(By.ID, "join-code")
    code.clear()
    code.send_keys(host.code)
    page.find_element(By.ID, "join-name").send_keys("Bea")
    page.find_element(By.CSS_SELECTOR, "#join-seats input[value='1']").click()
    page.find_element(By.ID, "join-button").click()
    wait_until("the seat taken", lambda: f"Siedi al tavolo {host.code}." in log_text(page))
    host.until(lambda m: m["t"] == "table" and m["seats"][1]["kind"] == "human"
               and m["seats"][1]["connected"])
    host.send(Start())
    stop = threading.Event()
    playing = threading.Thread(target=host_plays, args=(host, stop), daemon=True)
    playing.start()
    try:
        wait_until("the table", lambda: body(page, "seq"), 10)
        seats = page.execute_script(
            "return [...document.querySelectorAll('#seats .seat')]"
            ".map(seat => [seat.dataset.seat, seat.classList.contains('you'), seat.textContent])")
        assert [seat for seat, you, _ in seats if you] == ["1"]
        assert "(tu)" in seats[1][2]
        played = play_hand_by_keys(page)
        assert played == 13, log_text(page)[-3000:]
    finally:
        stop.set()
        playing.join(5)
        host.close()
    assert body(page, "phase") == "over"
    assert "Hai giocato" in log_text(page), log_text(page)[-500:]


def test_a_browser_watches_in_french_is_sent_no_hand_and_talks_to_the_table(
        server: ServerThread) -> None:
    host = WireClient(server.address, "Ada").connect()
    host.send(Create(options_to_dict(profile("pagat")),
                     (SeatSpec("human"), *(SeatSpec("bot", "easy") for _ in range(3))), 30))
    host.until(lambda m: m["t"] == "welcome")
    origin = f"http://127.0.0.1:{server.port}"
    with connect(f"ws://127.0.0.1:{server.port}/page/ws?lang=fr", origin=origin,
                 open_timeout=5) as page:
        page.send(json.dumps({"t": "join", "code": "12", "seat": None, "watch": False,
                              "name": ""}))
        refused = json.loads(page.recv(10))
        assert refused == {"t": "refused",
                           "text": "Le code d'une table a 6 chiffres, tel que le jeu de l'hôte "
                                   "l'a dit."}
        page.send(json.dumps({"t": "join", "code": host.code, "seat": None, "watch": True,
                              "name": "Léa"}))
        hello = json.loads(page.recv(10))
        assert hello["t"] == "hello" and hello["language"] == "fr"
        lobby = json.loads(page.recv(10))
        assert lobby["t"] == "lobby"
        assert f"Vous regardez la table {host.code}." in lobby["lines"]
        page.send(json.dumps({"t": "chat", "text": "On commence ?"}))
        waiting = host.until(lambda m: m["t"] == "chat", 10)
        assert (waiting["name"], waiting["text"]) == ("Léa", "On commence ?")
        host.send(Start())
        deadline = time.monotonic() + 10
        state: dict[str, object] = {}
        while state.get("t") != "state" and time.monotonic() < deadline:
            state = json.loads(page.recv(10))
        assert hello["chat_keys"] == ["m"]
        page.send(json.dumps({"t": "chat", "text": "Bonjour à tous"}))
        said = host.until(lambda m: m["t"] == "chat", 10)
    host.close()
    assert (said["name"], said["text"]) == ("Léa", "Bonjour à tous")
    assert state["t"] == "state" and state["watching"] is True
    assert state["hand"] == [] and not any(seat["you"] for seat in state["seats"])


def test_the_host_has_a_large_print_page_of_their_own(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "voice_spades", "host", "--web", "--port", "0", "--listen",
         "127.0.0.1", "--no-speech", "--no-voice", "--sounds", "off", "--language", "en",
         "--data-dir", str(tmp_path), "--bot-delay", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        cwd=ROOT)
    assert host.stdin is not None and host.stdout is not None
    try:
        host.stdin.write("s\n")  # start: every open seat goes to a bot
        host.stdin.flush()
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.append(
            next((m.group(1) for line in host.stdout if (m := ADDRESS.search(line))), "")),
            daemon=True)
        reader.start()
        reader.join(20)
        address = found[0] if found else ""
        assert address, "the host's game said no page address within 20 s"
        host_port = address.split("/")[2]
        with connect(f"ws://{host_port}/page/ws?t={address.split('t=')[1]}",
                     origin=f"http://{host_port}", open_timeout=5) as page:
            assert json.loads(page.recv(10))["t"] == "hello"
            state = json.loads(page.recv(10))
        assert state["t"] == "state" and len(state["hand"]) == 13 and state["seat"] == 0
    finally:
        host.stdin.close()
        host.wait(15)
