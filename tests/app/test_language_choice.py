"""The language on the command line: its help in the language chosen (by option, by the
system's locale), and games and statistics that do not depend on it: a game saved in
Italian resumes in French, through the storage and session APIs the game uses."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.session.fakes import RecordingOutput, fast_bots
from tests.session.match_end import end_a_match
from voice_spades import app
from voice_spades.cli import main as cli_main
from voice_spades.commands import PlayCurrent, TypeDigit
from voice_spades.engine import Phase, profile
from voice_spades.narration.catalog import Catalog, active_language, set_language
from voice_spades.session import Pacer, Ports, Session
from voice_spades.session.settings import GameSettings
from voice_spades.session.startup import open_game
from voice_spades.storage import SaveStore, Stats

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def keep_the_language() -> Iterator[None]:
    before = active_language()
    yield
    set_language(before)


@pytest.mark.parametrize("language", ["it", "fr"])
def test_play_help_is_in_the_language_asked_for(language: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        app.main(["--language", language, "--help"])
    assert exited.value.code == 0
    words = Catalog(language, strict=True)
    shown = " ".join(capsys.readouterr().out.split())
    for message_id in ("cli.play.description", "cli.play.new", "language.option"):
        assert " ".join(words.render(message_id).split()) in shown, message_id


@pytest.mark.parametrize(("lang", "language"), [("it_IT.UTF-8", "it"), ("fr_FR.UTF-8", "fr"),
                                                 ("de_DE.UTF-8", "en")])
def test_the_system_locale_chooses_the_usage_s_language(tmp_path: Path, lang: str,
                                                        language: str) -> None:
    done = subprocess.run([sys.executable, "-m", "voice_spades", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                               "HOME": str(tmp_path), "LANG": lang,
                               "VOICE_SPADES_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == Catalog(language, strict=True).render("cli.usage").strip()


def test_a_wrong_language_is_refused_in_the_language_already_chosen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        app.main(["--data-dir", str(tmp_path), "--language", "de"])
    assert exited.value.code == 2
    assert "--language" in capsys.readouterr().err


def session_on(match: object, out: RecordingOutput, store: SaveStore, stats: Stats,
               settings: GameSettings) -> Session:
    return Session(match, Ports(out, store=store, stats=stats,  # type: ignore[arg-type]
                                pacer=Pacer(out.is_busy, min_gap=0.0)),
                   settings=settings, bot_factory=fast_bots)


def test_a_game_saved_in_italian_resumes_in_french(tmp_path: Path) -> None:
    store, stats = SaveStore(tmp_path / "savegame.json"), Stats(tmp_path / "stats.json")
    requested = GameSettings(rules="pagat", seed=3)
    set_language("it")
    opening = open_game(store, requested, {"seed"})
    out = RecordingOutput()
    session = session_on(opening.match, out, store, stats, opening.settings)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(3))
    session.handle(PlayCurrent())
    session.play_bots()
    assert session.view.phase is Phase.PLAY
    session.handle(PlayCurrent())
    session.save()
    italian = "\n".join(out.texts)
    assert "Hai dichiarato 3." in italian
    saved = opening.match.to_json()

    set_language("fr")
    again = open_game(store, requested, set())
    assert again.resumed and again.match.to_json() == saved
    out = RecordingOutput()
    session = session_on(again.match, out, store, stats, again.settings)
    session.start(resumed=True)
    assert out.ids[0] == "session.resumed"
    french = Catalog("fr", strict=True)
    resumed = french.templates["session.resumed"].normal
    assert isinstance(resumed, str) and out.texts[0].startswith(resumed.split("{")[0])

    text = (tmp_path / "savegame.json").read_text(encoding="utf-8")
    json.loads(text)
    assert not any(word in text for word in ("Hai", "dichiarato", "picche", "smazzata"))


def test_statistics_kept_in_italian_are_read_in_french(tmp_path: Path) -> None:
    set_language("it")
    end = end_a_match(tmp_path, profile("pagat", hand_limit=1), seed=5)
    assert any(line.message_id == "match.hand_limit" for line in end.out.lines)
    set_language("fr")
    stats = Stats(tmp_path / "stats.json")
    stats.load()
    assert sum(stats.of("pagat")) == 1
    text = (tmp_path / "stats.json").read_text(encoding="utf-8")
    assert not any(word in text for word in ("partita", "vinte", "partie", "gagn"))


@pytest.mark.parametrize("command", ["simulate", "models", "settings"])
def test_every_command_lists_the_language_option_in_its_help(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with contextlib.suppress(SystemExit):  # "models" returns its exit code instead
        cli_main([command, "--language", "fr", "--help"])
    shown = capsys.readouterr().out
    assert "--language {en,it,fr}" in shown and f"voice-spades {command}" in shown
