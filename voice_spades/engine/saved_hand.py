"""Reading a saved hand: its deal (or two-player stock) and its actions, replayed and
re-checked, so that a damaged or doctored save is refused with the reason."""

from __future__ import annotations

from voice_spades.engine.actions import action_from_text, action_to_text
from voice_spades.engine.cards import Card
from voice_spades.engine.hand import HandState
from voice_spades.engine.profiles import Deal, RuleOptions
from voice_spades.errors import IllegalActionError, InvalidInputError, InvalidStateError

CHANCE_SEED_LIMIT = 2**64
"""Saved chance seeds are below this."""
HAND_NUMBER_LIMIT = 10**6
"""No saved match has more hands than this."""


def hand_from_dict(rules: RuleOptions, data: dict[str, object]) -> HandState:
    """Rebuild a hand from :meth:`HandState.to_dict` by replaying its actions; a rule
    broken anywhere raises InvalidStateError saying what is wrong."""
    try:
        dealer = _int_field(data, "dealer", 0, rules.players - 1)
        number = _int_field(data, "hand_number", 1, HAND_NUMBER_LIMIT)
        chance = _int_field(data, "chance_seed", 0, CHANCE_SEED_LIMIT)
        if rules.deal is Deal.DRAW:
            stock = [Card.parse(str(c)) for c in _list_field(data, "stock")]
            state = HandState.from_stock(rules, dealer, stock, number, chance)
        else:
            hands = [[Card.parse(str(c)) for c in _list_of_lists(h)]
                     for h in _list_field(data, "deal")]
            state = HandState.from_deal(rules, dealer, hands, number, chance)
        actions = [action_from_text(str(a)) for a in _list_field(data, "actions")]
    except InvalidInputError as exc:
        raise InvalidStateError("save.hand_damaged", reason=exc.message) from exc
    for step, action in enumerate(actions, 1):
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise InvalidStateError("save.hand_breaks_rules", step=step,
                                    action=action_to_text(action), reason=exc.message) from exc
    return state


def _int_field(data: dict[str, object], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidStateError("save.hand_field_range", name=key)
    return value


def _list_field(data: dict[str, object], key: str) -> list[object]:
    value = data.get(key)
    if not isinstance(value, list):
        raise InvalidStateError("save.hand_field_missing", name=key)
    return value


def _list_of_lists(value: object) -> list[object]:
    if not isinstance(value, list):
        raise InvalidStateError("save.deal_not_lists")
    return value
