"""Speech that fits its phrase like table talk, but not like the worst of it: an action
asked about rather than answered "say again".

The table-talk floors of :mod:`.confirmation` answer "say again" to what fits its
phrase too badly for its kind. Where they were set on a few voices (French, through
PocketSphinx's English model), other speakers fit their right phrases under them too:
the player said the right thing, was heard right, and was asked to say it again, often
to be turned away again. Between a floor and an ask floor beneath it (a band per kind,
:data:`ASK_ALONE_FLOORS`), an action is asked about instead ("Demande treize ?"): the
player answers yes or no, or says what they meant. An action the rules forbid now is
answered with the reason, as any other, and nothing in the band is carried out unasked.
A query, an answer or a command but "save and quit" cannot be asked about: under a floor
it is still answered "say again" (a query in the band would be carried out at once,
reading the hand or the score aloud to table talk).
"""

from __future__ import annotations

from voice_spades.commands import Act, Command, Control, PlayCurrent
from voice_spades.voice.lexicon import Lexicon
from voice_spades.voice.understanding.meaning import Reading

ASK_ALONE_FLOORS: dict[str, dict[str, float]] = {
    "fr": {"bid": 0.000003, "place": 0.00029, "named": 0.00006, "current": 0.00009,
           "exchange": 0.00011, "other": 0.00004},
}
"""Per language and kind (:func:`~.confirmation.reading_kind`), the
:attr:`Reading.alone_fit` from which an action under a table-talk floor of its kind is
asked about rather than answered "say again"; a kind not listed has no band. Each is a
tenth of the lowest alone fit of right phrases of the kind heard right on the voices the
French floors and lengths were set on (espeak-ng fr, fr-be, fr+f3 and MBROLA fr1, fr4,
fr6; 480 commands, half of them in noise and reverberation), whose lowest were: bids
0.00003 ("demande onze"), places 0.0029, cards named outright 0.0006, "play it" 0.0009,
no exchange 0.0011, commands 0.0004. The grammar search's fit has no ask floor: it is
never under 0.05, the French recognizer threshold, and told table talk from right
phrases no better.

On Pico and MBROLA fr2, fr3, fr5, fr7 (voices not used to set anything; 240 commands, and
60 table-talk sentences at seven prompts), with French's lengths set on the same voices,
commands understood went from 58.75 to 70.00%, no wrong action unasked, right plays
asked about 56 of 68 -> 65 of 82; table talk asked about went from 15 to 42 of 420 tries
(bid prompt 2 -> 16 of 60, play 7 -> 14, draw 6 -> 7, blind nil 0 -> 4), answered as a
query or with a refusal 16 -> 26, acted on 0 -> 0. On the voices it was set on, table
talk was asked about 1 -> 6 times in 420 tries, and 3 -> 19 in noise and
reverberation (docs/measurements.md)."""


def askable(reading: Reading) -> bool:
    """Whether what ``reading`` names can be asked about (or, an action the rules forbid
    now, answered with the reason): an action, or "save and quit" (always asked about
    when said)."""
    intent = reading.intent
    if isinstance(intent, Command):
        return intent.control is Control.SAVE_AND_QUIT
    return isinstance(intent, Act | PlayCurrent)


def in_ask_band(reading: Reading, kind: str, lexicon: Lexicon) -> bool:
    """Whether ``reading``, which fitted under a table-talk floor of its ``kind``, fitted
    searched alone at least its kind's ask floor (:data:`ASK_ALONE_FLOORS`) and names
    what can be asked about (:func:`askable`): then it is asked about, not answered
    "say again". Without a fit searched alone (a recognizer that does not measure it)
    there is no band."""
    floor = ASK_ALONE_FLOORS.get(lexicon.language, {}).get(kind)
    if floor is None or not askable(reading):
        return False
    return reading.alone_fit is not None and reading.alone_fit >= floor
