"""Speech models on this machine: the Vosk model manager.

* :mod:`.folder`: what a usable Vosk model folder holds, and its problems;
* :mod:`.locations`: where models are looked for, the listing, which one to use;
* :mod:`.download`: the verified, resumable download of the English model;
* :mod:`.unpack`: safe, all-or-nothing unpacking of the archive;
* :mod:`.command`: ``voice-spades models list | download vosk-en``.

Nothing here loads a recognizer: :mod:`voice_spades.voice.recognizers` uses this
package, never the other way round.
"""
