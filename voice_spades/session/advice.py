"""The hint key: what the Hard player would do in the player's seat, worded.

The choice and its reason come from :func:`voice_spades.bots.explain.advise` as data;
this module only turns them into the line the player hears.
"""

from __future__ import annotations

from voice_spades.bots.explain import Advice, advise
from voice_spades.engine import Action, Bid, BlindNilChoice, Card, DrawChoice, PlayerView
from voice_spades.narration import Answers, Hints, Line, Phrasebook


def hint(view: PlayerView, answers: Answers, seed: int, *,
         over: bool = False) -> tuple[Line, Action | None]:
    """"Hint: play the king of hearts. It wins the trick with the lowest card that beats
    East's queen of hearts. Enter plays it.", and the action advised; on someone else's
    turn, whose turn it is instead (and no action)."""
    if over:
        return answers.line("turn.over"), None
    if not view.is_my_turn:
        return answers.line("hint.not_now", turn=answers.whose_turn(view).text), None
    advice = advise(view, seed)
    return advice_line(view, advice, answers.words, answers.hints), advice.action


def advice_line(view: PlayerView, advice: Advice, words: Phrasebook,
                hints: Hints | None = None) -> Line:
    """``advice`` in words, for the player at ``view``; a card, a bid or an exchange
    says that the confirm key of ``hints`` makes it (the turn puts it under that key)."""
    action, reason = advice.action, advice.reason
    key = (hints or Hints()).confirm
    fields: dict[str, object]
    if isinstance(action, Card):
        message_id, fields = "hint.play", {"card": action, "key": key}
    elif isinstance(action, Bid):
        message_id, fields = "hint.bid", {"bid": action, "key": key}
    elif isinstance(action, DrawChoice):
        message_id = "hint.keep" if action.keep else "hint.discard"
        fields = {"card": view.draw_top}
    elif isinstance(action, BlindNilChoice):
        message_id, fields = ("hint.blind_nil" if action.declare else "hint.no_blind_nil"), {}
    elif action.cards:
        named = [words.card(card) for card in action.cards]
        message_id, fields = "hint.exchange", {"cards": words.join(named), "key": key}
    else:
        message_id, fields = "hint.exchange_none", {"key": key}
    return Line(message_id, words.say(message_id, reason=reason, **fields))
