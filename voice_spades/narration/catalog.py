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
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from babel import Locale

from voice_spades.engine import Bid, Card, Seat, Suit, seat_name
from voice_spades.messages import Message
from voice_spades.narration.templates import (
    CatalogError,
    Form,
    Template,
    Verbosity,
    load_templates,
)

__all__ = ["CATALOG", "DEFAULT_LANGUAGE", "HAND_SUIT_ORDER", "Catalog", "CatalogError", "Form",
           "Template", "Verbosity", "capital", "catalog", "hand_order", "load_templates",
           "render", "render_message"]

DEFAULT_LANGUAGE = "en"

HAND_SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The order a hand is read in (and the cursor walks): trumps first, colours alternating."""

MAX_NAMED_CARDS = 4
"""A list of one suit's cards names at most this many ("the 2, 3, 4 and 6 more of...")."""

NEUTRAL_TABLE = 4
"""The table size at which :class:`Catalog` names a bare :class:`Seat`."""


def capital(text: str) -> str:
    """``text`` with its first letter in upper case, for the start of a sentence."""
    return text[:1].upper() + text[1:]


def hand_order(cards: Iterable[Card]) -> list[Card]:
    """Cards in reading order: suits as :data:`HAND_SUIT_ORDER`, highest first."""
    return sorted(cards, key=lambda c: (HAND_SUIT_ORDER.index(c.suit), -c.rank))


class _Fields(dict[str, object]):
    """A template's field values; ``{Name}`` is the value of ``name`` (or of ``Name``
    itself) with a capital first letter."""

    def __init__(self, values: Mapping[str, object]) -> None:
        super().__init__(values)
        for key, value in values.items():
            if key[:1].isupper():
                self[key] = capital(str(value))

    def __missing__(self, key: str) -> object:
        lower = key[:1].lower() + key[1:]
        if key[:1].isupper() and lower in self:
            return capital(str(self[lower]))
        raise KeyError(key)


class Catalog:
    """Every message of one language, rendered with fields at a verbosity."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language
        self.templates = load_templates(language)
        self._locale = Locale.parse(language)

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
        values = _Fields({key: self.spell(value, verbosity) for key, value in fields.items()})
        return form.format_map(values)

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

    def rank(self, rank: int, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """"queen", "9"."""
        return self.render(f"word.rank.{rank}", verbosity) if rank > 10 else str(rank)

    def suit(self, suit: Suit, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """"hearts"."""
        return self.render(f"word.suit.{suit.name.lower()}", verbosity)

    def card(self, card: Card, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """"queen of hearts", "9 of spades"."""
        return self.render("word.card", verbosity, rank=self.rank(card.rank, verbosity),
                           suit=card.suit)

    def bid(self, bid: Bid, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """"4", "nil" or "blind nil"."""
        if bid.blind:
            return self.render("word.blind_nil", verbosity)
        return self.render("word.nil", verbosity) if bid.is_nil else str(bid.tricks)

    def seat(self, players: int, seat: int, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """The compass name of ``seat`` at a table of ``players``: "West", "North-east"."""
        return self.render(f"word.seat.{seat_name(players, seat).lower()}", verbosity)

    def cards(self, cards: Sequence[Card], verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """Cards of one suit, lowest first: "the 4, 9 and jack of hearts" (at most
        :data:`MAX_NAMED_CARDS` named, then "and 3 more"); cards of several suits
        grouped in reading order: "ace of spades; 9, 4 and 2 of hearts"."""
        suits = {card.suit for card in cards}
        if len(suits) == 1:
            ranks = [self.rank(c.rank, verbosity) for c in sorted(cards, key=lambda c: c.rank)]
            if len(ranks) > MAX_NAMED_CARDS:
                more = self.render("word.more", verbosity, n=len(ranks) - MAX_NAMED_CARDS + 1)
                ranks = [*ranks[:MAX_NAMED_CARDS - 1], more]
            return self.render("word.cards_of_suit", verbosity, ranks=self.join(ranks, verbosity),
                               suit=cards[0].suit)
        return self.grouped(cards, verbosity)

    def grouped(self, cards: Iterable[Card], verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """Cards grouped by suit in reading order: "ace of spades; 9, 4 and 2 of hearts"."""
        groups: dict[Suit, list[Card]] = {}
        for card in hand_order(cards):
            groups.setdefault(card.suit, []).append(card)
        return self.render("word.group_sep", verbosity).join(
            self.render("word.card", verbosity,
                        rank=self.join([self.rank(c.rank, verbosity) for c in group], verbosity),
                        suit=suit) for suit, group in groups.items())

    def join(self, items: Sequence[str], verbosity: Verbosity = Verbosity.NORMAL,
             joiner: str = "word.and") -> str:
        """"a, b and c" (or "a, b or c" with ``joiner="word.or"``); empty items left out."""
        items = [i for i in items if i]
        if len(items) <= 1:
            return "".join(items)
        return self.render(joiner, verbosity,
                           head=self.render("word.list_sep", verbosity).join(items[:-1]),
                           last=items[-1])


@functools.cache
def catalog(language: str = DEFAULT_LANGUAGE) -> Catalog:
    """The loaded catalog of ``language`` (loaded once)."""
    return Catalog(language)


def render(message_id: str, verbosity: Verbosity = Verbosity.NORMAL, /,
           **fields: Any) -> str:
    """:meth:`Catalog.render` in the default language."""
    return catalog().render(message_id, verbosity, **fields)


def render_message(message: Message, verbosity: Verbosity = Verbosity.NORMAL) -> str:
    """:meth:`Catalog.render_message` in the default language."""
    return catalog().render_message(message, verbosity)


CATALOG: Mapping[str, Template] = catalog().templates
"""Every message of the default language, by id."""
