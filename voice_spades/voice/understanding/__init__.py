"""From words heard to what the player means.

* :mod:`.grammar`: the phrases a player can say now, each with one meaning
  (expanded from the lexicon's templates for the current state);
* :mod:`.meaning`: what a :class:`~voice_spades.voice.recognizers.base.Recognition`
  means in that table, tolerant of fillers and homophones;
* :mod:`.confirmation`: when to ask before acting ("Bid four?"), and the question
  (in Italian and French it also offers the runner-up: "Quattro? O tre?").

Every function takes the lexicon of the game's language (English by default).
"""
