"""Speech recognizers restricted to the phrases allowed now.

* :mod:`.base`: the :class:`~.base.Recognizer` protocol and its
  :class:`~.base.Recognition` result, the seam between the game and a backend;
* :mod:`.phrases`: phrase normalization shared by the backends;
* :mod:`.pocketsphinx_recognizer` with :mod:`.pocketsphinx_decoders` (the decoders,
  their dictionary and the cache of grammar searches), :mod:`.pocketsphinx_grammar`
  (the finite-state grammar), :mod:`.pocketsphinx_scoring` (verification and
  alternatives from the raw scores) and :mod:`.pocketsphinx_tuning` (its
  measured settings): the default backend, always available, in Italian and French
  too through :mod:`.phonetics` (each word's pronunciation in the English model's
  phones: :mod:`.phonetics_it`'s spelling rules, the French lexicon's hand-written
  ones);
* :mod:`.vosk_recognizer` with :mod:`.vosk_results` (reading Vosk's n-best
  answers): the optional backend, used when a model is installed;
* :mod:`.choice`: which backend to use, and the message saying so.

Backends load their native libraries only when imported; import them by module.
"""
