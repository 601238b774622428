"""Voice input: what the player says becomes an intent for the session.

The rooms, lowest first (each imports only rooms above it in this list):

* :mod:`.lexicon` (with ``lexicon.toml``, ``lexicon_it.toml``, ``lexicon_fr.toml``):
  the spoken vocabulary of each language as data, shared by the recognizers
  (pronunciations) and understanding (phrases, costs);
  :mod:`.lists`: lists inside sentences, as catalog data.
* :mod:`.audio`: the microphone, voice activity detection and audio measures.
* :mod:`.models`: the Vosk model manager (where models live, the folder check, the
  verified download) and the ``voice-spades models`` command.
* :mod:`.recognizers`: the :class:`~.recognizers.base.Recognizer` protocol, the
  PocketSphinx and Vosk backends, and the choice between them.
* :mod:`.understanding`: the phrases sayable now, what a recognition means, and
  when to ask before acting; :mod:`.spoken_help`: what can be said now, in a few
  sentences.
* :mod:`.early_end`: ends an utterance at its first short pause when what was said
  so far is a whole phrase that no longer phrase begins with.
* :mod:`.adaptation`: voice training's model side: the features, a phrase's forced
  alignment, the model's means moved towards the player's voice (MLLR, then MAP) and
  their file.
* :mod:`.learning`: the player's voice learnt during a game from the commands
  carried out, while voice is untrained; :mod:`.model_offer`: the offer, made once,
  to download the Vosk model of the game's language when voice starts without one.
* :mod:`.listener`: ties them to a running session (with the player's training, if
  any); :mod:`.training`: voice training as a conversation (ask, ask again, skip,
  save).
* :mod:`.testing`: synthesized test speech and benchmark manifests (development only).

Every sentence the player hears from voice comes from the catalog
(``narration/locales/<language>/voice.toml`` and ``training.toml``).
"""
