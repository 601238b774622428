"""Saved settings are checked field by field, also under ``python -O``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from voice_spades.errors import InvalidStateError
from voice_spades.narration import render_message
from voice_spades.session import GameSettings

ROOT = Path(__file__).resolve().parents[2]


def test_settings_round_trip() -> None:
    settings = GameSettings(rules="playroom", players=5, level="hard", target=300, seed=9,
                            no_hell=True, quicksand=True)
    assert GameSettings.from_dict(settings.to_dict()) == settings
    assert GameSettings.from_dict({}) == GameSettings()
    assert GameSettings.from_dict({"seed": 4, "future_option": "x"}).seed == 4


@pytest.mark.parametrize(("data", "field"), [
    ({"no_hell": 1}, "no_hell"),
    ({"quicksand": "yes"}, "quicksand"),
    ({"target": 500.5}, "target"),
    ({"target": True}, "target"),
    ({"players": "4"}, "players"),
    ({"seed": None}, "seed"),
    ({"level": 2}, "level"),
    ({"rules": None}, "rules"),
])
def test_a_field_of_the_wrong_type_is_named(data: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidStateError) as caught:
        GameSettings.from_dict(data)
    assert caught.value.message_id == "settings.bad_field"
    assert render_message(caught.value.message) == f"the saved setting {field} is damaged."


def test_unknown_names_and_impossible_tables_are_refused() -> None:
    with pytest.raises(InvalidStateError) as caught:
        GameSettings.from_dict({"level": "impossible"})
    assert render_message(caught.value.message) == "the saved level impossible is unknown."
    with pytest.raises(InvalidStateError) as caught:
        GameSettings.from_dict({"rules": "klondike"})
    assert render_message(caught.value.message) == "the saved rules klondike are unknown."
    with pytest.raises(InvalidStateError) as caught:
        GameSettings.from_dict({"rules": "pagat", "players": 3})
    assert render_message(caught.value.message) == (
        "the saved options make no match: The pagat rules are for 4 players, not 3.")
    with pytest.raises(InvalidStateError) as caught:
        GameSettings.from_dict(["pagat"])
    assert caught.value.message_id == "settings.not_a_table"


def test_the_checks_hold_under_python_O() -> None:
    script = (
        "from voice_spades.errors import InvalidStateError\n"
        "from voice_spades.session import GameSettings\n"
        "for data in ({'no_hell': 1}, {'target': 500.5}, {'players': '4'}):\n"
        "    try:\n"
        "        GameSettings.from_dict(data)\n"
        "    except InvalidStateError as error:\n"
        "        print(error.fields['name'])\n"
        "    else:\n"
        "        print('accepted')\n")
    done = subprocess.run([sys.executable, "-O", "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["no_hell", "target", "players"]
