"""keymap.toml: the defaults, the player's overrides, and problems reported by line."""

from __future__ import annotations

from pathlib import Path

import pytest

from voice_spades.keys import ACTIONS, Keymap, help_text, hints, load_keymap, parse_key
from voice_spades.keys.keymap import default_keymap_text, parse_keymap
from voice_spades.messages import Message
from voice_spades.narration import render_message

ROOT = Path(__file__).resolve().parents[2]


def problems(keymap: Keymap) -> list[str]:
    """The keymap's problems as the player reads them."""
    return [render_message(problem) for problem in keymap.problems]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "keymap.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_project_keymap_is_the_packaged_default() -> None:
    assert (ROOT / "keymap.toml").read_text(encoding="utf-8") == default_keymap_text()


def test_the_defaults_are_valid_and_bind_the_source_game_shortcuts() -> None:
    keymap = load_keymap()
    assert keymap.problems == []
    expected = {"b": "bid", "c": "table", "f": "suit_led", "v": "game_info", "i": "game_info",
                "s": "scores", "t": "whose_turn", "h": "hand", "enter": "play",
                "escape": "cancel", "q": "save_and_quit", "k": "keep", "d": "discard",
                "x": "mark", "n": "nil", "up": "previous_suit", "down": "next_suit",
                "left": "previous_card", "right": "next_card", "home": "highest",
                "end": "lowest", "r": "repeat", "f1": "help", "shift+h": "jump_hearts"}
    for key, action in expected.items():
        assert keymap.action_for(key) == action, key
    assert all(keymap.action_for(str(d)) == f"digit_{d}" for d in range(10))


def test_every_action_has_a_default_key_but_listen() -> None:
    bound = set(load_keymap().bindings["keys"])
    assert set(ACTIONS) - bound == {"no", "confirm", "silence", "listen"}


def test_n_means_no_while_a_question_is_pending_and_nil_otherwise() -> None:
    keymap = load_keymap()
    assert keymap.action_for("n") == "nil"
    assert keymap.action_for("n", question_pending=True) == "no"
    assert keymap.action_for("enter", question_pending=True) == "confirm"
    assert keymap.action_for("h", question_pending=True) == "hand"


def test_a_user_entry_replaces_the_default_and_takes_its_key(tmp_path: Path) -> None:
    keymap = load_keymap(write(tmp_path, '[keys]\nhand = ["r", "F5"]\n'))
    assert keymap.action_for("r") == "hand" and keymap.action_for("f5") == "hand"
    assert keymap.action_for("h") is None
    assert keymap.keys_for("repeat") == []
    assert problems(keymap) == ["keymap.toml: repeat has no key now: your keymap took R."]


def test_unknown_action_bad_key_and_duplicate_are_reported_by_line(tmp_path: Path) -> None:
    keymap = load_keymap(write(tmp_path, "\n".join([
        "# my keys",
        "[keys]",
        'tabel = "c"',
        'scores = "ctrl+ü"',
        'hand = "o"',  # G is now the tricks-needed key (issue 10)
        'legal = ["j", "o"]',
        "bid = 3",
        "[question]",
        'yes = "shift+shift"',
        "[colours]",
        'x = "y"',
    ])))
    assert problems(keymap) == [
        "keymap.toml line 3: 'tabel' is not an action here; it is ignored.",
        "keymap.toml line 4: 'ctrl+ü' is not a key: ctrl goes with a letter, like ctrl+n; "
        "scores keeps its default keys.",
        "keymap.toml line 6: O is already bound to hand on line 5; legal keeps its default keys.",
        "keymap.toml line 7: give a key name in quotes, or a list of them; "
        "bid keeps its default keys.",
        "keymap.toml line 9: 'shift+shift' is not a key: shift goes with a letter, like shift+n; "
        "yes keeps its default keys.",
        "keymap.toml line 10: 'colours' is not a keymap section; the sections are [keys] and "
        "[question].",
    ]
    assert keymap.action_for("o") == "hand"
    for key, action in (("s", "scores"), ("w", "legal"), ("b", "bid"), ("c", "table")):
        assert keymap.action_for(key) == action
    assert keymap.action_for("y", question_pending=True) == "yes"


def test_a_file_that_is_not_toml_keeps_every_default(tmp_path: Path) -> None:
    keymap = load_keymap(write(tmp_path, '[keys]\nhand = "h"\nhand = "j"\n'))
    assert problems(keymap) == ["keymap.toml: line 3: Cannot overwrite a value; "
                               "using the default keys."]
    assert keymap.action_for("h") == "hand"
    keymap = load_keymap(write(tmp_path, "[keys\n"))
    assert problems(keymap)[0].startswith("keymap.toml: line 1: ")


def test_an_unreadable_file_keeps_every_default(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_bytes(b"\xff\xfe[keys]")
    keymap = load_keymap(path)
    assert "could not be read" in problems(keymap)[0]
    assert keymap.action_for("b") == "bid"


@pytest.mark.parametrize(("text", "name"), [
    ("B", "shift+b"), ("shift+B", "shift+b"), ("Ctrl+N", "ctrl+n"), ("Esc", "escape"),
    ("return", "enter"), ("F12", "f12"), ("?", "?"), ("PgUp", "page_up"), ("7", "7")])
def test_key_names(text: str, name: str) -> None:
    assert parse_key(text) == name


@pytest.mark.parametrize("text", ["", "ctrl+c", "alt+x", "shift+1", "f13", "ü", "xy"])
def test_bad_key_names(text: str) -> None:
    with pytest.raises(ValueError):
        parse_key(text)


def test_help_lists_the_keys_and_hints_follow_the_keymap(tmp_path: Path) -> None:
    text = help_text(load_keymap())
    assert text.startswith("Keys: B your bid, or the bids in play; C cards on the table; "
                           "F suit led; V or I ")
    assert "0 to 9 type a bid" in text
    assert "When asked a question: Y yes; N no; Enter yes; at a choice, asks again" in text
    custom = load_keymap(write(tmp_path, '[keys]\nplay = "space"\nhelp = "f2"\n'))
    assert hints(custom).confirm == "Space" and hints(custom).help == "F2"


def test_parse_keymap_is_usable_on_text(tmp_path: Path) -> None:
    bindings, problems = parse_keymap('[keys]\nhand = "h"\n', "test")
    assert bindings == {"keys": {"hand": ["h"]}} and problems == []


@pytest.mark.parametrize(("text", "reason"), [
    ("[keys]\nhand = " + "[" * 100_000 + "]" * 100_000, "storage.too_deep"),
    ("[keys]\nhand = " + "7" * 5_000, "storage.number_too_long"),
])
def test_a_file_python_cannot_take_is_moved_aside_with_the_defaults(
        tmp_path: Path, text: str, reason: str) -> None:
    path = write(tmp_path, text)
    keymap = load_keymap(path)
    assert [p.id for p in keymap.problems] == ["keymap.moved_aside"]
    assert keymap.problems[0].fields["reason"] == Message(reason)
    assert keymap.action_for("h") == "hand"
    assert not path.exists()
    assert [p.name.startswith("keymap.toml.corrupt-") for p in tmp_path.iterdir()] == [True]
    assert load_keymap(path).problems == []  # the next start is quiet
