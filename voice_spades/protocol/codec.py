"""Engine events and player views as JSON values, and back.

Every event dataclass becomes ``{"type": class name, field: value, ...}``; a card is
its code ("QS"), a bid its code ("4", "nil", "blind nil"), a tuple a list, and the
records inside events (:class:`Trick`, :class:`HandScore` and its parts) objects of
their fields. A :class:`PlayerView` keeps its card masks as lists of card codes, its
legal actions in their text form and its rules as :func:`options_to_dict` gives them.

Decoding reads the field types of the dataclasses, so a new field is carried without
a change here; anything that does not fit raises :class:`ProtocolError`
(``net.bad_message``), never a bare exception. A card field may be ``null`` on the
wire: that is a card hidden from this viewer (:mod:`voice_spades.protocol.redact`).

>>> from voice_spades.engine import BidMade, Bid
>>> encode_event(BidMade(2, Bid(4)))
{'type': 'BidMade', 'seat': 2, 'bid': '4'}
>>> decode_event({'type': 'BidMade', 'seat': 2, 'bid': 'nil'})
BidMade(seat=2, bid=Bid(tricks=0, blind=False))
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from voice_spades.engine import (
    Bid,
    BiddingComplete,
    BidMade,
    BlindNilDecided,
    Card,
    CardDrawn,
    CardPlayed,
    CardsExchanged,
    DrawFinished,
    Event,
    HandDealt,
    HandScore,
    HandScored,
    HandStarted,
    MatchOver,
    NilResult,
    Phase,
    PlayerView,
    RuleOptions,
    Seat,
    SideScore,
    SpadesBroken,
    Suit,
    TiedAtTarget,
    Trick,
    TrickWon,
    action_from_text,
    action_to_text,
    cards_of,
    mask_of,
    options_from_dict,
    options_to_dict,
)
from voice_spades.errors import InvalidInputError, SpadesError
from voice_spades.messages import Message

JsonValue = Any
"""A value ``json.loads`` gives or ``json.dumps`` takes."""

EVENT_TYPES: dict[str, type[Any]] = {cls.__name__: cls for cls in (
    HandStarted, HandDealt, BlindNilDecided, CardDrawn, DrawFinished, CardsExchanged,
    BidMade, BiddingComplete, CardPlayed, SpadesBroken, TrickWon, HandScored,
    TiedAtTarget, MatchOver)}
"""Every engine event class, by the name the wire gives it."""

_RECORDS = (Trick, HandScore, SideScore, NilResult)
_FIELDS_BY_NAME = {f.name: f for f in dataclasses.fields(PlayerView)}
_CODES: dict[Card, str] = {}
_MASK_FIELDS = ("hand", "played", "known_out")
_MAX_INT = 1 << 62
"""Numbers on the wire stay far inside what JSON readers take exactly; a bigger one is
refused rather than carried into the engine's arithmetic."""


class ProtocolError(InvalidInputError):
    """A message that does not fit the protocol; ``message`` is the ``net.*`` error."""


def bad(what: str) -> ProtocolError:
    """The refusal of a malformed value; ``what`` names it for logs and the error's field."""
    return ProtocolError("net.bad_message", what=what)


# ----- encoding ---------------------------------------------------------------------
def encode_value(value: object) -> JsonValue:
    """Any event field as JSON values (cards and bids as codes, tuples as lists)."""
    if isinstance(value, Card):
        code = _CODES.get(value)
        if code is None:
            code = _CODES[value] = value.code
        return code
    if isinstance(value, int | str | None):
        return value
    if isinstance(value, tuple | list):
        return [encode_value(item) for item in value]
    if isinstance(value, Bid):
        return value.code
    if isinstance(value, _RECORDS):
        return {f.name: encode_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def encode_event(event: Event) -> dict[str, JsonValue]:
    """One engine event as a JSON object with its class name under ``"type"``."""
    out: dict[str, JsonValue] = {"type": type(event).__name__}
    for field in dataclasses.fields(event):
        out[field.name] = encode_value(getattr(event, field.name))
    return out


PRIVATE_FIELDS = ("hand", "known_out", "draw_top", "legal")
"""The fields of a view that only its seat may see (a watcher's are empty)."""
_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(PlayerView))
PUBLIC_FIELDS = tuple(name for name in _VIEW_FIELDS if name not in ("seat", *PRIVATE_FIELDS))
"""The fields of a view every viewer shares."""


def encode_view(view: PlayerView, only: tuple[str, ...] = _VIEW_FIELDS) -> dict[str, JsonValue]:
    """A player's view as a JSON object (masks as card lists, actions as text);
    ``only`` names the fields to encode (default all)."""
    out: dict[str, JsonValue] = {}
    for name in only:
        field = _FIELDS_BY_NAME[name]
        value = getattr(view, field.name)
        if field.name in _MASK_FIELDS:
            out[field.name] = [encode_value(card) for card in cards_of(value)]
        elif field.name == "rules":
            out[field.name] = _rules_json(value)
        elif field.name == "phase":
            out[field.name] = str(value)
        elif field.name == "legal":
            out[field.name] = [action_to_text(action) for action in value]
        else:
            out[field.name] = encode_value(value)
    return out


_RULES_JSON: dict[RuleOptions, dict[str, JsonValue]] = {}


def _rules_json(rules: RuleOptions) -> dict[str, JsonValue]:
    if rules not in _RULES_JSON:
        if len(_RULES_JSON) > 256:
            _RULES_JSON.clear()
        _RULES_JSON[rules] = options_to_dict(rules)
    return dict(_RULES_JSON[rules])


# ----- decoding ---------------------------------------------------------------------
def decode_event(data: JsonValue) -> Event:
    """Inverse of :func:`encode_event`; raises ProtocolError on anything else."""
    if not isinstance(data, dict):
        raise bad("event")
    cls = EVENT_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise bad("event type")
    event: Event = _decode_record(cls, data, skip=("type",))
    return event


def decode_view(data: JsonValue) -> PlayerView:
    """Inverse of :func:`encode_view`; raises ProtocolError on anything else."""
    if not isinstance(data, dict):
        raise bad("view")
    values: dict[str, object] = {}
    hints = _hints(PlayerView)
    for field in dataclasses.fields(PlayerView):
        if field.name not in data:
            raise bad(f"view.{field.name}")
        raw = data[field.name]
        if field.name in _MASK_FIELDS:
            values[field.name] = _card_mask(raw, field.name)
        elif field.name == "rules":
            values[field.name] = _rules(raw)
        elif field.name == "phase":
            if not isinstance(raw, str) or raw not in {p.value for p in Phase}:
                raise bad("view.phase")
            values[field.name] = Phase(raw)
        elif field.name == "legal":
            values[field.name] = tuple(_action(item) for item in _list(raw, "view.legal"))
        else:
            values[field.name] = decode_value(hints[field.name], raw, f"view.{field.name}")
    if set(data) - set(values):
        raise bad("view field")
    return PlayerView(**values)  # type: ignore[arg-type]


def decode_value(kind: object, raw: JsonValue, where: str = "value") -> Any:
    """The value of type ``kind`` (a field's type) read from JSON ``raw``.

    A ``Card`` may be ``null``: a card this viewer may not see."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if raw is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return decode_value(option, raw, where)
            except ProtocolError:
                continue
        raise bad(where)
    if origin is tuple:
        args = typing.get_args(kind)
        items = _list(raw, where)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode_value(args[0], item, where) for item in items)
        if len(items) != len(args):
            raise bad(where)
        return tuple(decode_value(a, item, where) for a, item in zip(args, items, strict=True))
    if kind is Card:
        if raw is None:
            return None
        return _parsed(Card.parse, raw, where)
    if kind is Bid:
        return _parsed(Bid.parse, raw, where)
    if kind is bool:
        if not isinstance(raw, bool):
            raise bad(where)
        return raw
    if kind is int:
        if not isinstance(raw, int) or isinstance(raw, bool) or abs(raw) > _MAX_INT:
            raise bad(where)
        return raw
    if kind is str:
        if not isinstance(raw, str):
            raise bad(where)
        return raw
    if isinstance(kind, type) and kind in _RECORDS:
        if not isinstance(raw, dict):
            raise bad(where)
        return _decode_record(kind, raw)
    raise bad(where)


def _decode_record(cls: type[Any], data: dict[str, JsonValue], skip: tuple[str, ...] = ()) -> Any:
    hints = _hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    if set(data) - set(names) - set(skip):
        raise bad(f"{cls.__name__} field")
    values = {}
    for name in names:
        if name not in data:
            raise bad(f"{cls.__name__}.{name}")
        values[name] = decode_value(hints[name], data[name], f"{cls.__name__}.{name}")
    try:
        return cls(**values)
    except (SpadesError, TypeError, ValueError) as exc:
        raise bad(cls.__name__) from exc


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _list(raw: JsonValue, where: str) -> list[JsonValue]:
    if not isinstance(raw, list):
        raise bad(where)
    return raw


def _parsed(parse: Any, raw: JsonValue, where: str) -> Any:
    if not isinstance(raw, str) or len(raw) > 20:
        raise bad(where)
    try:
        return parse(raw)
    except SpadesError as exc:
        raise bad(where) from exc


def _card_mask(raw: JsonValue, name: str) -> int:
    cards = [_parsed(Card.parse, item, f"view.{name}") for item in _list(raw, f"view.{name}")]
    return mask_of(cards)


def _rules(raw: JsonValue) -> Any:
    if not isinstance(raw, dict):
        raise bad("view.rules")
    try:
        return options_from_dict(raw)
    except SpadesError as exc:
        raise bad("view.rules") from exc


def _action(raw: JsonValue) -> Any:
    if not isinstance(raw, str) or len(raw) > 40:
        raise bad("action")
    try:
        return action_from_text(raw)
    except SpadesError as exc:
        raise bad("action") from exc


# ----- catalog messages (errors and the engine's refusals) --------------------------
def encode_message(message: Message) -> dict[str, JsonValue]:
    """A catalog message as ``{"id": ..., "fields": {...}}``. A field keeps its type:
    a card is ``{"card": "QS"}``, a suit ``{"suit": "H"}``, a seat ``{"seat": 2}``, a
    bid ``{"bid": "nil"}``, a tuple a list, a message inside one an object like this
    one; numbers, text, booleans and null are themselves."""
    return {"id": message.id, "fields": {name: encode_field(value)
                                         for name, value in message.fields.items()}}


def encode_field(value: object) -> JsonValue:
    """One message field as JSON (see :func:`encode_message`)."""
    if isinstance(value, Message):
        return encode_message(value)
    if isinstance(value, Card):
        return {"card": value.code}
    if isinstance(value, Suit):
        return {"suit": value.letter}
    if isinstance(value, Seat):
        return {"seat": int(value)}
    if isinstance(value, Bid):
        return {"bid": value.code}
    if isinstance(value, tuple | list):
        return [encode_field(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def decode_message(data: JsonValue) -> Message:
    """Inverse of :func:`encode_message`; raises ProtocolError on anything else."""
    if not isinstance(data, dict) or not isinstance(data.get("id"), str) \
            or not isinstance(data.get("fields"), dict) or len(data) != 2:
        raise bad("message")
    return Message(data["id"], **{str(k): decode_field(v) for k, v in data["fields"].items()})


def decode_field(raw: JsonValue) -> object:
    """Inverse of :func:`encode_field`."""
    if isinstance(raw, dict):
        if "id" in raw:
            return decode_message(raw)
        if len(raw) != 1:
            raise bad("field")
        (kind, value), = raw.items()
        if kind == "card":
            return _parsed(Card.parse, value, "field")
        if kind == "suit":
            return _parsed(Suit.parse, value, "field")
        if kind == "bid":
            return _parsed(Bid.parse, value, "field")
        if kind == "seat" and isinstance(value, int) and not isinstance(value, bool) \
                and 0 <= value < 16:
            return Seat(value)
        raise bad("field")
    if isinstance(raw, list):
        return tuple(decode_field(item) for item in raw)
    if raw is None or isinstance(raw, bool | int | float | str):
        return raw
    raise bad("field")
