"""Test-speech tooling for development: nothing here runs during a game.

* :mod:`.testspeech`: synthesized speech (espeak-ng, resampled by sox) with
  a cache, plus silence and noise, for tests and benchmarks;
* :mod:`.manifest`: ``python -m voice_spades.voice.testing.manifest --out DIR``
  writes a clip manifest for ``voice-spades bench voice`` (commands, or table talk
  with ``--chatter``);
* :mod:`.chatter`: table talk, sentences the game must not act on;
* :mod:`.prompts`: the game states a phrase is tried at (cards legal and not,
  every prompt for table talk).
"""
