"""When to ask before acting on what was heard.

* A bid (and the two-player blind nil decision) is always asked about before it
  is made, unless the player switched confirmation off: "Bid four?".
* A draw decision, the exchange and going to sleep are asked about unless the words
  were clear (:mod:`.irreversible`).
* A card (or "play it") is asked about only when the recognizer was unsure, the words
  were not exactly a phrase, or another legal action was nearly heard: "Queen of
  hearts?". An action the rules forbid is not asked about: the session says why it is
  refused.
* Speech that sounded little like any phrase (:attr:`Reading.fit` under the floor
  :data:`FIT_FLOORS` sets for its kind) is table talk forced into the grammar: it is
  answered "say again", never asked about, so chatter at the table seldom causes a
  question. Where the fit is not weighed with the winner searched alone (Italian,
  French), speech that fitted badly so for its kind (:data:`ALONE_FLOORS`: queries,
  commands, places...) is answered "say again" too, and a wake phrase does not wake
  (:data:`WAKE_ALONE_FLOORS`). In French an action under those floors but over the ask
  floors beneath them (:mod:`.ask_band`) is asked about instead: other speakers than the
  floors were set on fit their right phrases there too. A named card or bid whose
  alternatives weighed no other intent (the runner-up was another wording of it) is
  asked about unless it fitted very well, and any card that fitted only loosely
  (:data:`ASK_FITS`, stricter when weighed only against a query or a command:
  :data:`UNLIKE_ASK_FITS`) is asked about, as is a
  card against which a query was nearly heard (:data:`UNLIKE_ASK_SHARES`) or, in
  French, "play it" was weighed at all (:data:`CURRENT_ASK_SHARES`).
* Speech that began over the game's own sound (:func:`over_game_policy`) has every
  action it names asked about, and an action whose words the grammar search fitted
  well is asked about rather than answered "say again" (:data:`OVER_GAME_SEARCH_FIT`).
  A yes or a no there, at the blind nil or draw decision, is answered "say again": it
  would make the decision itself (what is left of the narrator's own question could be
  heard as one).
* Queries, answers and harmless commands go through at once. "New game" is
  asked about by the session itself; "save and quit", which ends the program,
  is always asked about when said: "Save and quit?" (other speech was heard as
  a quit with a confidence of 0.9 and more; the Q key quits at once).
* In Italian and French (the lexicon says so) a question about a bid or a doubtful
  card also offers what was nearly heard instead: "Dichiari quattro? O tre?"; the
  player may name either in answer. Their lexicons also set stricter thresholds
  (PocketSphinx hears them less well through its English model): a card is asked
  about when another was heard at 2%, and a yes or no heard unsurely is answered "say
  again" rather than taken (in French a yes, which carries out what was asked, must
  be heard more surely than a no).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from voice_spades.commands import (
    Act,
    AnyIntent,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    NotUnderstood,
    PlayCurrent,
    Propose,
    answered_decision,
)
from voice_spades.engine import Bid, BlindNilChoice, Card, DrawChoice, Exchange, Phase
from voice_spades.messages import Message
from voice_spades.narration.forms import Spelled
from voice_spades.voice.lexicon import Lexicon, default_lexicon
from voice_spades.voice.lists import chain
from voice_spades.voice.recognizers.base import Recognition
from voice_spades.voice.understanding.ask_band import in_ask_band
from voice_spades.voice.understanding.grammar import (
    Extreme,
    Listening,
    PhraseTable,
    card_templates,
)
from voice_spades.voice.understanding.irreversible import ask_first
from voice_spades.voice.understanding.meaning import Reading, read

LOW_CONFIDENCE = 0.5
"""Recognizer confidence below which a card play is asked about. Measured with
PocketSphinx on 2,256 synthesized clips: together with the close alternatives of
:data:`~voice_spades.voice.understanding.meaning.CLOSE_PROBABILITY` it leaves 5 of 848 legal
card plays wrong and unasked (0.6%) and asks about 9% of the right ones; 0.7
would leave 3 but ask about 17%."""

QUIT_QUESTION = Message("voice.confirm.quit")
"""The question asked before "save and quit" said aloud."""


SWITCH_CONFIDENCE = 0.5
"""The sleep word ("stop listening", "start listening") changes what voice hears, so
it is obeyed only when heard exactly with at least this confidence (unless
:data:`SWITCH_CONFIDENCES` sets another for the language); anything less is dropped in
silence."""

SWITCH_CONFIDENCES: dict[str, float] = {"it": 0.15}
"""Per language, a bar other than :data:`SWITCH_CONFIDENCE` for the sleep word. The
English model verifies the Italian ones poorly: right "non ascoltare" and "smetti di
ascoltare" were heard exactly at 0.17-0.46 in 6 of their 20 espeak-ng readings (sets
610, 612) and dropped, where no table talk (8,640 tries, Italian sets 611 and 613, plain and
trained) and no other command (19 runs of Italian commands) was ever heard as either,
at any confidence. Going to sleep wrongly is said aloud ("Not listening...") and undone
by "riprendi ad ascoltare"."""

WAKE_CONFIDENCE = 0.2
"""While voice sleeps, a wake phrase heard exactly wakes it from this confidence (a
lower bar than :data:`SWITCH_CONFIDENCE`): the English model verifies French poorly,
and right "reprends l'écoute" / "écoute à nouveau" were heard at 0.21-0.42 and left
voice asleep. Among the sleeping grammar's decoys table talk is seldom heard as a wake
phrase: once in 1,760 espeak-ng clips in three languages, at 0.03."""

WAKE_CONFIDENCES: dict[str, float] = {"en": 0.4}
"""Per language, a bar other than :data:`WAKE_CONFIDENCE`. English table talk said by
MBROLA voices (recorded speakers) woke voice twice in 240 tries ("how is your mother
doing" at 0.36, "i love this song" at 0.27), while right English wake phrases were
heard at 0.49 and more (espeak-ng's "start listening", the worst) and 0.94 and more by
flite, Festival and MBROLA voices. Below the bar a wake phrase is answered how to wake."""

WAKE_ALONE_FLOORS: dict[str, float] = {"it": 0.0046, "fr": 0.02}
"""Per language, the :attr:`Reading.alone_fit` under which a wake phrase does not wake
voice (languages whose fit is the grammar search's; English weighs the alone fit in).
Italian table talk woke voice ("li abbiamo battuti prima" heard as "riprendi ad
ascoltare", fit 0.69-0.75), once in 120 sentences on each of two sets: searched alone
it fitted 0.0, where right Italian wake and sleep phrases fitted 0.06 and more, French
ones 0.29 and more (480 espeak-ng commands a language). Under the bar the player is
told how to wake voice (:func:`asleep_reminder`). The Italian bar is a tenth of the
lowest of right wake phrases on espeak-ng and MBROLA voices (0.046, 240 commands): set
at 0.02 on espeak-ng alone, it left voice asleep for 3 of 10 right wake phrases of
Festival, Pico and MBROLA voices, which fitted 0.0025-0.0079 alone."""

REMIND_CONFIDENCE = 0.1
"""While voice sleeps, the sleep word heard again (exactly, with at least this
confidence), or a wake phrase too unsure to wake, is answered that voice still sleeps and
how to wake it; the reminder names "resume listening" (woke 58 in 59). With espeak-ng
voices "start listening" was heard as "stop listening" 19 times in 32, and the reverse 9
in 33 (their shares overlap completely), so asleep, English voice no longer listens for
"stop listening" (the lexicon's "like-wake"): "start listening" then woke voice 31 times
in 32, and "stop listening" said while asleep 30 in 32. Table talk (1,760 clips, three
languages) was never heard as the sleep word while asleep, and once as a wake phrase, at
0.03; without "stop listening", 0 of 720 English clips woke voice or were reminded."""


FIT_FLOORS: dict[str, dict[str, float]] = {
    "en": {"answer": 0.15, "bid": 0.2, "card": 0.25, "draw": 0.4, "query": 0.3},
    "it": {"bid": 0.25, "card": 0.3, "place": 0.5, "query": 0.3},
    "fr": {"answer": 0.2, "bid": 0.12, "card": 0.12, "place": 0.5, "query": 0.12},
}
"""Per language and kind of intent (:func:`intent_kind`), the :attr:`Reading.fit` below
which what was heard is taken for table talk and answered "say again" rather than
asked about or acted on (a query too: table talk heard as "read my cards" would read
the hand aloud to the table). On 600 commands (espeak-ng, flite, Festival) and 64
table-talk clips at five prompts these floors turned 12 right commands (2%) into "say
again" and cut table talk answered as a query from 41 to 12 of 256 tries. Italian and
French are verified lower through the English model, so their floors are lower (240
espeak-ng commands and 64-96 table-talk clips each); a language not listed has none.
Their places ("la più alta di fiori", "mon plus gros pique") have a floor of their own:
table talk at the play prompt was heard as a place more than as anything else, at fits
under 0.6 (French: all 28 tries of 240 clips; Italian: 6 of 11 of 288), where the right
places fitted at 0.9 and more (20 of each language). The English bid and card floors
were later lowered (0.35 to 0.25, 0.4 to 0.3): of 900 commands (espeak-ng, MBROLA), 7
right ones fitted between the old and the new floors ("no blind nil" 0.28, "no exchange"
0.38, "play lowest spade" 0.32), and 3 of 1,200 table-talk tries at five prompts, each
then asked about ("i love this song" as "i bid five" at 0.25). Held out, 3 of 300 more
right commands were understood, and 1,440 table-talk tries raised no new question. A
French answer has a floor too:
French table talk was taken for "d'accord" at 0.15 while a question waited (MBROLA
voices), where right answers fitted at 0.25 and more (50, MBROLA and espeak-ng). The
English draw floor was lowered from 0.7 to 0.55 (and a draw under 0.7 is asked about,
:data:`ASK_FITS`): right draws fitted at 0.55-0.69 in 6 of 100 espeak-ng commands and 8
of 200 more held out, and table talk heard as a draw at 0.49 at most (720 clips).

The figures above were fits of the grammar search's verification. Since English
winners are also verified searched alone (the PocketSphinx tuning's ``verify_alone``),
table talk fits far worse, and the English floors were set anew (answer 0.3 -> 0.15,
bid 0.25 -> 0.2, card 0.3 -> 0.25, draw 0.55 -> 0.4, query 0.5 -> 0.3): of 240
table-talk clips at five prompts (set 603), the highest fits were a query 0.85 ("what a
beautiful day" as "what's on the table"), a bid 0.66, a draw 0.48, a place 0.38, an
answer under 0.15; right commands lost under the old floors fitted 0.17-0.37 ("okay",
"cards on the table", "one", "throw it away"). Sets 600 and 604: accuracy 92.50 ->
93.67% and 94.50 -> 95.00% with the new floors and :data:`ASK_FITS`."""


ASK_FITS: dict[str, dict[str, float]] = {
    "en": {"named": 0.55, "place": 0.55, "exchange": 0.35, "current": 0.45, "draw": 0.55},
    "it": {"named": 0.85, "place": 0.85, "draw": 0.35},
    "fr": {"named": 0.7, "place": 0.6, "draw": 0.95},
}
"""Per language and kind (:func:`reading_kind`), the :attr:`Reading.fit` below which a card
named outright or by its place, (English) giving no card back at the exchange or (French)
a draw decision is asked about, even when the recognizer weighed other intents against
it. Table talk still played had such a runner-up, and fitted at 0.55-0.83: "i think she
has the ace" as "play the queen of spades" (0.64), "piove fuori" as "otto di cuori"
(0.81), "ero sicuro che avessi il re" as "la più alta di fiori" (0.83), "il se fait tard"
as "joue sept de carreau" (0.55), "j'adore cette chanson" as "je garde cette carte"
(0.59), "you always get the good cards" as "keep all my cards" (0.55). Right cards fitted
worse in 19 of 179 English plays (four sets of 300 commands, espeak-ng, flite, Festival;
most asked about already), 1 of 40 Italian ones and 6 of 20 French draws (most asked
about for their low confidence); right "no exchange" in 4 of 125 English commands.
French draws are asked about under 0.95: on recorded voices table talk kept the drawn
card at 0.61-0.88 ("j'adore cette chanson" as "je garde cette carte", "tu triches" as
"je garde"; 5 of 480 sentences), and 39 of 48 right French draws (MBROLA and espeak-ng)
are asked about, against 18 under 0.6. "Exchange the marked cards" and "play it" (kind
"current") are asked about under 0.75: espeak-ng's "exchange nothing" was heard as
"exchange the marked cards" at 0.68 and 0.72 (the first gave the cards back unasked),
where of 53 right ones (two sets of 600 commands) 7 fitted under 0.75 (0.43-0.745), 3 of
them asked about already for their low confidence. An English draw ("keep it",
"discard") is asked about under 0.7, the floor it had before (:data:`FIT_FLOORS`): no
right draw acted on fitted under it (131 of two sets of 600 and MBROLA's 600).

Those English values were fits of the grammar search's verification; verified alone as
well (see :data:`FIT_FLOORS`), table talk heard as a card or a draw fitted 0.48 at most
(set 603), and they were set anew: named and place 0.8 -> 0.55, "no exchange" 0.6 ->
0.35, the current card 0.75 -> 0.45, a draw 0.7 -> 0.55. Right plays asked about (sets
600 and 604) 7.36 -> 4.31% and 7.30 -> 5.11%; held out (set 606) 2.60%, no wrong action
unasked, where before one was ("discard" kept the card at 0.76, now 0.52 and asked);
with :data:`SEARCH_ASK_FITS` 5.60%, 6.81% and 3.03%.

A French card named outright is asked about under 0.7 (it was 0.6): MBROLA's French
voices had "change le détail" played as "quatre de cœur" unasked at 0.64 (a set of 240
commands), where no right French card named outright was acted on under 0.75 in nine
sets (espeak-ng and MBROLA, trained and not; French asks about most cards for their
likely confusions already).

An Italian draw is asked about under 0.35 (it is made from a confidence of 0.2,
:data:`LOW_CONFIDENCES`): on a later set of 120 table-talk sentences "adoro questa
canzone" was heard as "scarto questa carta" at 0.27 and discarded the drawn card, where
the 20 right draws of 240 espeak-ng commands fitted at 0.41 and more."""

SEARCH_ASK_FITS: dict[str, dict[str, float]] = {
    "en": {"current": 0.75},
}
"""Per language and kind, the :attr:`Reading.search_fit` (the fit by the recognizer's
first measure, where its fit weighs in another) below which an action is asked about
too. "Done", "play it", "give them back" act on the cards chosen by key, and a piece
of a command cut at a pause is heard as one: in the room bench "mark ... three of
clubs" cut after "mark" was heard as "done" at a fit of 0.85 (its search's 0.72) and
gave the marked cards back unasked, where the search's own fit had been asked about
under 0.75 (:data:`ASK_FITS`, set on it). Right plays asked about (sets 600, 604,
606): 4.31 -> 5.60%, 5.11 -> 6.81%, 2.60 -> 3.03%."""

ALONE_FLOORS: dict[str, dict[str, float]] = {
    "fr": {"query": 0.015, "other": 0.015, "bid": 0.05, "place": 0.05, "exchange": 0.01,
           "answer": 0.01},
    "it": {"answer": 0.0013, "query": 0.0008, "named": 0.005, "place": 0.0023, "draw": 0.01,
           "other": 0.0007},
}
"""Per language and kind, the :attr:`Reading.alone_fit` (the winner verified searched
alone, which the recognizer measures for Italian and French without weighing it into
their fit) below which what was heard is taken for table talk and answered "say again",
like :data:`FIT_FLOORS`. Weighed into the fit, it made right French commands fit worse
(80.00% understood on a held-out set where 83.75% were, and a "non" was taken for a
"oui"); on its own it tells table talk from the commands of a kind. Each floor is a
third to a half of the lowest fit of right commands of its kind on 240 espeak-ng
commands (sets 610), where table talk (120 sentences tried at five prompts, sets 611)
mostly fitted under 0.002. On those sets and on held-out ones (612, 613), before ->
after, of 600 table-talk tries a set:

* French: answered as a query or command ("attends une seconde" as "à qui le tour")
  124 -> 42 and 107 -> 36 held out; asked about 13 -> 8 and 9 -> 6 (bid prompt 4.2 ->
  2.5% and 5.0 -> 2.5%, play prompt 6.7 -> 4.2% and 1.7%);
* Italian: answered as a query or command 73 -> 37 and 104 -> 65 held out (the rest
  sound like their phrase: "bella partita a tutti" as "nuova partita" fitted 0.99
  alone); asked about 9 -> 5 and 7 -> 4; carried out unasked, held out, 2 -> 0: "si
  sta facendo tardi" was taken for "sì grazie" at a prompt and at a question (alone:
  0.0; right Italian answers fitted 0.059 and more: the answer floor was set after the
  held-out set was seen).

No right command of 480 a language (sets 610, 612) was answered "say again" for it.
Right French cards named outright fitted as low as 0.0, and right "play it" in both
languages 0.002: those have no floor.

Those floors, set on espeak-ng's voices, turned away right commands of voices they were
not set on: recorded speakers fit their phrase searched alone ten to a hundred times
lower. On Festival, Pico and MBROLA voices (sets "held" of docs/measurements.md), 7 of
32 Italian "say again" (240 commands) had heard the right phrase and were turned away by
these floors ("lascia perdere" at 0.0016-0.0024, "la più alta di quadri" 0.0043), and 38
of 78 French ones. The Italian floors are now set on several voices: a tenth of the
lowest fit of right commands of the kind on espeak-ng and two MBROLA voices (it1, it3;
240 commands), the named cards' floor kept (0.005), and the draw's (0.01): keeping or
discarding the drawn card cannot be undone, and on the other voices "adoro questa
canzone" was heard as "tengo questa carta" at 0.0082 alone. French keeps its floors: set the
same way on espeak-ng and MBROLA fr1, fr4, fr6 (bid 0.0004, place 0.001, query 0.0006,
command 0.00004), they would have let through 30 more right commands of the 240 of
the other voices (60.00% understood), but French table talk fits as low alone: 41 of
420 table-talk tries on those voices and 87 of 420 on the others would have passed
them, "quelle heure est-il" putting voice to sleep as "n'écoute plus" and "mon café est
froid" asked about as a bid. Instead, a French action between these floors and ask
floors a tenth of the lowest right fits of those voices is asked about
(:data:`~.ask_band.ASK_ALONE_FLOORS`).
A French answer has a floor, set that way (a tenth of 0.10, the lowest right answer on
espeak-ng and MBROLA fr1, fr4, fr6): on the other voices "bonne partie à tous" was heard
as "non merci" at 0.0 alone and discarded the drawn card, declined blind nil and dropped
a question, where right answers fitted 0.011 and more but one "oui" (0.0015).
Italian commands ("puoi ripetere", "nuova partita", sleep and wake, marks) have a floor
set that way too (a tenth of 0.0076, the lowest right one on espeak-ng it, it+f3, it+m3
and MBROLA it1, it3): once longer speech was let through (the tuning's Italian
``max_seconds_per_phone``), "suonano alla porta" was heard as "puoi ripetere" at 0.0001
alone at six prompts of the other voices; with the floor, table talk answered as a
query or command went from 51 to 30 of 420 tries there (14 to 13 on the fitting
voices), for one right "nuova partita" of a Festival voice (0.0001 alone).

French "no exchange" ("je garde toutes mes cartes", "aucun échange") has a floor of its
own, set once voice training made table talk fit it better: trained on each espeak-ng
voice, "je n'arrive pas à y croire", "je dois partir à neuf heures" and "je crois qu'elle
a l'as" kept every card at the exchange prompt at fits of 0.25-0.45 (4 of 120 tries,
set 611), each fitting under 0.0001 alone; right ones fitted 0.035 and more alone (MBROLA
and espeak-ng voices, trained and not, 128 commands)."""

ALONE_ASK_FITS: dict[str, dict[str, float]] = {
    "fr": {"named": 0.015},
}
"""Per language and kind, the :attr:`Reading.alone_fit` below which an action is asked
about (where no floor can turn it away: right French cards named outright fit as low
as 0.0011 alone). On recorded voices table talk played "joue deux de cœur" and "joue
quatre de trèfle" unasked (fit 0.92, alone 0.011 and 0.0); of the right French cards
named outright, 2 of 17 (espeak-ng and MBROLA fr1, fr4, fr6) and 1 of 13 on other voices
fitted under 0.015 alone, now asked about."""

LOW_BOTH_FLOORS: dict[str, dict[str, tuple[float, float]]] = {
    "fr": {"named": (0.3, 0.04)},
}
"""Per language and kind, a :attr:`Reading.fit` and an :attr:`Reading.alone_fit` under
both of which what was heard is taken for table talk ("say again"), where neither
floor alone (:data:`FIT_FLOORS`, :data:`ALONE_FLOORS`) can be set: right French cards
named outright fitted as low as 0.0001 searched alone and 0.17 by the grammar search,
but not both. Trained on each espeak-ng voice, table talk at the play prompt was asked
about as a card 6 times in 120 (set 611: "le chien doit sortir" as "le trois de
pique", fit 0.29 and 0.003 alone; "tu as entendu ce bruit" as "joue as de pique", 0.15
and 0.033); of the French cards named outright and heard right in seven runs
(espeak-ng and MBROLA, trained and not: sets 610, 612, 620, 630), those fitting under
0.3 fitted 0.051 and more alone (0.166/0.065, 0.221/0.209, 0.27/0.051). Then, 6 -> 3
of those 120 tries; held out, on six espeak-ng voices not used before (sets 632 and
633), table talk asked about at the play prompt 8 -> 4 of 120 trained and 10 -> 6
untrained, and no right command of 240 was lost either way (two misheard cards, one
of them asked about, became "say again")."""

UNLIKE_ASK_FITS: dict[str, dict[str, float]] = {
    "en": {"named": 0.95, "place": 0.95},
}
"""Per language and kind, the :attr:`Reading.fit` below which a card is asked about when
the best other intent weighed against it is no action (a query, a command): a card said
aloud has another card, or another wording of it, as its nearest other phrase. Table talk
played as "the six of diamonds" (fit 0.88, runner-up "which suit was led") and, in a set
not used to set it, as "the queen of clubs" (0.82, "read clubs") is asked about;
of right English cards named or placed, one so weighed fitted under 0.9 unasked in 122
(four sets of 300 commands), none in 34 (two later sets). The bar was 0.9 until the
query "tricks" was played as "three hearts" at 0.902, "tricks" the runner-up (espeak-ng);
of the right cards so weighed in three later sets of 300 commands (espeak-ng, MBROLA),
none fitted between 0.9 and 0.95 (the nearest 0.97). Italian and French search the
runner-up among other meanings, where a query is a common runner-up of right cards."""

UNLIKE_ASK_SHARES: dict[str, dict[str, float]] = {
    "fr": {"named": 0.08, "place": 0.08},
}
"""Per language and kind, the :attr:`Reading.unlike_share` from which a card is asked
about: a query weighed that nearly against it. French "mes trèfles" (a query) was
played as "huit de trèfle" (0.85), "les trèfles" weighed at 0.116; "les piques" and
"mes cœurs" were heard as a card of their suit the same way (0.30, 0.13). Of the right
French cards so weighed in 900 commands (MBROLA and espeak-ng), one more is asked about
(0.147); the next two weighed a query at 0.049 and 0.035."""

CURRENT_ASK_SHARES: dict[str, dict[str, float]] = {
    "fr": {"named": 0.001},
}
"""Per language and kind, the :attr:`Reading.current_share` from which a card is asked
about: "play it" weighed against it. French "joue cette carte" was played as "huit de
cœur" with no question (fit 0.79, "joue cette carte" its runner-up at 1.2%), and held
out as "joue huit de cœur" (asked: 19.7%); no right French card named outright had
"play it" among its alternatives at all (480 espeak-ng commands, sets 610 and 612)."""

LOW_CONFIDENCES: dict[str, dict[str, float]] = {
    "it": {"draw": 0.2},
    "fr": {"exchange": 0.2},
}
"""Per language and kind, a recognizer confidence lower than :data:`LOW_CONFIDENCE`
below which an action is asked about. Right Italian draws were heard at 0.25-0.46 (the
English model verifies Italian poorly) and asked about: 4 of 18 and 5 of 20 in two
sets of espeak-ng commands; no Italian table talk was heard as a draw in 608 tries at
the draw prompt (on a later set one was, at 0.27: :data:`ASK_FITS` asks about it).
French table talk was (up to 0.59), so French draws keep the English
setting. French "aucun échange" / "pas d'échange" (kind "exchange": no card given
back) were heard right at 0.10-0.48: 23 were asked about in three sets of 240-300
espeak-ng commands, 5 are now. No command was heard as one of them wrongly, and no
table talk at the exchange prompt (560 French clips) was heard as one at all. "Rends
les" (give the marked cards back) keeps the English setting: a wrong "rends la dame de
trèfle" was heard as it at 0.39."""


def intent_kind(intent: object) -> str:
    """"answer", "bid", "draw", "card" (a card, an exchange, "play it"), "query" or
    "other": the kinds :data:`FIT_FLOORS` are set for."""
    if isinstance(intent, Confirm | Cancel):
        return "answer"
    if isinstance(intent, Act) and isinstance(intent.action, Bid | BlindNilChoice):
        return "bid"
    if isinstance(intent, Act) and isinstance(intent.action, DrawChoice):
        return "draw"
    if isinstance(intent, Act | PlayCurrent):
        return "card"
    if isinstance(intent, Ask):
        return "query"
    return "other"


def reading_kind(reading: Reading) -> str:
    """:func:`intent_kind` of the reading's intent, but "named" for a card named
    outright ("queen of hearts"), "place" for a card named by its place in a suit
    ("my highest club") and "exchange" for giving no card back at the exchange ("no
    exchange"), and "current" for the card or cards chosen by key ("play it", "exchange
    the marked cards"); the tables fall back on "card" for all four."""
    if isinstance(reading.meaning, Extreme):
        return "place"
    if isinstance(reading.meaning, Act) and isinstance(reading.meaning.action, Card):
        return "named"
    if isinstance(reading.meaning, Act) and isinstance(reading.meaning.action, Exchange):
        return "exchange"
    if isinstance(reading.meaning, PlayCurrent):
        return "current"
    return intent_kind(reading.intent)


def _per_kind(table: dict[str, dict[str, float]], kind: str, lexicon: Lexicon,
              default: float) -> float:
    """The entry of ``table`` for ``kind`` in the lexicon's language; a named card, a
    place, an exchange or the current card falls back on the entry for "card"."""
    entries = table.get(lexicon.language, {})
    if kind in ("named", "place", "exchange", "current") and kind not in entries:
        kind = "card"
    return entries.get(kind, default)


def _under_both_floors(reading: Reading, kind: str, lexicon: Lexicon) -> bool:
    """Whether the reading fits under both of :data:`LOW_BOTH_FLOORS`' floors for its
    exact kind in the lexicon's language (no fallback from a named card to "card")."""
    floors = LOW_BOTH_FLOORS.get(lexicon.language, {}).get(kind)
    return floors is not None and reading.alone_fit is not None \
        and reading.fit < floors[0] and reading.alone_fit < floors[1]


def fit_floor(intent: object, lexicon: Lexicon, kind: str | None = None) -> float:
    """The :data:`FIT_FLOORS` entry for ``intent`` (or ``kind``) in the lexicon's
    language (0: none)."""
    return _per_kind(FIT_FLOORS, kind or intent_kind(intent), lexicon, 0.0)


def wake_confidence(lexicon: Lexicon | None = None) -> float:
    """The confidence from which a wake phrase wakes voice in the lexicon's language."""
    language = (lexicon or default_lexicon()).language
    return WAKE_CONFIDENCES.get(language, WAKE_CONFIDENCE)


def switch(reading: Reading, lexicon: Lexicon | None = None) -> Listening | None:
    """The sleep word to obey in ``reading`` (said in the lexicon's language, English by
    default), or None (not the sleep word, or heard with doubt)."""
    meaning = reading.meaning
    if not isinstance(meaning, Listening) or reading.cost != 0:
        return None
    language = (lexicon or default_lexicon()).language
    bar = wake_confidence(lexicon) if meaning.on \
        else SWITCH_CONFIDENCES.get(language, SWITCH_CONFIDENCE)
    if meaning.on and reading.alone_fit is not None \
            and reading.alone_fit < WAKE_ALONE_FLOORS.get(language, 0.0):
        return None
    return meaning if reading.confidence >= bar else None


def asleep_reminder(reading: Reading, lexicon: Lexicon | None = None) -> bool:
    """True when ``reading``, heard while voice sleeps, is the sleep word again or a
    wake phrase too unsure to obey: the player is told that voice still sleeps and how
    to wake it, rather than nothing (they may have said "start listening" and been
    heard as "stop listening")."""
    lex = lexicon or default_lexicon()
    said = (*lex.listening["sleep"], *lex.listening["wake"])
    return reading.phrase in said and reading.cost == 0 and switch(reading, lex) is None \
        and reading.confidence >= REMIND_CONFIDENCE


@dataclass(frozen=True, slots=True)
class ConfirmationPolicy:
    """The player's confirmation settings."""

    confirm_bids: bool = True
    """Ask before every bid ("Bid four?"); off for players who find it slow."""
    min_confidence: float = LOW_CONFIDENCE
    """Below this recognizer confidence, a card play is asked about."""
    unweighed_fit: float = 0.95
    """A named card or bid (or a card named by its place, "highest club") whose
    alternatives name no other intent (the recognizer's
    runner-up was another wording of it: nothing else was weighed) is asked about below
    this fit. Measured on 300 espeak-ng commands: it asked about the two wrong cards
    that went unasked ("five of hearts" heard as "nine of hearts" at 0.93) and about 3
    more right plays; with bid questions off, "okay fine" heard as "bid five" (0.82)."""
    reject_table_talk: bool = True
    """Whether speech that fits its phrase badly (:data:`FIT_FLOORS`) is answered "say
    again" rather than asked about."""
    ask_search_fit: float = 2.0
    """An action the table-talk floors would answer "say again" is asked about instead
    when the grammar search fitted it at least this well (:attr:`Reading.search_fit`)
    and no other action was nearly heard (above 1: never; see
    :data:`OVER_GAME_SEARCH_FIT`)."""


DEFAULT_POLICY = ConfirmationPolicy()

OVER_GAME_SEARCH_FIT = 0.7
"""The :attr:`ConfirmationPolicy.ask_search_fit` of speech that began over the game's
own sound, where every action is asked about anyway (:func:`over_game_policy`; a card
the rules forbid now is answered with the reason). There what is
left of the narration and the room's reverberation make a right phrase fit badly
searched alone, and so its fit (English weighs that in): in the room bench (seeds 1,
2, 3 and 5, trained and not) "eight of spades", "done", "keep the card" and "play
this one" were heard as their phrase (or one of the same meaning) at search fits of
0.80-0.99 with no other action near, and answered "say again" at fits of 0.12-0.27.
Table talk heard as an action and refused fitted 0.31 at most by the search (sets
603 and 605, 3,360 tries at seven prompts, quiet), where the queries it was heard
as fitted up to 0.93: queries, carried out at once, keep their floors. Commands
understood over the narrator, trained, seeds 1, 2, 3, 5: 75, 67, 75, 83% -> 78, 69,
78, 86%; untrained 67, 61, 67, 58% -> 69, 61, 67, 61%; held out (seeds 4 and 6)
trained 69, 67% -> 69, 69%, untrained unchanged (61, 64%); nothing else changed, no
question from narration alone, no wrong action unasked."""


def over_game_policy(policy: ConfirmationPolicy) -> ConfirmationPolicy:
    """``policy`` for speech that began over the game's own sound (barge-in with echo
    cancellation), which may hold what is left of the narration ("...four of
    diamonds"): every action it names is asked about first, and one that fitted the
    grammar search well is asked about rather than answered "say again"."""
    return replace(policy, min_confidence=2.0,
                   ask_search_fit=min(policy.ask_search_fit, OVER_GAME_SEARCH_FIT))


def decide(reading: Reading, table: PhraseTable,
           policy: ConfirmationPolicy = DEFAULT_POLICY,
           lexicon: Lexicon | None = None) -> AnyIntent:
    """The intent to hand the session: ``reading.intent`` or a :class:`Propose`
    asking about it.

    Where the lexicon says so (Italian, French), the question about a doubtful action
    also offers the runner-up: "Quattro? O tre?"; naming one of the two in answer,
    clearly, makes it (anything less clear is asked about again).
    """
    intent = reading.intent
    lex = lexicon or default_lexicon()
    kind = reading_kind(reading)
    talk_like = policy.reject_table_talk and fits_like_table_talk(reading, kind, lex) \
        and not _searched_well(reading, policy)
    if talk_like and not in_ask_band(reading, kind, lex):
        return NotUnderstood(reading.phrase)
    min_confidence = policy.min_confidence
    if min_confidence <= 1:  # (above 1, every action is asked about)
        min_confidence = min(min_confidence, _per_kind(LOW_CONFIDENCES, kind, lex, 1.0))
    unsure = (talk_like or reading.confidence < min_confidence or reading.cost > 0
              or bool(reading.rivals)
              or (reading.fit < policy.unweighed_fit and not reading.others
                  and _names_a_card_or_bid(reading.meaning))
              or reading.fit < _per_kind(ASK_FITS, kind, lex, 0.0)
              or (reading.alone_fit is not None
                  and reading.alone_fit < ALONE_ASK_FITS.get(lex.language, {}).get(kind, 0.0))
              or (reading.search_fit is not None
                  and reading.search_fit < _per_kind(SEARCH_ASK_FITS, kind, lex, 0.0))
              or (reading.fit < _per_kind(UNLIKE_ASK_FITS, kind, lex, 0.0)
                  and _first_is_no_action(reading.others))
              or reading.unlike_share >= _per_kind(UNLIKE_ASK_SHARES, kind, lex, 2.0)
              or reading.current_share >= _per_kind(CURRENT_ASK_SHARES, kind, lex, 2.0)
              or ask_first(reading, table, lex))
    if isinstance(intent, Confirm | Cancel) and reading.confidence < _answer_bar(intent, lex):
        return NotUnderstood(reading.phrase)
    if isinstance(intent, Confirm) and policy.min_confidence > 1 and table.phase is not None \
            and answered_decision(table.phase, intent.yes) is not None:
        return NotUnderstood(reading.phrase)  # (it would make the decision, unasked)
    if isinstance(intent, Command):
        if intent.control is Control.SAVE_AND_QUIT:
            return Propose(intent, QUIT_QUESTION)
        return intent
    if not isinstance(intent, Act | PlayCurrent) or intent not in table.legal:
        return intent
    if intent in table.offered and not unsure:
        return intent
    is_bid = isinstance(intent, Act) and isinstance(intent.action, Bid | BlindNilChoice)
    if (is_bid and policy.confirm_bids) or unsure:
        return Propose(intent, _question_offering(intent, reading, table, lex))
    return intent


def fits_like_table_talk(reading: Reading, kind: str, lexicon: Lexicon) -> bool:
    """Whether ``reading`` fits its phrase under a table-talk floor of its kind
    (:func:`reading_kind`): :data:`FIT_FLOORS`, :data:`ALONE_FLOORS` or both of
    :data:`LOW_BOTH_FLOORS`."""
    return reading.fit < fit_floor(reading.intent, lexicon, kind) \
        or (reading.alone_fit is not None
            and reading.alone_fit < _per_kind(ALONE_FLOORS, kind, lexicon, 0.0)) \
        or _under_both_floors(reading, kind, lexicon)


def _searched_well(reading: Reading, policy: ConfirmationPolicy) -> bool:
    """Whether ``reading`` is an action the grammar search fitted at least
    :attr:`ConfirmationPolicy.ask_search_fit`, with no other action nearly heard (one
    the rules forbid now is then answered with the reason, as any other)."""
    return isinstance(reading.intent, Act | PlayCurrent) and not reading.rivals \
        and reading.search_fit is not None and reading.search_fit >= policy.ask_search_fit


def _answer_bar(answer: Confirm | Cancel, lexicon: Lexicon) -> float:
    """The confidence an answer must be heard with: a yes, which carries out what was
    asked, at least :attr:`Lexicon.yes_confidence`."""
    if isinstance(answer, Confirm) and answer.yes:
        return max(lexicon.answer_confidence, lexicon.yes_confidence)
    return lexicon.answer_confidence


def _first_is_no_action(others: tuple[object, ...]) -> bool:
    """True when the best other intent weighed is no action (a query, a command)."""
    return bool(others) and not isinstance(others[0], Act | PlayCurrent)


def _names_a_card_or_bid(meaning: object) -> bool:
    """True for a card or bid named outright, or a card named by its place in a suit
    ("my highest club": table talk such as "my coffee is cold" was heard as it)."""
    return isinstance(meaning, Extreme) or (
        isinstance(meaning, Act) and isinstance(meaning.action, Card | Bid))


def _question_offering(intent: Act | PlayCurrent, reading: Reading, table: PhraseTable,
                       lexicon: Lexicon | None) -> Message:
    lex = lexicon or default_lexicon()
    asked = question(intent, table.cursor, table.phase, lex)
    other = runner_up(intent, reading, table) if lex.offer_runner_up else None
    if other is None:
        return asked
    return Message("voice.language.confirm.or", question=asked, other=action_name(other, lex))


def runner_up(intent: Act | PlayCurrent, reading: Reading, table: PhraseTable) -> Act | None:
    """The legal action of the same kind that was nearly heard instead of ``intent``, if
    any: the one a question offers as well. For a bid (always asked about) the best
    other bid among the recognizer's alternatives, however unlikely; for a card a
    close second (:attr:`Reading.rivals`)."""
    if not isinstance(intent, Act) or not isinstance(intent.action, Bid | Card):
        return None
    kind = type(intent.action)
    candidates = (*reading.rivals, *reading.others) if kind is Bid else reading.rivals
    for rival in candidates:
        if isinstance(rival, Act) and isinstance(rival.action, kind) and rival in table.legal \
                and not (isinstance(rival.action, Bid) and rival.action.blind):
            return rival
    return None


def offered_choices(reading: Reading, table: PhraseTable,
                    lexicon: Lexicon | None = None) -> tuple[Act, ...]:
    """The actions a question about ``reading`` offers ("Quattro? O tre?" offers four
    and three), which the player may name in answer; empty for a plain question."""
    lex = lexicon or default_lexicon()
    intent = reading.intent
    if not lex.offer_runner_up or not isinstance(intent, Act):
        return ()
    other = runner_up(intent, reading, table)
    return () if other is None else (intent, other)


def understand(heard: Recognition, table: PhraseTable, policy: ConfirmationPolicy = DEFAULT_POLICY,
               lexicon: Lexicon | None = None) -> AnyIntent:
    """Read ``heard`` in ``table`` and apply the confirmation policy."""
    return decide(read(heard, table, lexicon), table, policy, lexicon)


def question(intent: Act | PlayCurrent, cursor: Card | None = None,
             phase: Phase | None = None, lexicon: Lexicon | None = None) -> Message:
    """The short yes/no question about an action: "Queen of hearts?", "Bid four?".

    Cards and numbers are named in the lexicon's words, the words the player said.
    """
    lex = lexicon or default_lexicon()
    if isinstance(intent, PlayCurrent):
        if phase == Phase.EXCHANGE:
            return Message("voice.confirm.exchange_marked")
        if cursor is None:
            return Message("voice.confirm.play_it")
        return Message("voice.confirm.play_card", card=spoken_card(cursor, lex))
    action = intent.action
    if isinstance(action, Card):
        return Message("voice.confirm.card", card=spoken_card(action, lex))
    if isinstance(action, Bid):
        if action.blind:
            return Message("voice.confirm.blind_nil")
        if action.is_nil:
            return Message("voice.confirm.bid_nil")
        return Message("voice.confirm.bid", number=spoken_number(action.tricks, lex))
    if isinstance(action, BlindNilChoice):
        return Message("voice.confirm.blind_nil" if action.declare
                       else "voice.confirm.no_blind_nil")
    if isinstance(action, DrawChoice):
        return Message("voice.confirm.keep" if action.keep else "voice.confirm.discard")
    if isinstance(action, Exchange) and action.cards:
        names = [_with_article(spoken_card(card, lex)) for card in action.cards]
        return Message("voice.confirm.exchange", cards=chain("voice.confirm.cards", names))
    return Message("voice.confirm.keep_all")


def _with_article(name: Spelled) -> str:
    return name.forms.get("the", str(name))


def action_name(intent: Act, lexicon: Lexicon) -> Spelled:
    """A bid or a card in the lexicon's words, as a choice is offered: "tre", "nil",
    "asso di picche"."""
    action = intent.action
    if isinstance(action, Card):
        return spoken_card(action, lexicon)
    if isinstance(action, Bid) and not action.is_nil:
        return spoken_number(action.tricks, lexicon)
    nil = lexicon.actions["nil"][0]
    return Spelled(nil, {"the": nil})


def spoken_number(number: int, lexicon: Lexicon) -> Spelled:
    """``number`` as the lexicon's word ("four", "quattro"), or its digits (its "the" form
    is itself, so a question may name a number and a card alike: ``{other:the}``)."""
    word = lexicon.numbers.get(number, str(number))
    return Spelled(word, {"the": word})


def spoken_card(card: Card, lexicon: Lexicon) -> Spelled:
    """``card`` in the lexicon's words, as a player says it: "queen of hearts"; with its
    article as its "the" form where the language has one ("la donna di cuori": catalog
    templates write ``{card:the}``)."""
    slots = {name: words[0] for name, words in
             {**lexicon.rank_slots(card.rank), **lexicon.suit_slots(card.suit)}.items()}
    templates = card_templates(lexicon)
    text = templates["card"].format(**slots)
    if "the_card" not in templates:
        return Spelled(text)
    return Spelled(text, {"the": templates["the_card"].format(**slots)})
