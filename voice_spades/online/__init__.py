"""``voice-spades host`` and ``voice-spades join``: the terminal game at a shared table.

``command`` reads the options, starts the host's server (a thread of this process),
opens the line and says the one sentence a wrong code or a missing server gets;
``seated`` runs the host's seat choices and the wait for the start, then the same game
as ``play`` (speech or screen reader, keys, voice, sound cues) on the remote table.
"""
