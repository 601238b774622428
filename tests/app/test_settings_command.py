"""`voice-spades settings`, and the game taking its options from the preferences."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_spades.app import build_parser
from voice_spades.cli import main as cli_main
from voice_spades.messages import Message
from voice_spades.narration.catalog import active_language, set_language
from voice_spades.settings_command import main
from voice_spades.speech.announcer import Announcer
from voice_spades.speech.from_options import keep_rate
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.text_speaker import TextSpeaker
from voice_spades.storage.preferences import (
    Preferences,
    apply_preferences,
    checked_rate,
    load_preferences,
    save_preferences,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def english_system(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The system asks for English; the language the command picks is undone after."""
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    before = active_language()
    yield
    set_language(before)


def settings(capsys: pytest.CaptureFixture[str], folder: Path, *words: str
             ) -> tuple[int, list[str], list[str]]:
    code = cli_main(["settings", *words, "--data-dir", str(folder)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_with_no_argument_every_preference_is_shown(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = settings(capsys, tmp_path)
    assert (code, err) == (0, [])
    assert out == [
        f"Preferences file: {tmp_path / 'preferences.toml'}",
        "speech: auto. It can be: auto, screen-reader, voice, text.",
        "reader-lines: speech. It can be: console, speech.",
        "sounds: on. It can be: on, off.",
        "sound-volume: 70. It can be: 0-100.",
        "language: not set, so the system's language. It can be: en, it, fr, default.",
        "rate: not set, so the speech's own rate. It can be: 80-500, default.",
        "voice: not set, so the speech's own voice. It can be: the name of a voice, or "
        "default.",
        "offer-voice-model: on. It can be: on, off.",
    ]
    assert not (tmp_path / "preferences.toml").exists()  # looking writes nothing


def test_a_preference_is_set_checked_and_kept(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert settings(capsys, tmp_path, "speech", "voice") == (0, ["speech is now voice."], [])
    assert settings(capsys, tmp_path, "sound-volume", "35") == \
        (0, ["sound-volume is now 35."], [])
    assert settings(capsys, tmp_path, "sounds", "off") == (0, ["sounds is now off."], [])
    assert load_preferences(tmp_path) == (Preferences(speech="voice", sounds=False,
                                                      sound_volume=35), [])
    code, out, _ = settings(capsys, tmp_path, "sound-volume")
    assert (code, out[1:]) == (0, ["sound-volume: 35. It can be: 0-100."])


@pytest.mark.parametrize(("words", "said"), [
    (["speach", "voice"], "There is no preference called speach. The preferences are: "
                          "speech, reader-lines, sounds, sound-volume, language, rate, voice, "
                          "offer-voice-model."),
    (["speech", "loud"], "speech cannot be loud. It can be: auto, screen-reader, voice, text."),
    (["sound-volume", "101"], "sound-volume cannot be 101. It can be: 0-100."),
    (["language", "de"], "language cannot be de. It can be: en, it, fr, default."),
    (["rate", "fast"], "rate cannot be fast. It can be: 80-500, default."),
    (["speech", "voice", "now"], "Give one preference and one value, for example: "
                                 "voice-spades settings speech voice."),
])
def test_a_wrong_name_or_value_is_refused_with_what_is_accepted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str],
        said: str) -> None:
    save_preferences(tmp_path, Preferences(speech="text"))
    assert settings(capsys, tmp_path, *words) == (2, [], [said])
    assert load_preferences(tmp_path) == (Preferences(speech="text"), [])


def test_reset_puts_back_one_preference_or_all(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    save_preferences(tmp_path, Preferences(speech="text", rate=400, sounds=False))
    assert settings(capsys, tmp_path, "--reset", "rate") == (
        0, ["rate is back to its default, not set, so the speech's own rate."], [])
    assert load_preferences(tmp_path)[0] == Preferences(speech="text", sounds=False)
    assert settings(capsys, tmp_path, "--reset") == (
        0, ["Every preference is back to its default."], [])
    assert load_preferences(tmp_path) == (Preferences(), [])


def test_the_command_speaks_the_language_preferred(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert settings(capsys, tmp_path, "language", "it") == (0, ["language is now it."], [])
    code, out, _ = settings(capsys, tmp_path, "rate")
    assert out[1] == "rate: non impostata, quindi la velocità propria della voce. Può " \
                     "valere: 80-500, default."
    code, out, _ = settings(capsys, tmp_path, "--language", "fr", "sounds", "off")
    assert (code, out) == (0, ["sounds vaut maintenant off."])


def test_a_damaged_file_is_reported_and_kept_aside_when_a_value_is_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "preferences.toml").write_text('speech = "voice\nrate = 300\n')
    code, out, err = settings(capsys, tmp_path)
    assert code == 0 and out[1] == "speech: auto. It can be: auto, screen-reader, voice, text."
    assert err[0].startswith(f"Your preferences file {tmp_path / 'preferences.toml'} is "
                             "damaged (")
    code, out, err = settings(capsys, tmp_path, "rate", "300")
    assert (code, out) == (0, ["rate is now 300."])
    kept = list(tmp_path.glob("preferences.toml.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == 'speech = "voice\nrate = 300\n'
    assert err[1] == f"The damaged preferences file was kept as {kept[0]}."
    assert load_preferences(tmp_path) == (Preferences(rate=300), [])


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0,
                    reason="file permissions do not stop this user")
def test_a_folder_that_cannot_be_written_is_said(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path.chmod(0o500)
    try:
        code, _, err = settings(capsys, tmp_path, "speech", "text")
    finally:
        tmp_path.chmod(0o700)
    assert (code, err) == (1, [f"The preferences could not be saved: you may not write in "
                               f"{tmp_path}."])


def test_a_file_in_the_way_of_the_folder_is_said(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")
    code, _, err = settings(capsys, tmp_path / "file" / "inside", "speech", "text")
    assert code == 1 and err[0].startswith("The preferences could not be saved: ")
    assert str(tmp_path / "file") in err[0]


def test_the_settings_module_runs_alone(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path), "voice", "en-gb"]) == 0
    assert capsys.readouterr().out == "voice is now en-gb.\n"


# ----- the game's options come from the preferences ------------------------------
def parsed(argv: list[str], prefs: Preferences,
           problems: list[Message] | None = None) -> dict[str, object]:
    parser = build_parser()
    return vars(apply_preferences(parser, argv, prefs, problems or []))


def test_preferences_are_the_defaults_and_typed_options_win() -> None:
    prefs = Preferences(rate=320, voice="en-gb", speech="text")
    args = parsed([], prefs)
    assert (args["rate"], args["voice"]) == (320, "en-gb")
    args = parsed(["--rate", "250", "--voice", "fr"], prefs)
    assert (args["rate"], args["voice"]) == ("250", "fr")  # as typed: checked_rate says why not
    assert checked_rate(args["rate"]) == 250
    assert args["speech"] == "text"
    assert parsed(["--speech", "voice"], prefs)["speech"] == "voice"
    assert parsed(["--no-speech"], Preferences())["no_speech"] is True
    defaults = parsed([], Preferences())
    assert (defaults["rate"], defaults["voice"], defaults["speech"]) == (None, None, "auto")


def test_the_sound_and_language_options_take_their_preferences() -> None:
    prefs = Preferences(sounds=False, sound_volume=20, language="fr")
    args = parsed([], prefs)
    assert (args["sounds"], args["sound_volume"], args["language"]) == ("off", 20, "fr")
    args = parsed(["--sounds", "on", "--sound-volume", "90", "--language", "it"], prefs)
    assert (args["sounds"], args["sound_volume"], args["language"]) == ("on", 90, "it")
    defaults = parsed([], Preferences())
    assert (defaults["sounds"], defaults["sound_volume"], defaults["language"]) == \
        ("on", 70, None)


def play(folder: Path, *options: str) -> list[str]:
    """The lines of a game started in ``folder`` and quit at once (keys piped in)."""
    result = subprocess.run(
        [sys.executable, "-m", "voice_spades", "--no-voice", "--pace", "0", "--level", "easy",
         "--data-dir", str(folder), "--seed", "3", *options],
        input="q\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder),
             "LANG": "en_US.UTF-8"})
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_the_game_says_what_is_wrong_in_the_preferences_file(tmp_path: Path) -> None:
    (tmp_path / "preferences.toml").write_text('sound_volume = 500\nrate = 300\n')
    assert f"In your preferences file {tmp_path / 'preferences.toml'}: sound-volume cannot " \
           "be 500. It can be: 0-100. The default is used." in play(tmp_path, "--no-speech")


def test_the_game_speaks_as_the_preferences_say(tmp_path: Path) -> None:
    """speech = "text" and language = "it" in the file: no speech is tried, Italian is
    spoken; an option typed wins."""
    save_preferences(tmp_path, Preferences(speech="text", language="it", sounds=False))
    lines = play(tmp_path)
    assert lines[0].startswith("Nessun terminale"), lines[0]  # nothing about speech first
    assert "Arrivederci" in lines[-1], lines[-1]
    assert play(tmp_path, "--language", "en")[0].startswith("No terminal on standard input")


def test_the_faster_and_slower_keys_are_kept_for_the_next_game(tmp_path: Path) -> None:
    save_preferences(tmp_path, Preferences(language="it", rate=200))
    out = AnnouncerOutput(Announcer(TextSpeaker(stream=io.StringIO())), 200, keep_rate(tmp_path))
    assert out.change_rate(1) and out.change_rate(1) and out.change_rate(-1)
    prefs, problems = load_preferences(tmp_path)
    assert (prefs.rate, prefs.language, problems) == (225, "it", [])


def test_a_damaged_preferences_file_is_not_overwritten_by_a_rate(tmp_path: Path) -> None:
    damaged = "rate = [\n"
    (tmp_path / "preferences.toml").write_text(damaged, encoding="utf-8")
    keep_rate(tmp_path)(300)
    assert (tmp_path / "preferences.toml").read_text(encoding="utf-8") == damaged
