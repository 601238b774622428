"""The local page refuses a request without its key, with another key, from a foreign
Origin or for a foreign Host (HTTP and WebSocket), with one sentence; its own address
works."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.web.page_game import ROOT, PageGame


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageGame]:
    running = PageGame(tmp_path_factory.mktemp("page-refusals"))
    yield running
    running.stop()


def get(url: str, **headers: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def parts(game: PageGame) -> tuple[str, str]:
    address = urlsplit(game.address)
    return address.netloc, address.query.removeprefix("t=")


def test_the_page_and_its_files_answer_only_with_the_key(game: PageGame) -> None:
    host, token = parts(game)
    other_key = token[:-1] + ("y" if token.endswith("x") else "x")
    status, text = get(game.address)
    assert status == 200 and 'id="hand"' in text and f"page.js?t={token}" in text
    assert get(f"http://{host}/static/page.js?t={token}")[0] == 200
    for url in (f"http://{host}/", f"http://{host}/?t=", f"http://{host}/?t={other_key}",
                f"http://{host}/static/page.js", f"http://{host}/static/page.css?t=wrong"):
        status, text = get(url)
        assert (status, text) == (403, "This page needs the whole address the game gave, "
                                       "with its key after t=."), url


def test_a_foreign_origin_or_host_is_refused_even_with_the_key(game: PageGame) -> None:
    host, _ = parts(game)
    refused = (403, "This page only answers its own address, as the game gave it.")
    assert get(game.address, Origin="http://evil.example") == refused
    assert get(game.address, Origin="null") == refused
    assert get(game.address, Host=f"evil.example:{host.rsplit(':', 1)[1]}") == refused
    assert get(game.address, Origin=f"http://{host}")[0] == 200


def test_the_websocket_answers_only_the_key_from_the_page_s_origin(game: PageGame) -> None:
    host, token = parts(game)
    for query, origin in ((f"t={token}x", f"http://{host}"), ("", f"http://{host}"),
                          (f"t={token}", "http://evil.example")):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://{host}/page/ws?{query}", origin=origin, open_timeout=5)
        assert refused.value.response.status_code == 403
    with connect(f"ws://{host}/page/ws?t={token}", origin=f"http://{host}",
                 open_timeout=5) as page:
        hello = json.loads(page.recv(5))
        state = json.loads(page.recv(5))
    assert hello["t"] == "hello" and "b" in hello["keys"] and "tab" not in hello["keys"]
    assert state["t"] == "state" and len(state["hand"]) == 13
    assert all(len(seat) > 0 for seat in state["seats"])
    assert "seed" not in json.dumps(state)


@pytest.mark.parametrize("port", ["70000", "busy"])
def test_a_port_the_page_cannot_have_is_said_and_the_game_plays_on(
        port: str, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        number = str(taken.getsockname()[1]) if port == "busy" else port
        done = subprocess.run(
            [sys.executable, "-m", "voice_spades", "--web", "--web-port", number,
             "--no-speech", "--no-voice", "--sounds", "off", "--new", "--language", "en",
             "--data-dir", str(tmp_path)],
            input="q\n", capture_output=True, text=True, timeout=60, cwd=ROOT)
    said = done.stdout.splitlines()
    assert done.returncode == 0
    assert said[0].startswith(f"The page's port is from 0 to 65535, not {number}: the game "
                              "goes on" if port != "busy" else
                              f"The page cannot be served on port {number}: ")
    assert any(line.startswith("Voice Spades, pagat.") for line in said)  # the game goes on


def test_serve_says_and_serves_the_friends_page_in_the_browser_s_language(
        tmp_path: Path) -> None:
    server = subprocess.Popen([sys.executable, "-m", "voice_spades", "serve", "--port", "0",
                               "--data-dir", str(tmp_path), "--language", "en"],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert server.stdout is not None
        server.stdout.readline()  # where the tables are served
        said = server.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/) and type", said)
        assert found, said
        page = found.group(1)
        status, text = get(page, **{"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
        assert status == 200 and 'lang="fr"' in text and "Rejoindre une table" in text
        status, text = get(page + "?lang=it")
        assert status == 200 and "Entra in un tavolo" in text
        assert get(page, Origin="http://evil.example")[0] == 403
    finally:
        server.terminate()
        server.wait(10)
