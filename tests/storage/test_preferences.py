"""The preferences file: round trip, defaults, damaged files and bad values."""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

import pytest

from voice_spades.errors import InvalidInputError
from voice_spades.messages import Message
from voice_spades.narration import render_message
from voice_spades.storage import data_paths
from voice_spades.storage.preferences import (
    PREFERENCE_NAMES,
    Preferences,
    checked_value,
    file_is_damaged,
    load_preferences,
    preferences_file,
    preferences_toml,
    replace_preference,
    save_preferences,
)


def test_no_file_gives_the_defaults_and_no_problem(tmp_path: Path) -> None:
    prefs, problems = load_preferences(tmp_path / "nowhere")
    assert prefs == Preferences() and problems == []
    assert (prefs.speech, prefs.sounds, prefs.sound_volume) == ("auto", True, 70)
    assert (prefs.language, prefs.rate, prefs.voice) == (None, None, None)


@pytest.mark.parametrize("prefs", [
    Preferences(),
    Preferences(speech="screen-reader", sounds=False, sound_volume=0, language="it",
                rate=450, voice='en-us "Quoted" \\ voce è'),
    Preferences(speech="text", sound_volume=100, language="fr", voice="fr"),
])
def test_saved_preferences_load_back_the_same(tmp_path: Path, prefs: Preferences) -> None:
    save_preferences(tmp_path / "new folder", prefs)
    assert load_preferences(tmp_path / "new folder") == (prefs, [])
    assert [p.name for p in (tmp_path / "new folder").iterdir()] == ["preferences.toml"]


def test_the_file_is_plain_toml_a_player_can_edit(tmp_path: Path) -> None:
    save_preferences(tmp_path, Preferences(sounds=False, rate=300))
    text = preferences_file(tmp_path).read_text(encoding="utf-8")
    assert text == ('speech = "auto"\nreader_lines = "speech"\nsounds = false\n'
                    'sound_volume = 70\nrate = 300\noffer_voice_model = true\n')
    edited = text.replace("300", "350").replace("sounds = false", 'sounds = "on"')
    edited = edited.replace("sound_volume = 70", 'sound-volume = "45"')
    preferences_file(tmp_path).write_text(edited + 'language = "fr"\n', encoding="utf-8")
    prefs, problems = load_preferences(tmp_path)
    assert problems == []
    assert (prefs.rate, prefs.language, prefs.sound_volume, prefs.sounds) == (350, "fr", 45, True)


@pytest.mark.parametrize("text", [
    "speech = \n", "[[[", "sounds = true\nsounds = false\n", "\x00", "a = [" * 2000,
])
def test_a_damaged_file_is_one_message_and_the_defaults(tmp_path: Path, text: str) -> None:
    preferences_file(tmp_path).write_text(text, encoding="utf-8")
    prefs, problems = load_preferences(tmp_path)
    assert prefs == Preferences()
    assert [p.id for p in problems] == ["preferences.damaged"]
    said = render_message(problems[0])
    assert str(preferences_file(tmp_path)) in said and said.endswith("default preferences.")
    assert file_is_damaged(tmp_path)


def test_a_file_that_is_not_text_is_reported(tmp_path: Path) -> None:
    preferences_file(tmp_path).write_bytes(b"speech = \"\xff\xfe\"\n")
    prefs, problems = load_preferences(tmp_path)
    assert prefs == Preferences() and [p.id for p in problems] == ["preferences.unreadable"]


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0,
                    reason="file permissions do not stop this user")
def test_an_unreadable_file_is_reported(tmp_path: Path) -> None:
    save_preferences(tmp_path, Preferences(speech="voice"))
    preferences_file(tmp_path).chmod(0)
    prefs, problems = load_preferences(tmp_path)
    assert prefs == Preferences() and [p.id for p in problems] == ["preferences.unreadable"]
    assert "Permission denied" in render_message(problems[0])


def test_each_bad_value_is_reported_and_only_it_takes_its_default(tmp_path: Path) -> None:
    preferences_file(tmp_path).write_text(
        'speech = "loud"\nsounds = 3\nsound_volume = 140\nlanguage = "de"\nrate = 300\n'
        'voice = ""\ncolour = "red"\n', encoding="utf-8")
    prefs, problems = load_preferences(tmp_path)
    assert prefs == Preferences(rate=300)
    assert [p.id for p in problems] == ["preferences.in_file"] * 6
    said = [render_message(p) for p in problems]
    assert said[0].endswith("speech cannot be loud. It can be: auto, screen-reader, voice, "
                            "text. The default is used.")
    assert "sound-volume cannot be 140. It can be: 0-100." in said[2]
    assert "There is no preference called colour." in said[5]


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("speech", "Screen-Reader", "screen-reader"), ("sounds", "off", False),
    ("sounds", "ON", True), ("sound-volume", "0", 0), ("SOUND_VOLUME", "100", 100),
    ("language", "it", "it"), ("language", "default", None), ("rate", "480", 480),
    ("rate", "default", None), ("voice", " en-gb ", "en-gb"), ("speech", "default", "auto"),
])
def test_a_preference_set_as_typed(name: str, value: str, expected: object) -> None:
    changed = replace_preference(Preferences(language="fr", rate=200), name, value)
    assert getattr(changed, name.lower().replace("-", "_")) == expected


@pytest.mark.parametrize(("name", "value", "message"), [
    ("speech", "loud", Message("preferences.bad_value", name="speech", value="loud",
                               allowed="auto, screen-reader, voice, text")),
    ("sounds", "maybe", Message("preferences.bad_value", name="sounds", value="maybe",
                                allowed="on, off")),
    ("sound-volume", "-1", Message("preferences.bad_value", name="sound-volume", value="-1",
                                   allowed="0-100")),
    ("rate", "2.5", Message("preferences.bad_value", name="rate", value="2.5",
                            allowed="80-500, default")),
    ("rate", "10", Message("preferences.bad_value", name="rate", value="10",
                           allowed="80-500, default")),
    ("language", "de", Message("preferences.bad_value", name="language", value="de",
                               allowed="en, it, fr, default")),
    ("voice", "\x1b[2J", Message("preferences.bad_value", name="voice", value="\\x1b[2J",
                                 allowed=Message("preferences.any_voice", default="default"))),
    ("volume", "3", Message("preferences.unknown_name", name="volume",
                            names="speech, reader-lines, sounds, sound-volume, language, "
                                  "rate, voice, offer-voice-model")),
])
def test_a_wrong_name_or_value_says_what_is_accepted(name: str, value: str,
                                                      message: Message) -> None:
    with pytest.raises(InvalidInputError) as caught:
        replace_preference(Preferences(), name, value)
    assert caught.value.message == message


def test_every_preference_is_written_and_none_means_left_out() -> None:
    full = Preferences(language="en", rate=100, voice="x")
    assert list(tomllib.loads(preferences_toml(full))) == list(PREFERENCE_NAMES)
    assert "language" not in tomllib.loads(preferences_toml(Preferences()))


def test_the_file_lives_in_the_config_folder_or_the_data_dir(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    monkeypatch.delenv("VOICE_SPADES_HOME", raising=False)
    assert data_paths(tmp_path).preferences_file == tmp_path / "preferences.toml"
    default = data_paths().preferences_file
    assert default.name == "preferences.toml" and default.parent.name == "voice-spades"
    assert default.parent == data_paths().keymap_file.parent


def test_a_write_that_fails_leaves_the_old_file(tmp_path: Path) -> None:
    save_preferences(tmp_path, Preferences(speech="voice"))
    (tmp_path / "blocked").write_text("a file, not a folder")
    with pytest.raises(OSError):
        save_preferences(tmp_path / "blocked", Preferences())
    assert load_preferences(tmp_path)[0].speech == "voice"


@pytest.mark.parametrize(("text", "reason"), [
    ("rate = " + "[" * 100_000 + "]" * 100_000, "storage.too_deep"),
    ("rate = " + "7" * 5_000, "storage.number_too_long"),
])
def test_a_file_python_cannot_take_is_moved_aside_once_said(
        tmp_path: Path, text: str, reason: str) -> None:
    path = preferences_file(tmp_path)
    path.write_text(text, encoding="utf-8")
    prefs, problems = load_preferences(tmp_path)  # as the language is chosen: left in place
    assert prefs == Preferences() and [p.id for p in problems] == ["preferences.refused"]
    assert path.exists() and file_is_damaged(tmp_path)
    prefs, problems = load_preferences(tmp_path, set_aside_unusable=True)
    assert prefs == Preferences() and [p.id for p in problems] == ["preferences.moved_aside"]
    assert problems[0].fields["reason"] == Message(reason)
    said = render_message(problems[0])
    assert said.startswith(f"Your preferences file {path} could not be used: ")
    assert said.endswith("; the game uses the default preferences.")
    assert not path.exists() and load_preferences(tmp_path) == (Preferences(), [])


def test_reader_lines_is_console_or_speech() -> None:
    assert checked_value("reader_lines", " Speech ") == "speech"
    assert checked_value("reader_lines", "default") == "speech"
    with pytest.raises(InvalidInputError):
        checked_value("reader_lines", "both")
