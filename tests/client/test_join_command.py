"""`voice-spades join` with a wrong code or no server: one sentence, exit 2."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tests.client.net import running_server
from tests.client.test_terminals import spawn


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


def test_host_opens_a_table_on_a_running_server_that_a_friend_joins(tmp_path: Path) -> None:
    """`host --server`: the table is made on a `serve` already running (a public server),
    not on this machine; the code it says lets a friend sit down there."""
    with running_server(tmp_path / "server") as server:
        address = f"127.0.0.1:{server.port}"
        host = spawn(["host", "--server", address, "--name", "Ada"], tmp_path / "host")
        host.expect(r"Its code is (\d{6}); friends join with: voice-spades join \1 "
                    rf"--server {re.escape(address)}")
        code = host.match.group(1)
        friend = spawn(["join", code, "--server", address, "--seat", "2", "--name", "Giulia"],
                       tmp_path / "friend")
        host.expect("Giulia sat down")
        for child in (friend, host):
            child.send("q")
            child.expect(pexpect.EOF)


RULE_OPTIONS = ("--new", "--rules", "--players", "--level", "--target", "--seed",
                "--no-hell", "--quicksand", "--suicide", "--ending", "--hands")


def test_join_help_shows_its_own_options_and_host_help_the_rules() -> None:
    """A joined table has its host's rules: join's help lists none of play's rule
    options (and join refuses them), host's lists every one."""
    from voice_spades.online.command import host_parser, join_parser

    joined, hosted = join_parser().format_help(), host_parser().format_help()
    for option in RULE_OPTIONS:
        assert re.search(rf"{option}\b", joined) is None, option
        assert re.search(rf"{option}\b", hosted), option
    for option in ("--server", "--seat", "--watch", "--name", "--speech", "--verbosity"):
        assert option in joined
    args = join_parser().parse_args(["123456", "--verbosity", "brief"])
    assert args.code == "123456" and not hasattr(args, "rules")
    with pytest.raises(SystemExit):
        join_parser().parse_args(["123456", "--rules", "pagat"])
