"""The autosave, the statistics file, and what happens when either is damaged."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from voice_spades.engine import Match, profile
from voice_spades.messages import Message
from voice_spades.narration import render_message
from voice_spades.session.settings import GameSettings
from voice_spades.session.startup import open_game
from voice_spades.storage import CorruptFileError, SaveStore, Stats, data_paths

ROOT = Path(__file__).resolve().parents[2]


def played_match(steps: int = 30, seed: int = 8) -> Match:
    match = Match(profile("pagat"), seed)
    for _ in range(steps):
        match.apply(match.legal_actions()[0])
    return match


def test_a_cardgames_save_from_before_any_spade_broke_spades_plays_on_under_its_rule(
        tmp_path: Path) -> None:
    """Saved when cardgames broke spades only on another suit's lead (the flag is in the
    save): it loads, replays the same and plays on to its end under that rule."""
    store = SaveStore(tmp_path / "savegame.json")
    match = Match(profile("cardgames").with_options(forced_spade_lead_breaks=False), 5)
    rng = random.Random(5)
    for _ in range(70):
        match.apply(rng.choice(match.legal_actions()))
    store.save(match, {"rules": "cardgames", "seed": 5})
    saved = store.load()
    assert saved is not None and saved.match.to_json() == match.to_json()
    assert not saved.match.rules.forced_spade_lead_breaks
    while not saved.match.is_over:
        saved.match.apply(rng.choice(saved.match.legal_actions()))


def test_a_save_loads_back_at_the_same_point(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "savegame.json")
    match = played_match()
    store.save(match, {"rules": "pagat", "seed": 8})
    saved = store.load()
    assert saved is not None
    assert saved.match.to_json() == match.to_json()
    assert saved.match.view(0) == match.view(0)
    assert saved.settings == {"rules": "pagat", "seed": 8}
    assert [p.name for p in tmp_path.iterdir()] == ["savegame.json"]


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe\x00", b'{"format": 3}',
                                     b'{"format": "voice-spades-save/1", "settings": {}}'])
def test_an_unreadable_save_is_moved_aside(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "savegame.json"
    path.write_bytes(content)
    with pytest.raises(CorruptFileError) as caught:
        SaveStore(path).load()
    assert caught.value.moved_to is not None and caught.value.moved_to.exists()
    assert caught.value.moved_to.name.startswith("savegame.json.corrupt-")
    assert not path.exists()
    assert render_message(caught.value.message).endswith(".")
    assert caught.value.where == caught.value.moved_to.name


def test_a_save_that_breaks_the_rules_is_moved_aside(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "savegame.json")
    store.save(played_match(), {})
    data = json.loads(store.path.read_text())
    data["match"]["hands"][0]["actions"][0] = "play:AS"  # a card played during the bidding
    store.path.write_text(json.dumps(data))
    with pytest.raises(CorruptFileError) as caught:
        store.load()
    assert "breaks the rules at action 1" in render_message(caught.value.reason)


def test_opening_the_game_resumes_or_starts_fresh(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "savegame.json")
    wanted = GameSettings(rules="pagat", seed=8, level="easy")
    opening = open_game(store, wanted, {"seed", "level"})
    assert not opening.resumed and opening.match.seed == 8 and opening.notices == []
    match = played_match()
    store.save(match, wanted.to_dict())
    other = GameSettings(rules="playroom", players=3, seed=8)
    opening = open_game(store, other, {"rules", "players"})
    assert opening.resumed and opening.match.to_json() == match.to_json()
    assert opening.settings == wanted
    assert opening.notices == [Message("setup.options_ignored", options="--players, --rules")]
    fresh = open_game(store, other, {"rules", "players"}, fresh=True)
    assert not fresh.resumed and fresh.match.rules.players == 3


def test_a_corrupt_save_gives_a_notice_and_a_new_match(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "savegame.json")
    store.path.write_text("garbage")
    opening = open_game(store, GameSettings(seed=2), {"seed"})
    assert not opening.resumed
    notice, = opening.notices
    assert notice.id == "setup.save_corrupt" and str(notice.fields["name"]).startswith(
        "savegame.json.")
    store.save(played_match(), {"level": "impossible"})
    opening = open_game(store, GameSettings(seed=2), {"seed"})
    reason = opening.notices[0].fields["reason"]
    assert not opening.resumed
    assert "impossible" in (render_message(reason) if isinstance(reason, Message) else str(reason))


def test_stats_count_wins_and_losses_per_profile(tmp_path: Path) -> None:
    stats = Stats(tmp_path / "stats.json")
    stats.load()
    stats.record("pagat", True)
    stats.record("pagat", False)
    stats.record("two-player", True)
    again = Stats(tmp_path / "stats.json")
    again.load()
    assert again.of("pagat") == (1, 1) and again.of("two-player") == (1, 0)
    assert again.of("playroom") == (0, 0)


def test_corrupt_stats_are_moved_aside_and_start_empty(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    path.write_text('{"format": "voice-spades-stats/1", "profiles": {"pagat": {"wins": -1}}}')
    stats = Stats(path)
    with pytest.raises(CorruptFileError):
        stats.load()
    assert stats.records == {} and not path.exists()
    stats.record("pagat", True)
    assert stats.of("pagat") == (1, 0)


def test_data_folder_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICE_SPADES_HOME", str(tmp_path / "env"))
    assert data_paths().save_file == tmp_path / "env" / "savegame.json"
    assert data_paths(tmp_path / "arg").keymap_file == tmp_path / "arg" / "keymap.toml"
    monkeypatch.delenv("VOICE_SPADES_HOME")
    assert data_paths().save_file.name == "savegame.json"


HAMMER = """
import sys
from voice_spades.engine import Match, profile
from voice_spades.messages import Message
from voice_spades.narration import render_message
from voice_spades.storage import SaveStore
store = SaveStore(__import__("pathlib").Path(sys.argv[1]))
match = Match(profile("pagat"), 5)
print("ready", flush=True)
while True:
    if match.is_over:
        match = Match(profile("pagat"), 5)
    match.apply(match.legal_actions()[0])
    store.save(match, {"n": len(match.hand.actions)})
"""


@pytest.mark.slow
def test_killing_a_process_mid_save_never_leaves_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "savegame.json"
    rng = random.Random(1)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(6):
        child = subprocess.Popen([sys.executable, "-c", HAMMER, str(path)], env=env,
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.05, 0.3))
        child.send_signal(signal.SIGKILL)
        child.wait()
        saved = SaveStore(path).load()  # raises CorruptFileError if the file were torn
        assert saved is not None and saved.settings["n"] >= 0
