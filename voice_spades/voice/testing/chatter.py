"""Table talk: speech that is no command, for testing that the game ignores it.

A game played hands-free sits among people who talk: about the game ("I think
she has the ace"), about anything else ("pass me the salt"). None of it may act,
and little of it may even cause a question. :data:`SENTENCES` are ordinary
sentences heard at a card table (written for this project); :func:`plan_chatter`
speaks each in several voices, speeds and noise levels for
``python -m voice_spades.voice.testing.manifest --chatter``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from voice_spades.voice.testing.testspeech import SpeechParams

SENTENCES = (
    # about the game, with the game's own words
    "i think she has the ace", "i was sure you had the king", "nice play partner",
    "you always get the good cards", "that was a lucky hand", "we set them last hand",
    "don't lead hearts next time", "how many points do we need", "good game everyone",
    "we are going to lose this one", "he never counts the cards", "you are cheating",
    "that was a terrible trick", "let's play one more round after this",
    "your turn to shuffle next time", "she plays like a professional",
    "i should have bid more", "who dealt this mess",
    # anything else
    "what time is it", "pass me the salt", "who wants another drink",
    "did you see the game last night", "my back is killing me",
    "can you turn the music down", "we should order pizza", "i can't believe you did that",
    "where did i put my glasses", "the dog needs to go out", "is it raining outside",
    "let me get some more coffee", "how is your mother doing", "i have to leave at nine",
    "this chair is uncomfortable", "hold on a second", "somebody is at the door",
    "are we still going tomorrow", "i forgot to call my sister", "the kids are asleep finally",
    "do you want some cake", "what are we having for dinner", "i love this song",
    "open the window please", "the phone is ringing", "did anyone feed the cat",
    "tell me about your trip", "i need a new pair of shoes", "turn on the light",
    "it is getting late", "who is winning the football", "my coffee is cold", "this is fun",
    "where are the car keys", "what a beautiful day", "can i have a glass of water",
    "did you hear that noise", "i'm so tired tonight",
)
"""Ordinary sentences said at a card table, none of them a command."""


def plan_chatter(count: int, voices: Sequence[str], speeds: Sequence[int],
                 pitches: Sequence[int], noise: Sequence[float], *, floor: float,
                 pad_seconds: float, seed: int = 1) -> list[tuple[str, SpeechParams]]:
    """``count`` clips of :data:`SENTENCES`, each sentence in turn, voices in turn
    (shifted every round, so a sentence meets different voices), speed, pitch and
    noise drawn at random; ``floor`` is the least noise any clip gets."""
    rng = random.Random(seed)
    clips = []
    for i in range(count):
        text = SENTENCES[i % len(SENTENCES)]
        voice = voices[(i + i // len(SENTENCES)) % len(voices)]
        level = max(rng.choice(noise), floor)
        clips.append((text, SpeechParams(voice=voice, speed=rng.choice(speeds),
                                         pitch=rng.choice(pitches), noise=level,
                                         pad_seconds=pad_seconds, seed=10_000 + i)))
    return clips
