"""Nothing the local game says is lost at a remote table: the review keys, the message
history, the hint (worked out here from the player's view) and the voice grammar."""

from __future__ import annotations

import random

from tests.client.test_remote_table import Wire, remote_session
from voice_spades.commands import Act as ActIntent
from voice_spades.engine import Card, Phase, action_from_text
from voice_spades.keys import KeyboardInput, load_keymap
from voice_spades.narration import Phrasebook
from voice_spades.protocol.wire import Act
from voice_spades.session import Session
from voice_spades.voice.understanding.grammar import build_phrases


def press(session: Session, keyboard: KeyboardInput, key: str) -> None:
    keyboard.press(key)
    while session.step():
        pass


def test_review_history_hint_and_voice_work_from_the_stream() -> None:
    seat = 3
    wire = Wire(seat)
    wire.deliver(wire.stream.welcome())
    wire.deliver(wire.stream.table())
    wire.deliver(wire.stream.state(wire.match.opening_events()))
    session, out = remote_session(wire)
    keyboard = KeyboardInput(session, load_keymap())
    session.start()
    rng = random.Random(7)
    for _ in range(400):  # two hands at most: 2 x (4 bids + 52 plays)
        view = wire.match.view(seat)
        if wire.match.hands_played >= 1 and view.is_my_turn and view.phase is Phase.PLAY:
            break
        if wire.match.to_act == seat:
            session.play_bots()
            session.handle(ActIntent(rng.choice(session.view.legal)))
            sent = wire.sent.pop()
            assert isinstance(sent, Act)
            wire.apply(action_from_text(sent.action))
        else:
            wire.apply(rng.choice(wire.match.legal_actions()))
    session.play_bots()
    assert session.view == wire.match.view(seat) and session.view.is_my_turn
    words = Phrasebook(wire.match.rules, seat)

    press(session, keyboard, "shift+l")  # the previous hand, its first trick
    first = wire.match.finished[0].completed[0]
    assert out.last().message_id == "review.trick"
    assert words.plays(first.plays) in out.last().text

    press(session, keyboard, "l")  # the last trick of this hand
    assert out.last().message_id.startswith(("review.", "answer."))

    press(session, keyboard, "a")  # the hint, from the view alone
    assert out.last().message_id == "hint.play", out.ids[-3:]
    hinted = [c for c in session.view.legal if isinstance(c, Card)
              and words.card(c) in out.last().text]
    assert hinted, out.last().text

    hint = out.last().text
    press(session, keyboard, ",")  # the history: first press, the newest message
    assert hint in out.last().text

    context = session.context()
    phrases = build_phrases(context.view, confirming=False, cursor=context.cursor)
    named = {str(card) for card in session.view.legal if isinstance(card, Card)}
    assert phrases.phrases and named
    sayable = {str(meaning.action) for meaning in phrases.meanings.values()
               if isinstance(meaning, ActIntent)}
    assert named <= sayable, named - sayable  # every legal card can be said
