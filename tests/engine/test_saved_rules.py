"""Saved rule options are checked for real (also under ``python -O``), naming the field."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.engine.helpers import raises_saying, said
from voice_spades.engine import (
    PROFILE_NAMES,
    InvalidInputError,
    InvalidStateError,
    Match,
    options_from_dict,
    options_to_dict,
    profile,
)


@pytest.mark.parametrize(("key", "value", "sentence"), [
    ("no_hell", 1, "Rule option 'no_hell' has a bad value 1: it must be true or false."),
    ("quicksand", "yes", "Rule option 'quicksand' has a bad value \"yes\": it must be true or "
                         "false."),
    ("target", 500.5, "Rule option 'target' has a bad value 500.5: it must be a whole number."),
    ("target", True, "Rule option 'target' has a bad value true: it must be a whole number."),
    ("target", 0, "Rule option 'target' has a bad value 0: it must be at least 1."),
    ("nil_points", "100", "Rule option 'nil_points' has a bad value \"100\": it must be a "
                          "whole number."),
    ("bag_limit", 0, "Rule option 'bag_limit' has a bad value 0: it must be from 1 to 100."),
    ("players", 9, "Rule option 'players' has a bad value 9: it must be from 2 to 6."),
    ("player_range", [4], "Rule option 'player_range' has a bad value [4]: it must be two "
                          "player counts from 2 to 6, the lower first."),
    ("player_range", [6, 3], "Rule option 'player_range' has a bad value [6, 3]: it must be "
                             "two player counts from 2 to 6, the lower first."),
    ("failed_nil", "whatever", "Rule option 'failed_nil' has a bad value \"whatever\"."),
    ("deal", 1, "Rule option 'deal' has a bad value 1."),
    ("name", None, "Rule option 'name' has a bad value null: it must be a name."),
    ("jokers", True, "Unknown rule option 'jokers'."),
])
def test_each_bad_option_is_refused_naming_it(key: str, value: object, sentence: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        options_from_dict({**options_to_dict(profile("pagat")), key: value})
    assert said(err.value) == sentence


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_every_profile_round_trips(name: str) -> None:
    rules = profile(name)
    assert options_from_dict(json.loads(json.dumps(options_to_dict(rules)))) == rules


def test_a_damaged_option_in_a_saved_match_refuses_the_save() -> None:
    data = json.loads(Match(profile("pagat"), seed=1).to_json())
    data["rules"]["nil_points"] = "100"
    with pytest.raises(InvalidStateError) as err:
        Match.from_dict(data)
    assert said(err.value) == ("The saved rules are damaged: Rule option 'nil_points' has a "
                               "bad value \"100\": it must be a whole number.")


def test_rules_that_break_the_profile_are_still_refused() -> None:
    with raises_saying(InvalidInputError, "The pagat rules are for 4 players, not 3"):
        options_from_dict({**options_to_dict(profile("pagat")), "players": 3})


CHECK_UNDER_O = """
from voice_spades.engine import InvalidInputError, options_from_dict
refused = []
for key, value in (("no_hell", 1), ("target", 500.5), ("nil_points", "100")):
    try:
        options_from_dict({key: value})
    except InvalidInputError as error:
        refused.append(error.fields["name"])
print(",".join(refused))
"""


def test_the_checks_hold_under_python_dash_o() -> None:
    result = subprocess.run([sys.executable, "-O", "-c", CHECK_UNDER_O], capture_output=True,
                            text=True, check=True, timeout=60)
    assert result.stdout.strip() == "no_hell,target,nil_points"
