"""The real command in a pseudo-terminal: play a hand by keys, quit, resume."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
SUIT_KEYS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
LINE = r"([^\r\n]+)\r\n"
RIGHT = "\x1b[C"


def spawn(data_dir: Path, *extra: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "voice_spades", "--no-speech", "--seed", "3",
                                           "--data-dir", str(data_dir), "--pace", "0",
                                           "--level", "easy", "--no-voice", *extra],
                          cwd=str(ROOT), encoding="utf-8", timeout=30, dimensions=(40, 250),
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                               "HOME": str(data_dir)})
    return child


def next_line(child: pexpect.spawn) -> str:
    child.expect(LINE)
    return str(child.match.group(1))


def play_a_legal_card(child: pexpect.spawn) -> str:
    """By keys only: ask what can be played, jump to its suit, walk to the card, Enter."""
    child.send("w")
    answer = next_line(child)
    assert answer.startswith("You can play"), answer
    if answer == "You can play any card.":
        child.send(RIGHT)
        target = next_line(child).removesuffix(", not playable")
    else:
        group = answer.removeprefix("You can play ").rstrip(".").split("; ")[0]
        ranks, suit = group.split(" of ")
        target = f"{re.split(r', | and ', ranks)[0]} of {suit}"
        child.send(SUIT_KEYS[suit])
        ranks = next_line(child)
        assert ranks.startswith(suit.capitalize() + ": "), ranks
        current = ranks.split(": ")[1].split(", ")[0].rstrip(".") + " of " + suit
        while current != target:
            child.send(RIGHT)
            current = next_line(child).removesuffix(", not playable")
    child.send("\r")
    return target


FIRST_HAND = r"(?:^|(?<=\n))((?:Spades|No spades) [^\r\n]*)\r\n"
"""A new match's first hand, said right after the welcome: its cards alone."""


def expect_turn(child: pexpect.spawn) -> str:
    child.expect([r"Your bid[.:][^\r\n]*", r"Your play: [^\r\n]+", r"Your lead\.[^\r\n]*"])
    return str(child.after)


@pytest.mark.slow
def test_a_hand_by_keys_then_quit_and_resume_at_the_same_point(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    child.expect(FIRST_HAND)
    assert expect_turn(child) == "Your bid."
    child.send("j")  # unbound (Z now says the target and the bag penalty)
    assert next_line(child) == "J does nothing here. Press F1 for the keys."
    child.send("3")
    assert next_line(child) == "3. Press Enter to bid."
    child.send("\r")
    assert next_line(child) == "You bid 3."
    tried_illegal = False
    for _ in range(13):
        prompt = expect_turn(child)
        if prompt.startswith("Your play: follow") and not tried_illegal:
            # Walk to an unplayable card and try it: explained, and nothing changes.
            for _ in range(13):
                child.send(RIGHT)
                if next_line(child).endswith(", not playable"):
                    child.send("\r")
                    assert next_line(child).startswith("You must follow ")
                    tried_illegal = True
                    break
        played = play_a_legal_card(child)
        child.expect(f"You (played|led) the {played}.")
    child.expect(r"Us: [^\r\n]+; score -?[0-9]+\.\r\n")
    child.expect(r"Them: [^\r\n]+; score -?[0-9]+\.\r\n")
    child.expect(r"Hand 2: ([^\r\n]+)\.\r\n")
    hand_two = child.match.group(1)
    expect_turn(child)
    child.send("q")
    child.expect("Game saved. Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert tried_illegal

    again = spawn(tmp_path)
    resumed = next_line(again)
    assert resumed.startswith("Resuming your game: hand 2, ")
    assert next_line(again) == f"Your hand: {hand_two}."
    expect_turn(again)
    again.send("q")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0


@pytest.mark.slow
def test_quitting_mid_trick_resumes_the_same_trick_and_cards(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    expect_turn(child)
    child.send("2\r")
    expect_turn(child)
    child.send("h")
    hand = next_line(child)
    child.send("c")
    table = next_line(child)
    child.send("q")
    child.expect(pexpect.EOF)
    again = spawn(tmp_path)
    assert next_line(again) == "Resuming your game: hand 1, trick 1. Scores: you and partner " \
                               "North 0 with 0 bags; West and East 0 with 0 bags."
    assert next_line(again) == hand
    prompt = expect_turn(again)
    assert prompt.startswith(("Your play", "Your lead"))
    again.send("c")
    assert next_line(again) == table
    again.send("\x03")  # Control-C saves and quits too
    again.expect("Game saved. Goodbye.")
    again.expect(pexpect.EOF)


@pytest.mark.slow
def test_control_backslash_saves_says_goodbye_and_restores_the_terminal(tmp_path: Path) -> None:
    """Ctrl+\\ (SIGQUIT) is a quit like Ctrl+C: not a crash with the echo left off."""
    game = (f'"{sys.executable}" -m voice_spades --no-speech --seed 3 --data-dir "{tmp_path}" '
            "--pace 0 --level easy --no-voice")
    # The shell catches SIGQUIT (as an interactive one ignores it): it reports the game's
    # exit status and the terminal's settings afterwards.
    shell = pexpect.spawn("/bin/sh", ["-c", f'trap : QUIT; {game}; echo "exit=$?"; stty -a'],
                          cwd=str(ROOT), encoding="utf-8", timeout=30, dimensions=(40, 250),
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                               "HOME": str(tmp_path)})
    expect_turn(shell)
    shell.send("\x1c")
    shell.expect("Game saved. Goodbye.")
    shell.expect(r"exit=(\d+)")
    assert shell.match.group(1) == "0"
    shell.expect(pexpect.EOF)
    terminal = shell.before.split()
    assert "echo" in terminal and "icanon" in terminal, terminal
    assert (tmp_path / "savegame.json").exists()


@pytest.mark.slow
def test_keys_typed_while_the_game_starts_are_kept_and_not_echoed(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    deadline = time.monotonic() + 20
    while child.getecho():  # the terminal's key mode comes first of all...
        assert time.monotonic() < deadline, "the terminal was never put in key mode"
        time.sleep(0.002)
    with pytest.raises(pexpect.TIMEOUT):  # ...before the game has said anything
        child.read_nonblocking(1, timeout=0)
    child.send("h")  # typed while the game is still starting
    assert next_line(child).startswith("Voice Spades,")  # nothing echoed before it
    child.expect(FIRST_HAND)
    hand = child.match.group(1)
    child.expect(f"Your hand: {re.escape(hand[:1].lower() + hand[1:])}\r\n")  # the early key
    child.send("q")
    child.expect("Game saved. Goodbye.")
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_keys_sent_before_the_prompt_or_question_they_would_answer_do_nothing(
        tmp_path: Path) -> None:
    """Issue 48: a bid typed while the game starts, and a yes typed with the nil key
    before "Bid nil?" was printed, neither bid: each is said once to have come too early,
    and the prompt or question stands."""
    child = spawn(tmp_path, "--seed", "9")  # South bids first: the prompt comes at once
    deadline = time.monotonic() + 20
    while child.getecho():
        assert time.monotonic() < deadline, "the terminal was never put in key mode"
        time.sleep(0.002)
    child.send("3\r")  # before the game has said anything
    assert expect_turn(child).startswith("Your bid")
    assert next_line(child) == "3 came before this was asked, so it did nothing. " \
                               "Press it again to answer."
    child.send("ny")  # one write: the yes is read before the question is printed
    assert next_line(child) == "Bid nil? Yes or no?"
    assert next_line(child) == "Y came before this was asked, so it did nothing. " \
                               "Press it again to answer."
    child.send("n")
    assert next_line(child) == "Cancelled."
    child.send("3")
    assert next_line(child) == "3. Press Enter to bid."
    child.send("\r")
    assert next_line(child) == "You bid 3."
    child.send("q")
    child.expect("Game saved. Goodbye.")
    child.expect(pexpect.EOF)
