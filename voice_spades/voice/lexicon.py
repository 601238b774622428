"""The spoken vocabulary of each language, loaded from ``lexicon*.toml``.

Vocabulary is data: rank, suit and number words, the phrase templates of every
action, query, answer and command, the filler words a player may add or drop, and
the likely mishearings with their substitution costs: variants (homophones an
open-vocabulary recognizer may write) and risky pairs (grammar words that
recognizers confuse), and pronunciations the recognizer's dictionary lacks.
:mod:`.understanding.grammar` expands it into phrases; :mod:`.understanding.meaning`
scores what was heard with its costs; the PocketSphinx recognizer adds the
pronunciations to its dictionary.

One file per language: ``lexicon.toml`` (English), ``lexicon_it.toml``,
``lexicon_fr.toml``; :func:`lexicon_for` picks one. A language other than English
also names its suits (``[suits]``), may give more forms of a rank or a suit for the
templates (``[rank_forms]``: "l'asso" for ``{the_rank}``; ``[suit_forms]``: "le
picche" for ``{the_suit}``), names a card for the questions (``[names]``) and says
whether a question offers the runner-up ("Quattro? O tre?").

>>> lexicon_for("it").numbers[4], lexicon_for("fr").ranks[12]
('quattro', ('dame',))
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from voice_spades.commands import Control, Query
from voice_spades.engine import Suit

LEXICON_FILE = Path(__file__).with_name("lexicon.toml")
"""The English lexicon shipped with the game."""
LANGUAGES = ("en", "it", "fr")
"""The languages with a lexicon, English first."""

ACTION_KEYS = ("card", "highest", "lowest", "play-it", "bid", "nil", "blind-nil",
               "no-blind-nil", "keep", "discard", "mark", "exchange-marked", "no-exchange")
ANSWER_KEYS = ("yes", "no", "cancel")
LISTENING_KEYS = ("sleep", "wake")
OPTIONAL_LISTENING_KEYS = ("like-wake",)
_ARPABET = re.compile(r"[A-Z]{1,2}( [A-Z]{1,2})*")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Words and phrase templates; see ``lexicon.toml`` for the placeholders."""

    ranks: Mapping[int, tuple[str, ...]]
    numbers: Mapping[int, str]
    actions: Mapping[str, tuple[str, ...]]
    answers: Mapping[str, tuple[str, ...]]
    queries: Mapping[Query, tuple[str, ...]]
    commands: Mapping[Control, tuple[str, ...]]
    listening: Mapping[str, tuple[str, ...]]
    """The sleep word: "sleep" phrases stop listening, "wake" phrases start again; the
    sleep phrases under "like-wake" sound so like a wake phrase that voice, asleep,
    does not listen for them (said then, they wake it)."""
    fillers: frozenset[str]
    filler_cost: float
    variants: Mapping[frozenset[str], float]
    """Homophones and spelling variants: ("four", "for")."""
    risky: Mapping[frozenset[str], float]
    """Grammar words recognizers confuse: ("eight", "ace")."""
    pronunciations: Mapping[str, tuple[str, ...]]
    """Extra ARPAbet pronunciations per word: {"hearts": ("HH AA T S",)}."""
    language: str = "en"
    rank_forms: Mapping[str, Mapping[int, tuple[str, ...]]] = field(default_factory=dict)
    """More template slots per rank: {"the_rank": {14: ("l'asso",)}}."""
    suit_forms: Mapping[str, Mapping[Suit, tuple[str, ...]]] = field(default_factory=dict)
    """Template slots per suit: "suit" (the plural, English's default), "suit1" (one
    card of it), and any others the templates use ("the_suit")."""
    names: Mapping[str, str] = field(default_factory=dict)
    """How a question names a card: "card" ("{rank} of {suit}"), and with its article
    "the_card" ("{the_rank} di {suit}") where the language has one."""
    chat: tuple[str, ...] = ()
    """Phrases that open the line to type a message to a shared table (the chat key)."""
    offer_runner_up: bool = False
    """Whether a question about a doubtful action offers the runner-up ("Quattro? O tre?")."""
    answer_confidence: float = 0.0
    """Below this recognizer confidence a yes, no or cancel is not taken ("say again"):
    an answer is never asked about, so a recognizer that hears the language less well
    must be surer of it."""
    yes_confidence: float = 0.0
    """Below this recognizer confidence a yes is not taken ("say again"), whatever
    :attr:`answer_confidence` lets through: a yes carries out what was asked about,
    where a no or a cancel only drops it."""
    sure_confidence: float | None = None
    """Above this recognizer confidence the likely confusions ([risky]) are not asked
    about (None: understanding's own default; 1.0: always asked about)."""
    close_probability: float | None = None
    """A recognizer alternative at least this probable naming another action makes a
    card doubtful (None: understanding's own default); a recognizer that hears the
    language less well needs a lower one."""
    exclusive_pronunciations: bool = False
    """True when the words are not English: the recognizer's English dictionary must
    not add its own pronunciations of them ("re", "come", "non")."""
    phone_alternatives: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """How the English model may hear a phone of the hand-written pronunciations:
    {"R": ("R", "L", "")} (French r); each word gets these variants too."""
    max_variants: int = 12
    """At most this many pronunciations per word once the alternatives are spelt out."""
    as_written: frozenset[str] = frozenset()
    """Words whose hand-written pronunciations are used as written, without the phone
    alternatives (French "d'accord": its r heard as HH let short table talk fit it)."""
    always_risky: frozenset[frozenset[str]] = frozenset()
    """Risky pairs asked about however sure the recognizer was, and whenever an
    alternative, however unlikely, first parts from what was heard on the pair: one
    word heard for the other with full confidence (Italian "alta" heard as "bassa"),
    or two that sound the same (French "sept" and "cette")."""

    def substitution_cost(self, heard: str, said: str, *, risky: bool = False) -> float:
        """Cost of hearing ``heard`` where a phrase has ``said``: 0 if equal, the
        variant's cost for a known variant (and, with ``risky``, a risky pair's),
        else 1."""
        if heard == said:
            return 0.0
        pair = frozenset((heard, said))
        cost = self.variants.get(pair, 1.0)
        return min(cost, self.risky.get(pair, 1.0)) if risky else cost

    def gap_cost(self, word: str) -> float:
        """Cost of a word heard but not in the phrase, or the other way round."""
        return self.filler_cost if word in self.fillers else 1.0

    def suit_slots(self, suit: Suit) -> dict[str, tuple[str, ...]]:
        """Every template slot of ``suit``: {"suit": ("hearts",), "suit1": ("heart",)...}."""
        slots: dict[str, tuple[str, ...]] = {"suit": (suit.plural,), "suit1": (suit.singular,)}
        slots.update({name: forms[suit] for name, forms in self.suit_forms.items()})
        return slots

    def rank_slots(self, rank: int) -> dict[str, tuple[str, ...]]:
        """Every template slot of ``rank``: {"rank": ("queen",)} and any more forms."""
        slots = {"rank": self.ranks[rank]}
        slots.update({name: forms[rank] for name, forms in self.rank_forms.items()})
        return slots


def _suit_table(raw: Mapping[str, list[str]], where: str) -> dict[Suit, tuple[str, ...]]:
    if set(raw) != {s.name.lower() for s in Suit}:
        raise ValueError(f"lexicon {where} must name exactly spades, hearts, diamonds, clubs")
    return {Suit[name.upper()]: tuple(words) for name, words in raw.items()}


def _rank_table(raw: Mapping[str, list[str]], where: str) -> dict[int, tuple[str, ...]]:
    table = {int(rank): tuple(words) for rank, words in raw.items()}
    if set(table) != set(range(2, 15)):
        raise ValueError(f"lexicon {where} must give every rank from 2 to 14")
    return table


def load_lexicon(path: Path = LEXICON_FILE) -> Lexicon:
    """Read and check a lexicon file; raises ValueError on an unknown key."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    queries = {Query(key): tuple(value) for key, value in data["queries"].items()}
    commands = {Control(key): tuple(value) for key, value in data["commands"].items()}
    actions = {key: tuple(value) for key, value in data["actions"].items()}
    answers = {key: tuple(value) for key, value in data["answers"].items()}
    listening = {key: tuple(value) for key, value in data["listening"].items()}
    for keys, found, section in ((ACTION_KEYS, actions, "actions"),
                                 (ANSWER_KEYS, answers, "answers"),
                                 (LISTENING_KEYS, listening, "listening")):
        optional = OPTIONAL_LISTENING_KEYS if section == "listening" else ()
        if set(keys) != set(found) - set(optional):
            raise ValueError(f"lexicon [{section}] must define exactly {', '.join(keys)}")
    if not set(listening.get("like-wake", ())) <= set(listening["sleep"]):
        raise ValueError("lexicon [listening] like-wake must list sleep phrases")
    variants: dict[frozenset[str], float] = {}
    for group in data.get("variants", []):
        for pair in group["pairs"]:
            variants[frozenset(pair)] = float(group["cost"])
    risky = data.get("risky", {"cost": 1.0, "pairs": []})
    always_risky = frozenset(frozenset(pair) for pair in risky.get("always", []))
    pronunciations = {word: tuple(phones)
                      for word, phones in data.get("pronunciations", {}).items()}
    for word, spoken in pronunciations.items():
        for phones in spoken:
            if not _ARPABET.fullmatch(phones):
                raise ValueError(f"lexicon [pronunciations] {word}: {phones!r} is not "
                                 "ARPAbet phones separated by spaces")
    alternatives = dict(data.get("phone_alternatives", {}))
    max_variants = int(alternatives.pop("max_variants", 12))
    as_written = frozenset(str(word) for word in alternatives.pop("as_written", []))
    for phone, options in alternatives.items():
        if not _ARPABET.fullmatch(phone) or not all(
                _ARPABET.fullmatch(o) or o == "" for o in options):
            raise ValueError(f"lexicon [phone_alternatives] {phone}: {options!r} are not "
                             "ARPAbet phones")
    suit_forms = {name: _suit_table(raw, f"[suit_forms.{name}]")
                  for name, raw in data.get("suit_forms", {}).items()}
    if "suits" in data:
        suit_forms["suit"] = _suit_table(data["suits"], "[suits]")
    language = data.get("language", "en")
    confirmation = data.get("confirmation", {})
    return Lexicon(
        ranks=_rank_table(data["ranks"], "[ranks]"),
        numbers={int(n): word for n, word in data["numbers"].items()},
        actions=actions, answers=answers, queries=queries, commands=commands,
        listening=listening,
        chat=tuple(data.get("chat", {}).get("open", ())),
        fillers=frozenset(data["fillers"]["words"]),
        filler_cost=float(data["fillers"]["cost"]),
        variants=variants,
        risky={frozenset(pair): float(risky["cost"])
               for pair in [*risky["pairs"], *always_risky]},
        always_risky=always_risky,
        pronunciations=pronunciations,
        language=language,
        rank_forms={name: _rank_table(raw, f"[rank_forms.{name}]")
                    for name, raw in data.get("rank_forms", {}).items()},
        suit_forms=suit_forms,
        names=dict(data.get("names", {})),
        offer_runner_up=bool(confirmation.get("offer_runner_up", False)),
        answer_confidence=float(confirmation.get("answer_confidence", 0.0)),
        yes_confidence=float(confirmation.get("yes_confidence", 0.0)),
        sure_confidence=(float(confirmation["sure_confidence"])
                         if "sure_confidence" in confirmation else None),
        close_probability=(float(confirmation["close_probability"])
                           if "close_probability" in confirmation else None),
        exclusive_pronunciations=language != "en",
        phone_alternatives={phone: tuple(o) for phone, o in alternatives.items()},
        max_variants=max_variants, as_written=as_written)


def lexicon_file(language: str) -> Path:
    """The lexicon file of ``language`` ("en", "it", "fr")."""
    if language not in LANGUAGES:
        raise ValueError(f"no voice lexicon for language {language!r}")
    return LEXICON_FILE if language == "en" else LEXICON_FILE.with_name(f"lexicon_{language}.toml")


@cache
def lexicon_for(language: str | None = None) -> Lexicon:
    """The shipped lexicon of ``language`` (English for None), loaded once."""
    return load_lexicon(lexicon_file(language or "en"))


def default_lexicon() -> Lexicon:
    """The shipped English lexicon, loaded once."""
    return lexicon_for("en")
