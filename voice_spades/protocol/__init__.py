"""The network protocol, version 1: what a server and its clients say to each other.

Pure data, no I/O: ``codec`` turns engine events and views into JSON values and back,
``redact`` cuts them to what one viewer may see, and ``wire`` holds the message types,
their limits and the checks every received frame goes through. The server
(:mod:`voice_spades.server`) and the remote table (:mod:`voice_spades.client`) both
speak through it.
"""
