"""The `voice-spades simulate` and `bench engine` commands, run as real processes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "voice_spades", *args], capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.parametrize(("rules", "players"), [("pagat", None), ("classic-fr", None),
                                                ("cardgames", 4), ("playroom", 3),
                                                ("playroom", 6), ("two-player", 2)])
def test_simulate_json_summary(rules: str, players: int | None) -> None:
    extra = ["--players", str(players)] if players else []
    result = run("simulate", "--games", "3", "--seed", "7", "--rules", rules, "--json", *extra)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["matches"] == 3 and summary["hands"] >= 3
    assert sum(summary["wins"].values()) + summary["unfinished"] == 3
    assert len(summary["mean_score"]) == len(summary["wins"])
    again = json.loads(run("simulate", "--games", "3", "--seed", "7", "--rules", rules,
                           "--json", *extra).stdout)
    assert again == summary  # deterministic from the seed


def test_simulate_text_summary() -> None:
    result = run("simulate", "--games", "2", "--seed", "1")
    assert result.returncode == 0
    assert "2 matches" in result.stdout and "South-North" in result.stdout


@pytest.mark.parametrize(("rules", "players", "message"), [
    ("pagat", "3", "The pagat rules are for 4 players, not 3."),
    ("playroom", "7", "The playroom rules are for 3 to 6 players, not 7."),
    ("two-player", "4", "The two-player rules are for 2 players, not 4."),
    ("classic-fr", "2", "The classic-fr rules are for 4 players, not 2."),
])
def test_simulate_refuses_player_count_outside_profile(rules: str, players: str,
                                                       message: str) -> None:
    result = run("simulate", "--rules", rules, "--players", players)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_bench_engine_prints_labelled_figures() -> None:
    result = run("bench", "engine", "--seconds", "0.2", "--runs", "1", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["hands_per_second_median"] > 0  # speed itself is the bench's to report
    assert figures["legal_moves_per_second_median"] > 0


@pytest.mark.parametrize(("args", "message"), [
    (("bench", "engine", "--runs", "-1"), "voice-spades bench engine: --runs must be at least 1."),
    (("bench", "engine", "--rules", "nope"), "voice-spades bench engine: There are no 'nope' "
                                             "rules. Choose one of: pagat, classic-fr, "
                                             "cardgames, playroom, two-player."),
    (("bench", "bots", "--a", "godlike"), "voice-spades bench bots: There is no 'godlike' "
                                          "level. Choose one of: easy, medium, hard, "
                                          "pimc, rules, highbid."),
    (("bench", "bots", "--rules", "pagat", "--players", "3"),
     "voice-spades bench bots: The pagat rules are for 4 players, not 3."),
    (("bench", "bots", "--deals", "-2"), "voice-spades bench bots: --deals must be 0 or more."),
    # each of these ran the whole default benchmark, or asked for 100,000 processes
    (("bench", "bots", "--round-robin", ""), "voice-spades bench bots: --round-robin needs "
     "players separated by commas, for example easy,medium,hard."),
    (("bench", "bots", "--round-robin", " , "), "voice-spades bench bots: --round-robin needs "
     "players separated by commas, for example easy,medium,hard."),
    (("bench", "bots", "--round-robin", "easy,hard", "--against", ""), "voice-spades bench "
     "bots: --against needs players separated by commas, for example easy,medium,hard."),
    (("bench", "bots", "--round-robin", "hard"),
     "voice-spades bench bots: --round-robin needs two players, or one with --against."),
    (("bench", "bots", "--jobs", "65"), "voice-spades bench bots: --jobs must be from 1 to 64."),
    (("bench", "bots", "--jobs", "100000"),
     "voice-spades bench bots: --jobs must be from 1 to 64."),
    (("bench", "bots", "--jobs", "0"), "voice-spades bench bots: --jobs must be from 1 to 64."),
    (("bench", "voice", "--manifest", "/nonexistent.tsv"),
     "voice-spades bench voice: cannot read the manifest /nonexistent.tsv: No such file or "
     "directory"),
])
def test_bench_argument_errors_are_one_line(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stderr.strip() == message


UNKNOWN = "voice-spades: There is no language {}: use en (English), it (Italian) or fr (French)."


@pytest.mark.parametrize(("args", "value"), [
    (("simulate", "--language", "NOPE", "--games", "1"), "NOPE"),
    (("models", "--language", "xx"), "xx"),
    (("models", "list", "--language", "xx"), "xx"),
    (("settings", "--language=de"), "de"),
    (("--language", "klingon", "--no-speech"), "klingon"),
])
def test_a_language_the_game_does_not_speak_is_one_sentence_and_exit_2(
        args: tuple[str, ...], value: str) -> None:
    result = run(*args)  # before: simulate and models list ran, with exit 0
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == UNKNOWN.format(value) + "\n"


def test_train_voice_refuses_a_rate_the_speech_cannot_take() -> None:
    result = run("train-voice", "--no-speech", "--rate", "1e20")
    assert result.returncode == 2
    assert result.stdout == "--rate must be a whole number of words per minute from 80 to " \
                            "500, not 1e20.\n"
