"""Audio input: the microphone, cut into utterances, and measures of sound.

* :mod:`.microphone`: 16 kHz mono capture on a thread, muted while the game talks,
  push-to-talk, barge-in;
* :mod:`.resample`: any microphone rate to 16 kHz (libsoxr);
* :mod:`.vad`: voice activity detection (where an utterance starts and ends) and
  the barge-in detector;
* :mod:`.features`: rumble filter, frame energies, voiced fraction, noise reduction
  and trimming,
  used by the recognizers and the listener.
"""
