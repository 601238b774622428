"""Test-speech tooling for development: nothing here runs during a game.

* :mod:`.testspeech`: synthesized speech (espeak-ng, resampled by sox) with
  a cache, plus silence and noise, for tests and benchmarks;
* :mod:`.manifest`: ``python -m voice_spades.voice.testing.manifest --out DIR``
  writes a clip manifest for ``voice-spades bench voice``.
"""
