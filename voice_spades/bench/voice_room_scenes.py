"""What the room bench plays: the narrator's lines, the player's commands, and scenes.

The narration is the game's own: the lines the narrator says over a seeded match
between computer players, spoken by the game's synthesizer (pyttsx3 driving
espeak-ng, in its worker process), a few lines to a clip as the game says them
one after another. The commands are the voice benchmark's manifest clips
(:func:`voice_spades.voice.testing.manifest.plan`: every kind of command, several
espeak-ng voices, speeds and pitches). A :class:`Scene` puts one command in one
room, at one loudness against the echo, in one background noise, either while the
narrator speaks or just after.
"""

from __future__ import annotations

import hashlib
import random
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voice_spades.bots.base import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.engine import Match, profile
from voice_spades.narration import Narrator, Phrasebook, Verbosity
from voice_spades.voice.testing.manifest import DEFAULT_VOICES, Clip, plan, render
from voice_spades.voice.testing.room import ROOMS, Floats
from voice_spades.voice.testing.testspeech import default_cache_dir

NARRATION_RATE = 200
"""Words a minute of the narrator (the game's default rate)."""
CLIP_SECONDS = 4.0
"""A narration clip gathers lines until it lasts at least this long."""
RATIOS = (-6.0, 0.0, 6.0)
"""The player's loudness against the narrator's echo at the microphone, dB."""
NOISE_NAMES = ("quiet", "fan", "rumble")
KINDS = ("during", "after")


@dataclass(frozen=True, slots=True)
class Scene:
    """One trial: a command said over (``during``) or after (``after``) a narration
    clip, in a room, at a loudness ratio, in a background noise. ``offset`` is
    seconds after the narration starts (during) or ends (after)."""

    number: int
    kind: str
    narration: int
    room: str
    ratio_db: float
    noise: str
    offset: float
    clip: Clip


def narration_lines(seed: int, count: int) -> list[str]:
    """``count`` lines the narrator says to South over a match between computer
    players (bids, cards, tricks, contracts), as the game words them."""
    match = Match(profile("pagat"), seed=seed)
    narrator = Narrator(Phrasebook(match.rules, 0, Verbosity.NORMAL))
    players = [LegalMovePlayer(seed * 10 + seat) for seat in range(match.rules.players)]
    lines: list[str] = []
    while len(lines) < count and match.to_act is not None:
        seat = match.to_act
        for event in match.apply(decide(players[seat], match.view(seat))):
            lines += [line.text for line in narrator.narrate(event) if line.text]
    return lines[:count]


def synthesize_line(text: str, client: object | None = None) -> tuple[Floats, int]:
    """``text`` spoken by the game's synthesizer (pyttsx3 + espeak-ng), as float32
    samples and their rate; cached by text."""
    folder = default_cache_dir() / "narration"
    folder.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(repr((text, NARRATION_RATE)).encode()).hexdigest()[:32]
    path = folder / f"{key}.wav"
    if not path.exists():
        from voice_spades.speech.synth import SynthClient

        synth = client if isinstance(client, SynthClient) else SynthClient()
        with tempfile.TemporaryDirectory(prefix="voice-spades-room-") as tmp:
            made = Path(tmp) / "line.wav"
            synth.synth(text, made, NARRATION_RATE, None, 50)
            made.replace(path)
        if synth is not client:
            synth.close()
    with wave.open(str(path), "rb") as handle:
        rate = handle.getframerate()
        data = np.frombuffer(handle.readframes(handle.getnframes()), dtype="<i2")
    return (data.astype(np.float32) / 32768.0), rate


def narration_clips(seed: int, count: int) -> list[tuple[Floats, int]]:
    """``count`` narration clips of at least :data:`CLIP_SECONDS` each: consecutive
    lines of the narrator with the short gap the game leaves between them."""
    from voice_spades.speech.synth import SynthClient

    client = SynthClient()
    try:
        lines = iter(narration_lines(seed, count * 8 + 8))
        clips: list[tuple[Floats, int]] = []
        while len(clips) < count:
            parts: list[Floats] = []
            rate = 0
            while sum(len(p) for p in parts) < CLIP_SECONDS * (rate or 22050):
                samples, rate = synthesize_line(next(lines), client)
                parts += [samples, np.zeros(int(0.25 * rate), dtype=np.float32)]
            clips.append((np.concatenate(parts[:-1]), rate))
        return clips
    finally:
        client.close()


def plan_scenes(seed: int, during: int, after: int, rooms: tuple[str, ...] = tuple(ROOMS),
                ratios: tuple[float, ...] = RATIOS,
                noises: tuple[str, ...] = NOISE_NAMES) -> list[Scene]:
    """``during`` commands said over the narrator and ``after`` said once it stopped,
    spread over every room, loudness and noise, each a different manifest clip.

    Scenes come grouped by room and noise, each room with one noise (the small room
    quiet, the medium one with a fan, the large one rumbling, by default): a player
    stays in one room, and each group is a game of its own for the runners, which
    let the canceller learn the room first. Each group mixes loudness ratios and both
    kinds; ``seed`` fixes everything."""
    rng = random.Random(seed)
    groups = [(rooms[i % len(rooms)], noises[i % len(noises)])
              for i in range(max(len(rooms), len(noises)))]
    kinds = ["during"] * during + ["after"] * after
    rng.shuffle(kinds)
    clips = plan(during + after, DEFAULT_VOICES, (150, 170, 200), (35, 50, 65), (0.0,),
                 seed=seed)
    rng.shuffle(clips)
    per_group = -(-len(kinds) // len(groups))
    scenes = []
    for number, kind in enumerate(kinds):
        room, noise = groups[number // per_group]
        ratio = ratios[number % len(ratios)]
        offset = rng.uniform(1.0, 2.0) if kind == "during" else rng.uniform(0.1, 0.6)
        scenes.append(Scene(number, kind, number, room, ratio, noise, round(offset, 2),
                            clips[number]))
    return scenes


def parse_scene_options(rooms: str, ratios: str, noises: str) \
        -> tuple[tuple[str, ...], tuple[float, ...], tuple[str, ...]]:
    """Comma-separated rooms, loudness ratios (dB) and noises; ValueError for a ratio
    that is no number."""
    def items(text: str) -> list[str]:
        return [t.strip() for t in text.split(",") if t.strip()]

    return (tuple(items(rooms)), tuple(float(r) for r in items(ratios)),
            tuple(items(noises)))


def command_samples(clip: Clip) -> Floats:
    """The command's clip (16 kHz, dry), as float32."""
    return np.frombuffer(render(clip), dtype="<i2").astype(np.float32) / 32768.0
