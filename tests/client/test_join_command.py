"""`voice-spades join` with a wrong code or no server: one sentence, exit 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.client.net import running_server


def join(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VOICE_SPADES_HOME": str(tmp_path / "home"), "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-m", "voice_spades", "join", *args, "--no-speech",
                           "--no-voice", "--sounds", "off"], capture_output=True, text=True,
                          timeout=30, env=env, stdin=subprocess.DEVNULL, check=False)


def test_a_wrong_code_is_one_sentence_in_the_players_language(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        done = join(tmp_path, "654321", "--server", f"127.0.0.1:{server.port}",
                    "--language", "it")
    assert done.returncode == 2
    assert done.stderr.strip() == ("Non c'è nessun tavolo con il codice 654321. "
                                   "Controlla le 6 cifre con chi ospita.")
    assert done.stdout == ""


def test_no_server_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = join(tmp_path, "123456", "--server", f"127.0.0.1:{port}")
    assert done.returncode == 2
    assert done.stderr.strip() == (f"There is no table server at ws://127.0.0.1:{port}/ws: "
                                   "check the address, and that the host's game is running.")
