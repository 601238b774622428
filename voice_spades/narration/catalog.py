"""The one message catalog: every sentence the game says, keyed by message id.

The sentences are data, in TOML files a translator can edit without reading Python:
``locales/<language>/*.toml`` beside this module (the format is described in
``locales/README.md``, the loader is :mod:`.templates`). Each entry has a normal form
and, where they differ, a brief and a verbose form; ``""`` means "say nothing at this
verbosity". A form may be a table of CLDR plural categories (``one``, ``few``,
``many``, ``other``...) chosen by the number in the field that the entry's ``count``
key names. Templates use ``str.format`` fields. Nothing else in the game builds a
sentence.

Fields may hold engine values; the catalog names them in its language before filling
the template: a :class:`~voice_spades.engine.Card` ("queen of hearts"), a
:class:`~voice_spades.engine.Suit` ("hearts"), a :class:`~voice_spades.engine.Bid`
("4", "nil"), a tuple of cards ("the 4 and 9 of hearts"), a
:class:`~voice_spades.engine.Seat` (its compass name at a four-player table: to name
seats for a listener, "you" and "partner North", use
:meth:`voice_spades.narration.Phrasebook.message`), a :class:`Message` or an error
carrying one (rendered first), and a tuple of other values (each named, joined by
``word.list_sep``: "R, F5"). A field whose name starts with a capital
(``{Seat}``) is capitalised: a template may write ``{Seat}`` for a field ``seat``.

>>> render("storage.bad_record", name="pagat")
'the record for pagat is damaged.'
>>> render("word.bags", n=1), render("word.bags", n=3)
('1 bag', '3 bags')
>>> from voice_spades.engine import Card, Seat
>>> render("word.seat_card", seat="West", card=Card.parse("QH"))
'West queen of hearts'
>>> render("spades.broken", Verbosity.VERBOSE, seat=Seat(3))
'East broke spades.'
>>> catalog().card(Card.parse("AS")).forms["the"]
'the ace of spades'
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from babel import Locale

from voice_spades.engine import Bid, Card, Seat, Suit, seat_name
from voice_spades.messages import Message
from voice_spades.narration.forms import Spelled, capital, fill, join_spelled
from voice_spades.narration.templates import (
    CatalogError,
    Form,
    Template,
    Verbosity,
    load_templates,
)

__all__ = ["CATALOG", "DEFAULT_LANGUAGE", "HAND_SUIT_ORDER", "Catalog", "CatalogError", "Form",
           "Spelled", "Template", "Verbosity", "active_language", "capital", "catalog",
           "hand_order", "load_templates", "render", "render_message", "set_language",
           "speaking"]

DEFAULT_LANGUAGE = "en"

HAND_SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The order a hand is read in (and the cursor walks): trumps first, colours alternating."""

MAX_NAMED_CARDS = 4
"""A list of one suit's cards names at most this many ("the 2, 3, 4 and 6 more of...")."""

NEUTRAL_TABLE = 4
"""The table size at which :class:`Catalog` names a bare :class:`Seat`."""


_RANK_FORM = re.compile(r"word\.rank_([a-z]+)\.(\d+)")
_SUIT_FORM = re.compile(r"word\.suit_([a-z]+)\.([a-z]+)")


def hand_order(cards: Iterable[Card]) -> list[Card]:
    """Cards in reading order: suits as :data:`HAND_SUIT_ORDER`, highest first."""
    return sorted(cards, key=lambda c: (HAND_SUIT_ORDER.index(c.suit), -c.rank))


class Catalog:
    """Every message of one language, rendered with fields at a verbosity.

    ``strict`` (tests) makes a template that asks for a form its value lacks an error;
    otherwise the bare name is said, and a message the language lacks is said in
    English rather than not at all (a test requires every translation to be complete).
    """

    def __init__(self, language: str = DEFAULT_LANGUAGE, *, strict: bool = False) -> None:
        self.language = language
        self.strict = strict
        own = load_templates(language)
        self.templates = own if strict or language == DEFAULT_LANGUAGE else \
            {**load_templates(DEFAULT_LANGUAGE), **own}
        self._locale = Locale.parse(language)
        self.rank_forms = sorted({m.group(1) for i in self.templates
                                  if (m := _RANK_FORM.fullmatch(i))})
        self.suit_forms = sorted({m.group(1) for i in self.templates
                                  if (m := _SUIT_FORM.fullmatch(i))})

    def plural_category(self, number: int) -> str:
        """The CLDR plural category of ``number`` in this language ("one", "other"...)."""
        return str(self._locale.plural_form(abs(number)))

    def render(self, message_id: str, verbosity: Verbosity = Verbosity.NORMAL, /,
               **fields: Any) -> str:
        """The message ``message_id`` at ``verbosity`` with its fields filled in.

        Engine values and messages in fields are named first (see the module's text).
        Raises KeyError for an unknown id or a missing field: both are programming errors.
        """
        template = self.templates[message_id]
        form = template.form(verbosity)
        if not isinstance(form, str):
            number = fields[template.count] if template.count else 0
            category = self.plural_category(int(number))
            form = form.get(category, form["other"])
        values = {key: self.spell(value, verbosity) for key, value in fields.items()}
        return fill(form, values, self.strict)

    def render_message(self, message: Message,
                       verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """:meth:`render` for a :class:`Message` value."""
        return self.render(message.id, verbosity, **message.fields)

    # ----- engine values in words ------------------------------------------------
    def spell(self, value: object, verbosity: Verbosity = Verbosity.NORMAL) -> object:
        """A field's value as words: messages rendered, engine values named; other
        values (text, numbers) unchanged."""
        if isinstance(value, Message):
            return self.render_message(value, verbosity)
        carried = getattr(value, "message", None)
        if isinstance(value, Exception) and isinstance(carried, Message):
            return self.render_message(carried, verbosity)
        if isinstance(value, Card):
            return self.card(value, verbosity)
        if isinstance(value, Suit):
            return self.suit(value, verbosity)
        if isinstance(value, Seat):
            return self.seat(NEUTRAL_TABLE, value, verbosity)
        if isinstance(value, Bid):
            return self.bid(value, verbosity)
        if isinstance(value, tuple) and value and all(isinstance(c, Card) for c in value):
            return self.cards(value, verbosity)
        if isinstance(value, tuple):
            return self.render("word.list_sep", verbosity).join(
                str(self.spell(item, verbosity)) for item in value)
        return value

    def rank(self, rank: int, verbosity: Verbosity = Verbosity.NORMAL) -> Spelled:
        """"queen", "9" (with its forms: "the queen")."""
        bare = self.render(f"word.rank.{rank}", verbosity) if rank > 10 else str(rank)
        return Spelled(bare, {form: self.render(f"word.rank_{form}.{rank}", verbosity)
                              for form in self.rank_forms})

    def suit(self, suit: Suit, verbosity: Verbosity = Verbosity.NORMAL) -> Spelled:
        """"hearts" (with its forms: "the hearts")."""
        name = suit.name.lower()
        return Spelled(self.render(f"word.suit.{name}", verbosity),
                       {form: self.render(f"word.suit_{form}.{name}", verbosity)
                        for form in self.suit_forms})

    def card(self, card: Card, verbosity: Verbosity = Verbosity.NORMAL) -> Spelled:
        """"queen of hearts", "9 of spades" (with its forms: "the queen of hearts")."""
        return self._with_ranks(self.rank(card.rank, verbosity), card.suit, verbosity)

    def _with_ranks(self, ranks: Spelled, suit: Suit, verbosity: Verbosity) -> Spelled:
        """``word.card`` ("{rank} of {suit}") for ``ranks``, and for each form of
        ``ranks`` the same with that form in its place (the card's own forms)."""
        def text(rank: str) -> str:
            return self.render("word.card", verbosity, rank=rank, suit=suit)
        return Spelled(text(ranks), {form: text(spelled)
                                     for form, spelled in ranks.forms.items()})

    def bid(self, bid: Bid, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """"4", "nil" or "blind nil"."""
        if bid.blind:
            return self.render("word.blind_nil", verbosity)
        return self.render("word.nil", verbosity) if bid.is_nil else str(bid.tricks)

    def seat(self, players: int, seat: int, verbosity: Verbosity = Verbosity.NORMAL) -> Spelled:
        """The compass name of ``seat`` at a table of ``players``: "West", "North-east"."""
        return Spelled(self.render(f"word.seat.{seat_name(players, seat).lower()}", verbosity))

    def cards(self, cards: Sequence[Card], verbosity: Verbosity = Verbosity.NORMAL) -> Spelled:
        """Cards of one suit, lowest first: "the 4, 9 and jack of hearts" (at most
        :data:`MAX_NAMED_CARDS` named, then "and 3 more"); cards of several suits
        grouped in reading order: "ace of spades; 9, 4 and 2 of hearts"."""
        suits = {card.suit for card in cards}
        if len(suits) == 1:
            ranks: list[str] = [self.rank(c.rank, verbosity)
                                for c in sorted(cards, key=lambda c: c.rank)]
            if len(ranks) > MAX_NAMED_CARDS:
                more = self.render("word.more", verbosity, n=len(ranks) - MAX_NAMED_CARDS + 1)
                ranks = [*ranks[:MAX_NAMED_CARDS - 1], more]
            named = self.render("word.cards_of_suit", verbosity,
                                ranks=self.join(ranks, verbosity), suit=cards[0].suit)
            return Spelled(named, {"the": named})  # the template says its own articles
        return self.grouped(cards, verbosity)

    def grouped(self, cards: Iterable[Card], verbosity: Verbosity = Verbosity.NORMAL
                ) -> Spelled:
        """Cards grouped by suit in reading order: "ace of spades; 9, 4 and 2 of hearts"."""
        groups: dict[Suit, list[Card]] = {}
        for card in hand_order(cards):
            groups.setdefault(card.suit, []).append(card)
        named = [self._with_ranks(self.join([self.rank(c.rank, verbosity) for c in group],
                                            verbosity), suit, verbosity)
                 for suit, group in groups.items()]
        sep = self.render("word.group_sep", verbosity)
        return join_spelled(sep.join(named), named, sep.join)

    def join(self, items: Sequence[str], verbosity: Verbosity = Verbosity.NORMAL,
             joiner: str = "word.and") -> Spelled:
        """"a, b and c" (or "a, b or c" with ``joiner="word.or"``); empty items left out.
        Forms of the items are joined too ("the a, the b and the c")."""
        def join(texts: list[str]) -> str:
            if len(texts) <= 1:
                return "".join(texts)
            return self.render(joiner, verbosity,
                               head=self.render("word.list_sep", verbosity).join(texts[:-1]),
                               last=texts[-1])
        items = [i for i in items if i]
        return join_spelled(join(items), items, join)


class _Active:
    """The catalogs loaded so far and the language in use (set once at start; read by
    any thread: reading the name is atomic, loading is locked)."""

    def __init__(self) -> None:
        self.language = DEFAULT_LANGUAGE
        self.loaded: dict[str, Catalog] = {}
        self.lock = threading.Lock()
        self.thread = threading.local()
        """A language one thread speaks instead (:func:`speaking`)."""

    @property
    def in_use(self) -> str:
        """This thread's language: its own, else the active one."""
        own: str | None = getattr(self.thread, "language", None)
        return self.language if own is None else own


_ACTIVE = _Active()


@contextlib.contextmanager
def speaking(language: str) -> Iterator[Catalog]:
    """Speak ``language`` on this thread only while inside (a server seats players of
    several languages: each one's session runs on a thread of its own)."""
    loaded = catalog(language)
    before = getattr(_ACTIVE.thread, "language", None)
    _ACTIVE.thread.language = language
    try:
        yield loaded
    finally:
        _ACTIVE.thread.language = before


def catalog(language: str | None = None) -> Catalog:
    """The loaded catalog of ``language`` (loaded once), by default the active one."""
    code = _ACTIVE.in_use if language is None else language
    found = _ACTIVE.loaded.get(code)
    if found is None:
        with _ACTIVE.lock:
            found = _ACTIVE.loaded.get(code)
            if found is None:
                found = _ACTIVE.loaded[code] = Catalog(code)
    return found


def set_language(language: str) -> Catalog:
    """Speak ``language`` from now on (its catalog is loaded first: CatalogError if it
    cannot be, and the language in use does not change)."""
    loaded = catalog(language)
    _ACTIVE.language = language
    return loaded


def active_language() -> str:
    """The code of the language in use ("en", "it", "fr"): this thread's own, if
    :func:`speaking` gave it one."""
    return _ACTIVE.in_use


def render(message_id: str, verbosity: Verbosity = Verbosity.NORMAL, /,
           **fields: Any) -> str:
    """:meth:`Catalog.render` in the active language."""
    return catalog().render(message_id, verbosity, **fields)


def render_message(message: Message, verbosity: Verbosity = Verbosity.NORMAL) -> str:
    """:meth:`Catalog.render_message` in the active language."""
    return catalog().render_message(message, verbosity)


class _ActiveTemplates(Mapping[str, Template]):
    """The templates of the active language, by id (follows :func:`set_language`)."""

    def __getitem__(self, message_id: str) -> Template:
        return catalog().templates[message_id]

    def __iter__(self) -> Iterator[str]:
        return iter(catalog().templates)

    def __len__(self) -> int:
        return len(catalog().templates)


CATALOG: Mapping[str, Template] = _ActiveTemplates()
"""Every message of the active language, by id."""
